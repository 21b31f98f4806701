import type { AnalyticsRange, MomentumDailyRow } from '@impeto/shared';
import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconChartBar, IconChartLine } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { formatCount, formatShortDay } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useMomentumsDaily } from '../api/momentums-daily.ts';
import { daysOf, spansSeveralDays } from '../range.ts';
import { BarChart } from './charts.tsx';
import { seriesColor } from './palette.ts';
import { WidgetCard, WidgetEmpty } from './widget-card.tsx';

// One momentum's daily chart, fetched when its link is followed.
const MomentumDailyModal = lazy(() =>
  import('./momentum-daily-modal.tsx').then((m) => ({ default: m.MomentumDailyModal })),
);

type Metric = 'notifications_sent' | 'notifications_viewed' | 'notifications_clicked';
const METRICS: { value: Metric; label: string }[] = [
  { value: 'notifications_sent', label: 'Enviadas' },
  { value: 'notifications_viewed', label: 'Visualizadas' },
  { value: 'notifications_clicked', label: 'Cliques' },
];
const MAX_SERIES = 6;

interface MomentumSeries {
  uuid: string;
  title: string;
  key: string;
  total: number;
}

/**
 * Momentums by messages sent (so each keeps its colour whatever the metric); past MAX_SERIES − 1 they share one
 * 'Outros' series. Keys avoid dots in titles, which Recharts would read as paths.
 */
function seriesOf(rows: MomentumDailyRow[]) {
  const byMomentum = new Map<string, MomentumSeries>();
  for (const row of rows) {
    const s = byMomentum.get(row.momentum_uuid) ?? {
      uuid: row.momentum_uuid,
      title: row.momentum_title || 'Sem título',
      key: '',
      total: 0,
    };
    s.total += row.notifications_sent;
    byMomentum.set(row.momentum_uuid, s);
  }
  const all = [...byMomentum.values()].sort((a, b) => b.total - a.total || a.title.localeCompare(b.title));
  all.forEach((s, i) => {
    s.key = all.length > MAX_SERIES && i >= MAX_SERIES - 1 ? 'others' : `m${i}`;
  });
  return all;
}

function chartData(rows: MomentumDailyRow[], metric: Metric, series: MomentumSeries[], range: AnalyticsRange) {
  const keyOf = new Map(series.map((s) => [s.uuid, s.key]));
  const days = new Map(daysOf(range).map((d) => [d, { label: formatShortDay(d) } as Record<string, string | number>]));
  for (const row of rows) {
    const day = days.get(row.date);
    const key = keyOf.get(row.momentum_uuid);
    if (!day || !key) continue;
    day[key] = ((day[key] as number | undefined) ?? 0) + row[metric];
  }
  const keys = [...new Set(series.map((s) => s.key))];
  return [...days.values()].map((d) => Object.fromEntries([['label', d.label], ...keys.map((k) => [k, d[k] ?? 0])]));
}

/**
 * The chart's legend as HTML under it: Recharts' own legend takes its height from the chart's, so on a phone a few
 * long titles left the bars a 50 px strip. Here titles wrap and each carries its total for the chosen metric.
 */
function SeriesLegend({ items }: { items: { name: string; label: string; color: string; total: number }[] }) {
  return (
    <Stack component="ul" gap={4} m={0} p={0} aria-label="Legenda">
      {items.map((item) => (
        <Group
          key={item.name}
          component="li"
          gap={8}
          wrap="nowrap"
          justify="space-between"
          style={{ listStyle: 'none' }}
        >
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
            <Text size="sm" lineClamp={2}>
              {item.label}
            </Text>
          </Group>
          <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
            {formatCount(item.total)}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

export function MomentumImpact(params: WidgetParams) {
  const query = useMomentumsDaily(params);
  const [metric, setMetric] = useState<Metric>('notifications_sent');
  const [opened, setOpened] = useState<{ uuid: string; title: string } | null>(null);
  const rows = query.data ?? [];
  const series = seriesOf(rows);
  const chartSeries = series
    .filter((s, i, all) => all.findIndex((x) => x.key === s.key) === i)
    .map((s, i) => ({ name: s.key, label: s.key === 'others' ? 'Outros' : s.title, color: seriesColor(i) }));
  const several = spansSeveralDays(params.range);

  return (
    <>
      <WidgetCard
        title="Impacto por momentum"
        description="Mensagens por dia e momentum"
        icon={<IconChartBar size={18} />}
        query={query}
        actions={
          rows.length > 0 ? (
            <SegmentedControl
              size="xs"
              value={metric}
              onChange={(v) => setMetric(v as Metric)}
              data={METRICS}
              aria-label="Métrica"
            />
          ) : null
        }
      >
        {() =>
          rows.length === 0 ? (
            <WidgetEmpty
              icon={<IconChartBar size={32} />}
              title="Nenhuma mensagem no período"
              hint="Os envios dos seus momentums aparecem aqui, dia a dia."
            />
          ) : (
            <Stack gap="md">
              <BarChart
                h={260}
                data={chartData(rows, metric, series, params.range)}
                dataKey="label"
                type="stacked"
                series={chartSeries}
                valueFormatter={formatCount}
                tickLine="none"
                gridAxis="y"
                yAxisProps={{ allowDecimals: false, width: 44 }}
                maxBarWidth={48}
              />
              <SeriesLegend
                items={chartSeries.map((c) => ({
                  ...c,
                  total: rows
                    .filter((r) => series.find((s) => s.uuid === r.momentum_uuid)?.key === c.name)
                    .reduce((sum, r) => sum + r[metric], 0),
                }))}
              />
              <Stack gap={6}>
                <Text size="xs" c="dimmed" fw={600} tt="uppercase">
                  Gráfico diário de cada momentum
                </Text>
                {several ? (
                  <Group gap="xs">
                    {series.map((s) => (
                      <Button
                        key={s.uuid}
                        size="compact-sm"
                        variant="light"
                        leftSection={<IconChartLine size={14} />}
                        onClick={() => setOpened({ uuid: s.uuid, title: s.title })}
                        aria-label={`Gráfico diário de ${s.title}`}
                        maw={280}
                      >
                        <Text span size="sm" truncate="end">
                          {s.title}
                        </Text>
                      </Button>
                    ))}
                  </Group>
                ) : (
                  <Text size="xs" c="dimmed">
                    Selecione um período de mais de um dia para ver o gráfico diário de cada momentum.
                  </Text>
                )}
              </Stack>
            </Stack>
          )
        }
      </WidgetCard>
      {opened ? (
        <Suspense fallback={null}>
          <MomentumDailyModal
            domainUuid={params.domainUuid}
            momentumUuid={opened.uuid}
            title={opened.title}
            range={params.range}
            onClose={() => setOpened(null)}
          />
        </Suspense>
      ) : null}
    </>
  );
}
