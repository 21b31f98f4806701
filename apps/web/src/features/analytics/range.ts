import type { AnalyticsRange } from '@impeto/shared';
import { daysInRange, isAnalyticsRange } from '@impeto/shared/core';
import { dayInZone } from '../../lib/format.ts';

/** Analytics days are the company's local days; companies are in America/Sao_Paulo unless told otherwise. */
export const ANALYTICS_TIME_ZONE = 'America/Sao_Paulo';

export const todayInZone = (now = new Date()) => dayInZone(now, ANALYTICS_TIME_ZONE);

export const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The range in the URL (`start`, `end`) when it is a valid one, else today to today (spec doc 1 §9). */
export function rangeFromParams(params: URLSearchParams, now = new Date()): AnalyticsRange {
  // The shared schema's rule without zod, which the first load of `/` does not fetch.
  const start = params.get('start');
  const end = params.get('end');
  if (isAnalyticsRange(start, end)) return { start: start as string, end: end as string };
  const today = todayInZone(now);
  return { start: today, end: today };
}

/** Every day of the range, both ends included. */
export const daysOf = (range: AnalyticsRange) =>
  Array.from({ length: daysInRange(range.start, range.end) }, (_, i) => shiftDay(range.start, i));

/** The per-momentum chart needs more than one day (READINGS A-23: whenever end > start). */
export const spansSeveralDays = (range: AnalyticsRange) => range.end > range.start;
