import {
  isHoliday,
  isIanaTimeZone,
  type MomentumTiming,
  nextNonHoliday,
  type QuietHours,
  type Worktime,
  zoneOfPlace,
} from '@impeto/shared';
import type { NewDelivery } from './deliveries.queries.ts';
import type { CompiledMomentum, StoredEvent } from './matcher.ts';
import { addDays, atLocal, localClock, nextRecurrence, nextWorktimeOpening } from './schedule.ts';

/*
 * Timing: when a delivery is due. A trigger's chain (the delay, then the repeat gaps), the worktime window checked
 * at send time, the retry backoff and the frequency cap's wait. Pure: the engine writes what these answer; a dry run
 * can ask the same questions and write nothing. The calendar itself (worktime, recurrence) is schedule.ts.
 */

export const MAX_ATTEMPTS = 5;

/** Seconds from a chain's first send to each of its sends: 0, then the running sum of the gaps. */
export function chainOffsets(gaps: number[]): number[] {
  const out = [0];
  for (const g of gaps) out.push(out[out.length - 1]! + g);
  return out;
}

/**
 * The deliveries one trigger starts for one person, appended to `rows`: due after the momentum's delay, then spaced by
 * the repeat gaps. Without 'Permitir mais de um envio' a person gets a momentum once; with it, each trigger starts a
 * chain of sends spaced by intervalRecurrency, never stacked on a chain still waiting.
 */
export function appendChain(rows: NewDelivery[], m: CompiledMomentum, personUuid: string, event: StoredEvent) {
  const first = new Date(event.ts.getTime() + m.delaySeconds * 1000);
  const repeat = m.repeats.length > 0;
  chainOffsets(m.repeats).forEach((offset, i) => {
    rows.push({
      domainUuid: m.domainUuid,
      momentumUuid: m.uuid,
      personUuid,
      channelType: m.channelType!,
      dedupeKey: repeat ? `${m.uuid}:${personUuid}:e${event.id}:${i}` : `${m.uuid}:${personUuid}:once`,
      triggerAt: event.ts,
      dueAt: new Date(first.getTime() + offset * 1000),
      unlessPending: repeat,
    });
  });
}

/** A delivery due outside the momentum's worktime waits for the next opening (in the company's zone); null: send now. */
export function worktimeDeferral(now: Date, m: CompiledMomentum, timeZone: string): Date | null {
  const opening = nextWorktimeOpening(now, m.worktime, timeZone);
  return opening > now ? opening : null;
}

/** Seconds before a transient failure is tried again, by the attempts made so far. */
export const backoffSeconds = (attempts: number) => Math.min(3600, 2 ** attempts * 5);

/** When a transient failure is tried again: the provider's Retry-After, else the backoff. */
export const retryAt = (now: Date, attempts: number, retryAfterSeconds: number | undefined) =>
  new Date(now.getTime() + (retryAfterSeconds ?? backoffSeconds(attempts)) * 1000);

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/**
 * The frequency cap's decision for a message going out at `now`: null when there is room, else the moment a slot
 * frees (the oldest counted message leaves its window, plus a second). `sentTimes`: the person's messages sent or
 * being sent in the week before `now` (epoch ms, ascending). The engine asks it under the person's lock
 * (deliveries.queries.ts reserveCapSlot); a dry run asks it over the messages it sent itself.
 */
export function capFullUntil(
  sentTimes: readonly number[],
  now: Date,
  perDay: number | null,
  perWeek: number | null,
): Date | null {
  let nextAt = 0;
  const check = (cap: number | null, windowMs: number) => {
    if (cap === null) return;
    const inWindow = sentTimes.filter((t) => t > now.getTime() - windowMs);
    if (inWindow.length >= cap) nextAt = Math.max(nextAt, inWindow[inWindow.length - cap]! + windowMs);
  };
  check(perDay, DAY_MS);
  check(perWeek, WEEK_MS);
  return nextAt ? new Date(nextAt + 1000) : null;
}

/**
 * The frequency cap is full until `nextAt`: with 'Permitir mais de um envio' the message waits for that moment (the
 * attempt given back); otherwise it is skipped.
 */
export const capDeferral = (m: CompiledMomentum, nextAt: Date): Date | null => (m.repeats.length > 0 ? nextAt : null);

