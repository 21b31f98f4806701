import { IconUsers } from '@tabler/icons-react';
import { formatCount } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useVisitors } from '../api/count-visitors.ts';
import { ChangeLine, StatSkeleton, StatValue } from './stat-value.tsx';
import { WidgetCard } from './widget-card.tsx';

export function VisitorsCard(params: WidgetParams) {
  const query = useVisitors(params);
  return (
    <WidgetCard title="Visitantes" icon={<IconUsers size={18} />} query={query} skeleton={<StatSkeleton />}>
      {() => (
        <StatValue
          value={formatCount(query.data?.count ?? 0)}
          sub={
            <ChangeLine
              count={query.data?.count ?? 0}
              previous={query.data?.previous ?? 0}
              previousUntil={query.data?.previous_until}
              oneDay={params.range.start === params.range.end}
              emptyLabel="Nenhum visitante no período"
            />
          }
        />
      )}
    </WidgetCard>
  );
}
