import { Group, Stack, Text } from '@mantine/core';
import { formatCount, formatPercent } from '../../../lib/format.ts';

/** A chart's legend as text: colour, label, figure and share of the total. */
export function LegendList({ items }: { items: { label: string; value: number; color: string }[] }) {
  const total = items.reduce((sum, i) => sum + i.value, 0);
  return (
    <Stack gap={6} w="100%">
      {items.map((item) => (
        <Group key={item.label} justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
            <span
              aria-hidden
              style={{
                width: 10,
                height: 10,
                borderRadius: 3,
                flex: 'none',
                background: `var(--mantine-color-${item.color.replace('.', '-')})`,
              }}
            />
            <Text size="sm" truncate="end">
              {item.label}
            </Text>
          </Group>
          <Group gap={8} wrap="nowrap">
            <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatCount(item.value)}
            </Text>
            <Text size="xs" c="dimmed" w={48} ta="right">
              {formatPercent(total > 0 ? (item.value / total) * 100 : 0)}
            </Text>
          </Group>
        </Group>
      ))}
    </Stack>
  );
}