/** The zone whose clock is the first to read any time of day (UTC+14): a recurrence on the visitor's clock ticks there. */
export const EARLIEST_ZONE = 'Etc/GMT-14';
/** From the first clock to read a time of day (UTC+14) to the last (UTC−12). */
const CLOCKS_SPAN_MS = 26 * 3_600_000;

/**
 * A recurrence's next occurrence strictly after `after` (the monthly rule counted from `since`, when the momentum
 * started), or null when it falls at or past the finish date. On the visitor's clock ('no horário do visitante') an
 * occurrence is a date and time every person reaches on their own clock: it ticks when the first clock on Earth reads
 * it (EARLIEST_ZONE) and each person is due when theirs does (planFirstSend). `ongoing` (an activation, an edit): the
 * occurrence some clock has not reached yet counts, though its tick is past.
 */
export function nextOccurrence(
  m: CompiledMomentum,
  timeZone: string,
  since: Date | null,
  after: Date,
  ongoing = false,
): Date | null {
  const next = m.recurrenceOnVisitorClock
    ? nextRecurrence(
        ongoing ? new Date(after.getTime() - CLOCKS_SPAN_MS) : after,
        m.recurrence!,
        EARLIEST_ZONE,
        since ?? after,
      )
    : nextRecurrence(after, m.recurrence!, timeZone, since ?? after);
  return m.finishAt && next >= m.finishAt ? null : next;
}

/** A person's instant of a recurrence on the visitor's clock: the date its tick (`at`) stands for, `hhmm`, in `zone`. */
export const visitorOccurrence = (at: Date, hhmm: string, zone: string) =>
  atLocal(localClock(at, EARLIEST_ZONE).ymd, hhmm, zone);

/*
 * Issue #27: the visitor's zone, local-time and best-time sends, holidays, quiet hours and throttling. A delivery's
 * due time is decided here; the fan-out plans each person's with `planFirstSend` and spreads them with `createThrottle`,
 * the send stage asks `quietHoursEnd` again at send time (a triggered message, or one the plan could not place).
 */

/** The domain's settings the timing rules read. */
export interface DomainTiming {
  /** The domain's IANA zone (domains.timezone). */
  timeZone: string;
  quietHours: QuietHours | null;
  extraHolidays: readonly string[];
}

/** Channels that interrupt a person (push, SMS, e-mail): the ones quiet hours hold. On-site messages wait for a visit. */
export const QUIET_CHANNELS = new Set(['CELL_NOTIFICATION', 'ONE_SIGNAL', 'ZENVIA', 'AWS_SES', 'AKNA']);

const knownZones = new Map<string, boolean>();
const isKnownZone = (name: string) => {
  let known = knownZones.get(name);
  if (known === undefined) {
    known = isIanaTimeZone(name);
    if (knownZones.size < 1000) knownZones.set(name, known);
  }
  return known;
};

/** The zone a person's local rules read: the browser's (persons.timezone), else their place's, else the domain's. */
export function personZone(
  person: { timezone?: string | null; attributes?: Record<string, unknown> | null },
  domainZone: string,
): string {
  if (person.timezone && isKnownZone(person.timezone)) return person.timezone;
  const a = person.attributes ?? {};
  return (
    zoneOfPlace(a['client.location.country'], a['client.location.region'], a['client.location.city']) ?? domainZone
  );
}

/** The first instant at or after `after` when the wall clock in `tz` reads `hhmm`: within the next 24 hours. */
export function nextLocalTime(after: Date, hhmm: string, tz: string): Date {
  const { ymd } = localClock(after, tz);
  for (let k = 0; k <= 2; k++) {
    const at = atLocal(addDays(ymd, k), hhmm, tz);
    if (at >= after) return at;
  }
  return after;
}

/** `after` itself when the wall clock in `tz` is inside `hour`, else the next time it reads hour:00. */
export function nextLocalHour(after: Date, hour: number, tz: string): Date {
  if (localClock(after, tz).hour === hour) return after;
  return nextLocalTime(after, `${String(hour).padStart(2, '0')}:00`, tz);
}

