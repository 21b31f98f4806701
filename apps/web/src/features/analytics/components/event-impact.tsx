import { Select, Stack, Text } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { formatCount, formatShortDay } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useEventDailyImpact } from '../api/event-daily-impact.ts';
import { useVisitorsByCategory } from '../api/visitors-by-category.ts';
import { BarChart } from './charts.tsx';
import { EVENTS_HINT } from './visitors-by-category.tsx';
import { WidgetCard, WidgetEmpty } from './widget-card.tsx';

/** The category the widget shows: the one asked for when it has events in the range, else the busiest one. */
export function pickCategory(categories: { category_uuid: string; amount: number }[], wanted: string | null) {
  if (wanted && categories.some((c) => c.category_uuid === wanted)) return wanted;
  return [...categories].sort((a, b) => b.amount - a.amount)[0]?.category_uuid ?? '';
}

export function EventImpact({
  domainUuid,
  range,
  category,
  onCategoryChange,
}: WidgetParams & { category: string | null; onCategoryChange: (uuid: string) => void }) {
  const categories = useVisitorsByCategory({ domainUuid, range });
  const selected = pickCategory(categories.data ?? [], category);
  const events = useEventDailyImpact(domainUuid, selected, range);
  const noCategory = categories.isSuccess && !selected;
  // One card, two requests: the category list first, then the chosen category's days.
  const query = noCategory ? categories : categories.isError || categories.isPending ? categories : events;
  const rows = events.data ?? [];
  const total = rows.reduce((s, r) => s + r.amount, 0);
  const name = categories.data?.find((c) => c.category_uuid === selected)?.parent_category ?? '';

  return (
    <WidgetCard
      title="Impacto por evento"
      description="Visitantes por dia que enviaram eventos da categoria"
      icon={<IconActivity size={18} />}
      query={query}
      actions={
        (categories.data?.length ?? 0) > 0 ? (
          <Select
            size="xs"
            w={200}
            aria-label="Categoria do evento"
            allowDeselect={false}
            value={selected}
            onChange={(v) => v && onCategoryChange(v)}
            data={(categories.data ?? []).map((c) => ({ value: c.category_uuid, label: c.parent_category }))}
            comboboxProps={{ withinPortal: true }}
          />
        ) : null
      }
    >
      {() =>
        noCategory ? (
          <WidgetEmpty icon={<IconActivity size={32} />} title="Nenhum evento no período" hint={EVENTS_HINT} />
        ) : (
          <Stack gap="sm">
            <Text size="sm">
              <b>{formatCount(total)}</b> visitantes com eventos “{name}” no período
            </Text>
            <BarChart
              h={220}
              data={rows.map((r) => ({ ...r, label: formatShortDay(r.date) }))}
              dataKey="label"
              series={[{ name: 'amount', label: 'Visitantes', color: 'teal.6' }]}
              valueFormatter={formatCount}
              tickLine="none"
              gridAxis="y"
              yAxisProps={{ allowDecimals: false, width: 44 }}
              maxBarWidth={40}
            />
          </Stack>
        )
      }
    </WidgetCard>
  );
}
