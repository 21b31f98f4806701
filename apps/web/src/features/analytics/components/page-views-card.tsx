import { IconEye } from '@tabler/icons-react';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useVisits } from '../api/count-visits.ts';
import { CountCard } from './count-card.tsx';

export function PageViewsCard(params: WidgetParams) {
  return (
    <CountCard
      title="Visualizações de página"
      icon={<IconEye size={18} />}
      query={useVisits(params)}
      range={params.range}
      emptyLabel="Nenhuma visita no período"
    />
  );
}
