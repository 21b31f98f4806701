import { Group, Stack, Text } from '@mantine/core';
import { IconBellRinging } from '@tabler/icons-react';
import { formatCount, formatShortDay } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useOptinsDaily } from '../api/optins-daily.ts';
import { AreaChart, BarChart } from './charts.tsx';
import { WidgetCard } from './widget-card.tsx';

const SERIES = [
  { name: 'optins', label: 'Opt-ins', color: 'teal.6' },
  { name: 'optouts', label: 'Opt-outs', color: 'red.6' },
];

function Figure({ label, value, color }: { label: string; value: string; color: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" c={color}>
        {value}
      </Text>
    </Stack>
  );
}

export function OptinsChart(params: WidgetParams) {
  const query = useOptinsDaily(params);
  const rows = query.data ?? [];
  const optins = rows.reduce((s, r) => s + r.optins, 0);
  const optouts = rows.reduce((s, r) => s + r.optouts, 0);
  const net = optins - optouts;
  const data = rows.map((r) => ({ ...r, label: formatShortDay(r.date) }));
  return (
    <WidgetCard
      title="Opt-ins e opt-outs por dia"
      description="Inscrições e cancelamentos de notificações push"
      icon={<IconBellRinging size={18} />}
      query={query}
    >
      {() => (
        <Stack gap="md">
          <Group gap="xl">
            <Figure label="Opt-ins" value={formatCount(optins)} color="teal.7" />
            <Figure label="Opt-outs" value={formatCount(optouts)} color="red.7" />
            <Figure
              label="Saldo"
              value={`${net > 0 ? '+' : net < 0 ? '−' : ''}${formatCount(Math.abs(net))}`}
              color="dark"
            />
          </Group>
          {optins + optouts === 0 ? (
            <Text size="xs" c="dimmed">
              Nenhuma inscrição no período. Ative a notificação push em Canais para que os visitantes possam se
              inscrever.
            </Text>
          ) : null}
          {rows.length > 1 ? (
            <AreaChart
              h={220}
              data={data}
              dataKey="label"
              series={SERIES}
              curveType="monotone"
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              valueFormatter={formatCount}
              tickLine="none"
              gridAxis="y"
              withDots={rows.length <= 31}
              yAxisProps={{ allowDecimals: false, width: 44 }}
            />
          ) : (
            // One day has no curve to draw: the day's two figures side by side.
            <BarChart
              h={220}
              data={data}
              dataKey="label"
              series={SERIES}
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              valueFormatter={formatCount}
              tickLine="none"
              gridAxis="y"
              maxBarWidth={48}
              yAxisProps={{ allowDecimals: false, width: 44 }}
            />
          )}
        </Stack>
      )}
    </WidgetCard>
  );
}
