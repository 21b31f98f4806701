import type { LiveVisitors } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { analyticsKey } from './analytics-query.ts';

export const LIVE_REFRESH_MS = 30_000;

/** GET /api/analytics/:domainUuid/count/live: distinct visitors in the last 5 minutes (no range). */
export async function countLive(domainUuid: string, signal?: AbortSignal): Promise<LiveVisitors> {
  const { data } = await api.get<LiveVisitors>(`/analytics/${encodeURIComponent(domainUuid)}/count/live`, {
    service: 'analytics',
    ...(signal ? { signal } : {}),
  });
  return data ?? { count: 0, at: new Date().toISOString() };
}

export const liveQueryOptions = (domainUuid: string) =>
  queryOptions({
    queryKey: analyticsKey(domainUuid, 'count-live'),
    queryFn: ({ signal }) => countLive(domainUuid, signal),
    enabled: Boolean(domainUuid),
    staleTime: 0,
    refetchInterval: LIVE_REFRESH_MS,
    refetchIntervalInBackground: false,
  });

export const useLiveVisitors = (domainUuid: string) => useQuery(liveQueryOptions(domainUuid));
