import type { AnalyticsRange, EventDailyRow } from '@impeto/shared';
import { daysInRange } from '@impeto/shared/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { analyticsKey } from './analytics-query.ts';

/**
 * GET /api/analytics/event/:categoryUuid/:domainUuid/count/dailyPeopleImpacted?period=n&end=: visitors per day
 * who sent events of one category. The spec takes a period instead of a range (READINGS A-23): n is the number
 * of days of the selected range, ending at its end.
 */
export async function listEventDailyImpact(
  domainUuid: string,
  categoryUuid: string,
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<EventDailyRow[]> {
  const query = new URLSearchParams({ period: String(daysInRange(range.start, range.end)), end: range.end });
  const { data } = await api.get<EventDailyRow[]>(
    `/analytics/event/${encodeURIComponent(categoryUuid)}/${encodeURIComponent(domainUuid)}/count/dailyPeopleImpacted?${query}`,
    { service: 'analytics', ...(signal ? { signal } : {}) },
  );
  return Array.isArray(data) ? data : [];
}

export const eventDailyImpactQueryOptions = (domainUuid: string, categoryUuid: string, range: AnalyticsRange) =>
  queryOptions({
    queryKey: analyticsKey(domainUuid, 'event-daily-impact', categoryUuid, range.start, range.end),
    queryFn: ({ signal }) => listEventDailyImpact(domainUuid, categoryUuid, range, signal),
    enabled: Boolean(domainUuid && categoryUuid),
  });

export const useEventDailyImpact = (domainUuid: string, categoryUuid: string, range: AnalyticsRange) =>
  useQuery(eventDailyImpactQueryOptions(domainUuid, categoryUuid, range));