/** `at` itself when its date in `tz` is no holiday (national or the domain's own), else the same time on the next day that is none. */
export function skipHolidays(at: Date, tz: string, extra: readonly string[]): Date {
  const { ymd, hhmm } = localClock(at, tz);
  if (!isHoliday(ymd, extra)) return at;
  return atLocal(nextNonHoliday(ymd, extra), hhmm, tz);
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * Quiet hours (the domain's, read in the person's zone): null when `at` is outside the window, else the window's end,
 * when the message may go. A window whose end is not after its start runs overnight (22:00–08:00).
 */
export function quietHoursEnd(at: Date, quiet: QuietHours | null | undefined, tz: string): Date | null {
  if (!quiet) return null;
  const { ymd, minutes } = localClock(at, tz);
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const overnight = end <= start;
  const inside = overnight ? minutes >= start || minutes < end : minutes >= start && minutes < end;
  if (!inside) return null;
  const endDay = overnight && minutes >= start ? addDays(ymd, 1) : ymd;
  const release = atLocal(endDay, quiet.end, tz);
  return release > at ? release : null;
}

/**
 * When one person's send of an occurrence (a campaign, a recurrence's tick at `at`) is due, before throttling: at the
 * visitor's HH:MM within 24 hours ('Enviar às HH:MM no horário de cada visitante'), else at their best hour within 24
 * hours ('Melhor horário de cada pessoa'; `bestHour`, 0–23, their most active local hour), else at `at`; moved past a
 * holiday ('Não enviar em feriados') in the zone whose clock set it, and past quiet hours on the channels they hold.
 */
export function planFirstSend(input: {
  at: Date;
  timing: MomentumTiming | null;
  domain: DomainTiming;
  /** The person's zone (personZone). */
  zone: string;
  bestHour?: number | null;
  channelType: string;
  /** A recurrence on the visitor's clock: its time of day (HH:MM), reached on the person's clock (visitorOccurrence). */
  visitorRecurrence?: string | null;
}): Date {
  const { at, timing, domain, zone } = input;
  let due = at;
  let ruleZone = domain.timeZone;
  if (input.visitorRecurrence) {
    due = visitorOccurrence(at, input.visitorRecurrence, zone);
    ruleZone = zone;
  } else if (timing?.send_at_local_time) {
    due = nextLocalTime(at, timing.send_at_local_time, zone);
    ruleZone = zone;
  } else if (timing?.best_time && input.bestHour !== undefined && input.bestHour !== null) {
    due = nextLocalHour(at, input.bestHour, zone);
    ruleZone = zone;
  }
  if (timing?.skip_holidays) due = skipHolidays(due, ruleZone, domain.extraHolidays);
  if (QUIET_CHANNELS.has(input.channelType)) due = quietHoursEnd(due, domain.quietHours, zone) ?? due;
  return due;
}

/**
 * planFirstSend for the persons of one occurrence: the answer depends only on their zone and best hour, so it is
 * computed once per pair (the calendar's arithmetic costs about half a millisecond a call; a 100,000-person campaign
 * has a handful of zones). Null: the person is left out of this occurrence (see the options below).
 */
export function createSendPlanner(
  input: Omit<Parameters<typeof planFirstSend>[0], 'zone' | 'bestHour'> & {
    /** When the momentum started: a person whose clock read a visitor's-clock occurrence before it is left out. */
    activatedAt?: Date | null;
    /**
     * A daily recurrence with 'Não enviar em feriados': a holiday's occurrence is left out, not moved onto the next
     * day, which has its own.
     */
    dropHolidays?: boolean;
    /**
     * The momentum's worktime ('Cronograma'): a send due outside it is planned at its next opening (on the clock
     * worktime_zone says), as the send stage would defer it, so a throttle spreads the sends from the opening instead
     * of all of them waiting for it and going at once.
     */
    worktime?: Worktime | null;
  },
) {
  const planned = new Map<string, Date | null>();
  return (zone: string, bestHour?: number | null): Date | null => {
    const key = `${zone}|${bestHour ?? ''}`;
    let due = planned.get(key);
    if (due === undefined) {
      const { visitorRecurrence, activatedAt } = input;
      const missed =
        visitorRecurrence && activatedAt && visitorOccurrence(input.at, visitorRecurrence, zone) < activatedAt;
      due = missed ? null : planFirstSend({ ...input, zone, bestHour });
      if (due && input.dropHolidays && input.timing?.skip_holidays) {
        const unmoved = planFirstSend({
          ...input,
          timing: { ...input.timing, skip_holidays: undefined },
          zone,
          bestHour,
        });
        if (unmoved.getTime() !== due.getTime()) due = null;
      }
      if (due && input.worktime) {
        const clock = input.timing?.worktime_zone === 'visitor' ? zone : input.domain.timeZone;
        const opening = nextWorktimeOpening(due, input.worktime, clock);
        if (opening > due)
          due = QUIET_CHANNELS.has(input.channelType)
            ? (quietHoursEnd(opening, input.domain.quietHours, zone) ?? opening)
            : opening;
      }
      planned.set(key, due);
    }
    return due;
  };
}

/** Whether an occurrence's sends need a plan per person (else every person is due at the occurrence, as the spec has it). */
export const needsPlan = (timing: MomentumTiming | null, domain: DomainTiming, channelType: string) =>
  Boolean(
    timing?.send_at_local_time ||
      timing?.best_time ||
      timing?.skip_holidays ||
      timing?.throttle_per_minute ||
      timing?.worktime_zone === 'visitor' ||
      (domain.quietHours && QUIET_CHANNELS.has(channelType)),
  );

/**
 * 'Limite de envios por minuto': one send per 60/rate seconds, each at the first free slot at or after its planned
 * time, slots counted from `origin`. The same persons in the same order get the same slots (a fan-out run again plans
 * what it planned). Holds the rate whatever the planned times: a local-time campaign's zones never overlap above it.
 */
export function createThrottle(origin: Date, perMinute: number) {
  const intervalMs = 60_000 / perMinute;
  // Union-find over taken slots: next[k] points towards the first free slot at or after k.
  const next = new Map<number, number>();
  const find = (k: number): number => {
    let root = k;
    while (next.has(root)) root = next.get(root)!;
    for (let i = k; i !== root; ) {
      const up = next.get(i)!;
      next.set(i, root);
      i = up;
    }
    return root;
  };
  return {
    intervalMs,
    slot(planned: Date): Date {
      const wanted = Math.max(0, Math.ceil((planned.getTime() - origin.getTime()) / intervalMs - 1e-9));
      const k = find(wanted);
      next.set(k, k + 1);
      return new Date(Math.max(planned.getTime(), origin.getTime() + Math.round(k * intervalMs)));
    },
  };
}

/**
 * 'Limite de envios por minuto' on a momentum started by events: a new send goes at the first moment at or after its
 * planned time that is at least 60/rate s from every send of the momentum already planned (`taken`: their due times,
 * epoch ms ascending; the answer is inserted in place). The taken times are the stored rows, so the rate holds across
 * batches, processes and restarts; a send already held far ahead (quiet hours, worktime) blocks only its own slot.
 */
export function throttledSlot(taken: number[], planned: number, perMinute: number): number {
  const intervalMs = 60_000 / perMinute;
  let lo = 0;
  let hi = taken.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (taken[mid]! <= planned - intervalMs) lo = mid + 1;
    else hi = mid;
  }
  let at = planned;
  let i = lo;
  for (; i < taken.length && taken[i]! < at + intervalMs; i++) at = Math.max(at, Math.ceil(taken[i]! + intervalMs));
  taken.splice(i, 0, at);
  return at;
}

/** When a throttled campaign of `recipients` starting at `start` sends its last message (the summary's expected end). */
export const throttledEnd = (start: Date, recipients: number, perMinute: number) =>
  new Date(start.getTime() + Math.max(0, recipients - 1) * (60_000 / perMinute));

/**
 * At send time (a triggered message, a retry, one the plan could not place): a push, SMS or e-mail due inside the
 * domain's quiet hours on the person's clock waits for the window's end; null: it may go now.
 */
export function quietDeferral(
  now: Date,
  channelType: string | null,
  quiet: QuietHours | null | undefined,
  person: { timezone?: string | null; attributes?: Record<string, unknown> | null },
  domainZone: string,
): Date | null {
  if (!quiet || !channelType || !QUIET_CHANNELS.has(channelType)) return null;
  return quietHoursEnd(now, quiet, personZone(person, domainZone));
}

/** The zone a momentum's worktime reads: the domain's (the spec), or the visitor's ('no horário do visitante'). */
export const worktimeZone = (
  timing: MomentumTiming | null | undefined,
  person: { timezone?: string | null; attributes?: Record<string, unknown> | null },
  domainZone: string,
) => (timing?.worktime_zone === 'visitor' ? personZone(person, domainZone) : domainZone);
