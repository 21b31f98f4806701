import type { MomentumDailyRow } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/momentums/daily?start&end: sent, viewed and clicked per day and momentum. */
export async function listMomentumsDaily(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<MomentumDailyRow[]> {
  const { data } = await getRanged<MomentumDailyRow[]>(domainUuid, '/momentums/daily', range, undefined, signal);
  return Array.isArray(data) ? data : [];
}

export const momentumsDailyQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'momentums-daily', params.range),
    queryFn: ({ signal }) => listMomentumsDaily(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useMomentumsDaily = (params: WidgetParams) => useQuery(momentumsDailyQueryOptions(params));
