import type { CountWithPrevious } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/count/visits?start&end: page views, and those of the previous range of the same length. */
export async function countVisits(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<CountWithPrevious> {
  const { data } = await getRanged<CountWithPrevious>(domainUuid, '/count/visits', range, undefined, signal);
  return data ?? { count: 0, previous: 0 };
}

export const visitsQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'count-visits', params.range),
    queryFn: ({ signal }) => countVisits(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useVisits = (params: WidgetParams) => useQuery(visitsQueryOptions(params));
