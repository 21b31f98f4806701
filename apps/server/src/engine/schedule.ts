import { type Worktime, worktimeOpen } from '@impeto/shared';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/*
 * The engine's calendar, in the company's time zone (default America/Sao_Paulo); instants stay UTC Dates.
 * Worktime (Cronograma): weekdays 0–6 from Sunday, start_at and stop_at HH:mm. A window whose stop is not
 * after its start runs overnight (22:00–06:00 opens on the listed weekday and closes the next morning);
 * equal times mean the whole day.
 */

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

const local = (at: Date, tz: string) => dayjs(at).tz(tz);

/** A local wall-clock time (YYYY-MM-DD and HH:mm) in `tz` as a UTC instant. */
export const atLocal = (ymd: string, hhmm: string, tz: string) => dayjs.tz(`${ymd} ${hhmm}`, tz).toDate();

/** What the wall clock in `tz` reads at `at`: the date (YYYY-MM-DD), the time (HH:mm), minutes and hour of the day. */
export function localClock(at: Date, tz: string) {
  const t = local(at, tz);
  return { ymd: t.format('YYYY-MM-DD'), hhmm: t.format('HH:mm'), minutes: t.hour() * 60 + t.minute(), hour: t.hour() };
}

/** The date (YYYY-MM-DD) `days` after `ymd`. */
export const addDays = (ymd: string, days: number) => dayjs.utc(ymd).add(days, 'day').format('YYYY-MM-DD');

/** True when the worktime has no window at all (every moment is open). */
export const isAlwaysOpen = (w: Worktime | null | undefined) => !w?.weekdays?.length || !w.start_at || !w.stop_at;

export function isWithinWorktime(at: Date, w: Worktime | null | undefined, tz = DEFAULT_TIME_ZONE): boolean {
  if (isAlwaysOpen(w)) return true;
  const t = local(at, tz);
  // The shared rule (the tag's GCD injector applies the same one in the visitor's browser).
  return worktimeOpen(
    w!.weekdays!,
    minutesOf(w!.start_at!),
    minutesOf(w!.stop_at!),
    t.day(),
    t.hour() * 60 + t.minute(),
  );
}

/** `at` itself when the window is open, else the next opening (at most a week ahead). */
export function nextWorktimeOpening(at: Date, w: Worktime | null | undefined, tz = DEFAULT_TIME_ZONE): Date {
  if (isWithinWorktime(at, w, tz)) return at;
  const days = new Set(w!.weekdays);
  const base = local(at, tz).startOf('day');
  for (let k = 0; k <= 7; k++) {
    const day = base.add(k, 'day');
    if (!days.has(day.day())) continue;
    const opening = atLocal(day.format('YYYY-MM-DD'), w!.start_at!, tz);
    if (opening > at) return opening;
  }
  return at;
}

export interface RecurrenceRule {
  /** monthly, weekly or daily (spec doc 2 §3.3). */
  period: 'monthly' | 'weekly' | 'daily';
  /** MM-DD for monthly, a weekday name (sunday…saturday) for weekly, none for daily. */
  value?: string;
  hours: string;
}

const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/**
 * The first occurrence strictly after `after`. Monthly (READINGS A-43): every month on day DD at the hour,
 * on the last day of a shorter month; MM is only the first month it runs.
 */
export function nextRecurrence(
  after: Date,
  rule: RecurrenceRule,
  tz = DEFAULT_TIME_ZONE,
  /** When the momentum started: the monthly rule's first month is counted from here. */
  since: Date = after,
): Date {
  const now = local(after, tz);
  if (rule.period === 'daily' || rule.period === 'weekly') {
    const weekday = rule.period === 'weekly' ? WEEKDAY_NAMES.indexOf(rule.value ?? '') : -1;
    for (let k = 0; k <= 8; k++) {
      const day = now.startOf('day').add(k, 'day');
      if (weekday >= 0 && day.day() !== weekday) continue;
      const at = atLocal(day.format('YYYY-MM-DD'), rule.hours, tz);
      if (at > after) return at;
    }
  }
  const [mm, dd] = (rule.value ?? '01-01').split('-').map(Number);
  const start = local(since, tz);
  let month = dayjs.tz(`${start.year()}-${String(mm).padStart(2, '0')}-01 00:00`, tz);
  if (mm! < start.month() + 1) month = month.add(1, 'year');
  for (let k = 0; k < 1200; k++) {
    const m = month.add(k, 'month');
    const day = Math.min(dd!, m.daysInMonth());
    const at = atLocal(`${m.format('YYYY-MM')}-${String(day).padStart(2, '0')}`, rule.hours, tz);
    if (at > after) return at;
  }
  throw new Error('recorrência sem próxima ocorrência');
}
