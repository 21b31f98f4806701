import type { MomentumPerformanceRow } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/momentums/performance?start&end: one row per momentum or campaign with activity. */
export async function listMomentumPerformance(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<MomentumPerformanceRow[]> {
  const { data } = await getRanged<MomentumPerformanceRow[]>(
    domainUuid,
    '/momentums/performance',
    range,
    undefined,
    signal,
  );
  return Array.isArray(data) ? data : [];
}

export const momentumPerformanceQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'momentum-performance', params.range),
    queryFn: ({ signal }) => listMomentumPerformance(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useMomentumPerformance = (params: WidgetParams) => useQuery(momentumPerformanceQueryOptions(params));
