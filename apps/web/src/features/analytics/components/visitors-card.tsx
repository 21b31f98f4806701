import { IconUsers } from '@tabler/icons-react';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useVisitors } from '../api/count-visitors.ts';
import { CountCard } from './count-card.tsx';

export function VisitorsCard(params: WidgetParams) {
  return (
    <CountCard
      title="Visitantes"
      icon={<IconUsers size={18} />}
      query={useVisitors(params)}
      range={params.range}
      emptyLabel="Nenhum visitante no período"
    />
  );
}
