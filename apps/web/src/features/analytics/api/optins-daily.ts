import type { OptinDailyRow } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/optins/daily?start&end: opt-ins and opt-outs per day. */
export async function listOptinsDaily(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<OptinDailyRow[]> {
  const { data } = await getRanged<OptinDailyRow[]>(domainUuid, '/optins/daily', range, undefined, signal);
  return Array.isArray(data) ? data : [];
}

export const optinsDailyQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'optins-daily', params.range),
    queryFn: ({ signal }) => listOptinsDaily(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useOptinsDaily = (params: WidgetParams) => useQuery(optinsDailyQueryOptions(params));
