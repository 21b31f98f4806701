import type { NewDelivery } from './deliveries.queries.ts';
import type { CompiledMomentum, StoredEvent } from './matcher.ts';
import { nextRecurrence, nextWorktimeOpening } from './schedule.ts';

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

/**
 * A recurrence's next occurrence strictly after `after` (the monthly rule counted from `since`, when the momentum
 * started), or null when it falls at or past the finish date.
 */
export function nextOccurrence(m: CompiledMomentum, timeZone: string, since: Date | null, after: Date): Date | null {
  const next = nextRecurrence(after, m.recurrence!, timeZone, since ?? after);
  return m.finishAt && next >= m.finishAt ? null : next;
}
