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

// Intl, not dayjs: this card is on the first screen of '/' (first-load budget).
const clock = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', hour: '2-digit', minute: '2-digit' });
const dayAndClock = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/**
 * What the change is measured against: the whole previous period, or, when the range reaches today, the previous
 * period only until the same time (`previous_until`), so a morning is not compared with a whole day (issue #29).
 */
export function comparedWith(previousUntil: string | undefined, oneDay: boolean) {
  if (!previousUntil) return 'vs. período anterior';
  const at = new Date(previousUntil);
  return oneDay
    ? `vs. ontem até ${clock.format(at)}`
    : `vs. período anterior até ${dayAndClock.format(at).replace(',', '')}`;
}

/** '+12,5% vs. período anterior' in green, red when down; a plain note when there is nothing to compare with. */
export function ChangeLine({
  count,
  previous,
  emptyLabel,
  previousUntil,
  oneDay = false,
}: {
  count: number;
  previous: number;
  emptyLabel: string;
  previousUntil?: string | undefined;
  oneDay?: boolean;
}) {
  const change = percentChange(count, previous);
  if (change === null)
    return (
      <Text size="xs" c="dimmed">
        {count === 0 ? emptyLabel : 'Sem dados no período anterior para comparar'}
      </Text>
    );
  const color = change > 0 ? 'teal.9' : change < 0 ? 'red.9' : 'dimmed';
  const Icon = change >= 0 ? IconArrowUpRight : IconArrowDownRight;
  return (
    <Group gap={4} wrap="nowrap">
      {change !== 0 ? <Icon size={14} color={`var(--mantine-color-${change > 0 ? 'teal' : 'red'}-7)`} /> : null}
      <Text size="xs" c={color} fw={600}>
        {formatSignedPercent(change)}
      </Text>
      <Text size="xs" c="dimmed">
        {comparedWith(previousUntil, oneDay)}
      </Text>
    </Group>
  );
}
