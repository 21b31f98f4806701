import { type AnalyticsRange, analyticsRangeSchema, daysInRange } from '@impeto/shared';
import { dayInZone } from '../../lib/format.ts';

/** Analytics days are the company's local days; companies are in America/Sao_Paulo unless told otherwise. */
export const ANALYTICS_TIME_ZONE = 'America/Sao_Paulo';

export const todayInZone = (now = new Date()) => dayInZone(now, ANALYTICS_TIME_ZONE);

export const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The range in the URL (`start`, `end`) when it is a valid one, else today to today (spec doc 1 §9). */
export function rangeFromParams(params: URLSearchParams, now = new Date()): AnalyticsRange {
  const parsed = analyticsRangeSchema.safeParse({ start: params.get('start'), end: params.get('end') });
  if (parsed.success) return parsed.data;
  const today = todayInZone(now);
  return { start: today, end: today };
}

/** Every day of the range, both ends included. */
export const daysOf = (range: AnalyticsRange) =>
  Array.from({ length: daysInRange(range.start, range.end) }, (_, i) => shiftDay(range.start, i));

/** The per-momentum chart needs more than one day (READINGS A-23: whenever end > start). */
export const spansSeveralDays = (range: AnalyticsRange) => range.end > range.start;
