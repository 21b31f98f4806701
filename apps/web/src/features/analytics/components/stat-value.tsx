import { Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatSignedPercent, percentChange } from '../../../lib/format.ts';

export function StatSkeleton() {
  return (
    <Stack gap={8} aria-hidden>
      <Skeleton height={34} width="55%" />
      <Skeleton height={12} width="75%" />
    </Stack>
  );
}

/** The big figure of a number card and the line under it. */
export function StatValue({ value, sub }: { value: ReactNode; sub?: ReactNode }) {
  return (
    <Stack gap={6}>
      <Text fz={32} fw={700} lh={1.1} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
      {sub ? <div>{sub}</div> : null}
    </Stack>
  );
}

/** '+12,5% vs. período anterior' in green, red when down; a plain note when there is nothing to compare with. */
export function ChangeLine({ count, previous, emptyLabel }: { count: number; previous: number; emptyLabel: string }) {
  const change = percentChange(count, previous);
  if (change === null)
    return (
      <Text size="xs" c="dimmed">
        {count === 0 ? emptyLabel : 'Sem dados no período anterior para comparar'}
      </Text>
    );
  const color = change > 0 ? 'teal.7' : change < 0 ? 'red.7' : 'dimmed';
  const Icon = change >= 0 ? IconArrowUpRight : IconArrowDownRight;
  return (
    <Group gap={4} wrap="nowrap">
      {change !== 0 ? <Icon size={14} color={`var(--mantine-color-${change > 0 ? 'teal' : 'red'}-7)`} /> : null}
      <Text size="xs" c={color} fw={600}>
        {formatSignedPercent(change)}
      </Text>
      <Text size="xs" c="dimmed">
        vs. período anterior
      </Text>
    </Group>
  );
}
