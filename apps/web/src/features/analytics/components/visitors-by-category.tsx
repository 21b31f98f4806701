import { IconTags } from '@tabler/icons-react';
import { formatCount } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useVisitorsByCategory } from '../api/visitors-by-category.ts';
import { BarsList } from './charts.tsx';
import { WidgetCard, WidgetEmpty } from './widget-card.tsx';

export const EVENTS_HINT = "Envie eventos do seu site com gero('event', 'categoria', { ... }) para vê-los aqui.";

export function VisitorsByCategory(params: WidgetParams) {
  const query = useVisitorsByCategory(params);
  const rows = [...(query.data ?? [])].sort((a, b) => b.amount - a.amount);
  return (
    <WidgetCard
      title="Visitantes por categoria"
      description="Visitantes distintos que enviaram eventos de cada categoria"
      icon={<IconTags size={18} />}
      query={query}
    >
      {() =>
        rows.length === 0 ? (
          <WidgetEmpty icon={<IconTags size={32} />} title="Nenhum evento no período" hint={EVENTS_HINT} />
        ) : (
          <BarsList
            barsLabel="Categoria"
            valueLabel="Visitantes"
            barColor="brand.1"
            barTextColor="dark.7"
            valueFormatter={formatCount}
            data={rows.map((r) => ({ name: r.parent_category, value: r.amount }))}
          />
        )
      }
    </WidgetCard>
  );
}
