import type { AnalyticsRange } from '@impeto/shared';
import { api } from '../../../lib/api.ts';

/** Every analytics query key starts with these, so one invalidation reaches every widget of a domain. */
export const analyticsKey = (domainUuid: string, widget: string, ...rest: (string | number)[]) =>
  ['analytics', domainUuid, widget, ...rest] as const;

export const rangedKey = (domainUuid: string, widget: string, range: AnalyticsRange) =>
  analyticsKey(domainUuid, widget, range.start, range.end);

const rangeQuery = (range: AnalyticsRange, extra: Record<string, string | number> = {}) =>
  new URLSearchParams({
    start: range.start,
    end: range.end,
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])),
  }).toString();

/** GET /api/analytics/:domainUuid<path>?start&end: the `{ message, data }` of one widget. */
export const getRanged = <T>(
  domainUuid: string,
  path: string,
  range: AnalyticsRange,
  extra?: Record<string, string | number>,
  signal?: AbortSignal,
) =>
  api.get<T>(`/analytics/${encodeURIComponent(domainUuid)}${path}?${rangeQuery(range, extra)}`, {
    service: 'analytics',
    ...(signal ? { signal } : {}),
  });

export interface WidgetParams {
  domainUuid: string;
  range: AnalyticsRange;
}
