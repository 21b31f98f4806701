import type { CountWithPrevious } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/count/visitors?start&end: distinct visitors, and those of the previous range. */
export async function countVisitors(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<CountWithPrevious> {
  const { data } = await getRanged<CountWithPrevious>(domainUuid, '/count/visitors', range, undefined, signal);
  return data ?? { count: 0, previous: 0 };
}

export const visitorsQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'count-visitors', params.range),
    queryFn: ({ signal }) => countVisitors(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useVisitors = (params: WidgetParams) => useQuery(visitorsQueryOptions(params));
