import type { MomentumCounts } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/count/momentums?start&end: active and inactive momentums of the domain now. */
export async function countMomentums(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<MomentumCounts> {
  const { data } = await getRanged<MomentumCounts>(domainUuid, '/count/momentums', range, undefined, signal);
  return data ?? { active: 0, inactive: 0 };
}

export const momentumCountsQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'count-momentums', params.range),
    queryFn: ({ signal }) => countMomentums(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useMomentumCounts = (params: WidgetParams) => useQuery(momentumCountsQueryOptions(params));
