import { IconEye } from '@tabler/icons-react';
import { formatCount } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useVisits } from '../api/count-visits.ts';
import { ChangeLine, StatSkeleton, StatValue } from './stat-value.tsx';
import { WidgetCard } from './widget-card.tsx';

export function PageViewsCard(params: WidgetParams) {
  const query = useVisits(params);
  return (
    <WidgetCard title="Visualizações de página" icon={<IconEye size={18} />} query={query} skeleton={<StatSkeleton />}>
      {() => (
        <StatValue
          value={formatCount(query.data?.count ?? 0)}
          sub={
            <ChangeLine
              count={query.data?.count ?? 0}
              previous={query.data?.previous ?? 0}
              previousUntil={query.data?.previous_until}
              oneDay={params.range.start === params.range.end}
              emptyLabel="Nenhuma visita no período"
            />
          }
        />
      )}
    </WidgetCard>
  );
}
