import type { AnalyticsRange, DailyImpactRow } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { analyticsKey } from './analytics-query.ts';

/** GET /api/analytics/momentum/:uuid/count/dailyPeopleImpacted?start&end: one momentum, every day of the range. */
export async function listMomentumDailyImpact(
  momentumUuid: string,
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<DailyImpactRow[]> {
  const query = new URLSearchParams({ start: range.start, end: range.end });
  const { data } = await api.get<DailyImpactRow[]>(
    `/analytics/momentum/${encodeURIComponent(momentumUuid)}/count/dailyPeopleImpacted?${query}`,
    { service: 'analytics', ...(signal ? { signal } : {}) },
  );
  return Array.isArray(data) ? data : [];
}

export const momentumDailyImpactQueryOptions = (domainUuid: string, momentumUuid: string, range: AnalyticsRange) =>
  queryOptions({
    queryKey: analyticsKey(domainUuid, 'momentum-daily-impact', momentumUuid, range.start, range.end),
    queryFn: ({ signal }) => listMomentumDailyImpact(momentumUuid, range, signal),
    enabled: Boolean(momentumUuid),
  });

export const useMomentumDailyImpact = (domainUuid: string, momentumUuid: string, range: AnalyticsRange) =>
  useQuery(momentumDailyImpactQueryOptions(domainUuid, momentumUuid, range));
