import { type SQL, sql } from 'drizzle-orm';
import type { NewDelivery } from './deliveries.queries.ts';
import type { CompiledMomentum, StoredEvent } from './matcher.ts';
import { engineMessages } from './messages.ts';
import { appendChain } from './timing.ts';

/*
 * Qualification: which events start (or cancel) deliveries and for whom, which of those become delivery rows, and
 * whether a claimed delivery still qualifies when it is due (the momentum still running, the abandon's goal not
 * reached, the person still in the audience). Pure: matching.ts and deliver.ts write what these answer; a dry run
 * can call the same functions and write nothing.
 */

/** A (momentum, person) whose trigger an event matched: the first such event of the batch. */
export interface Candidate {
  momentum: CompiledMomentum;
  personUuid: string;
  event: StoredEvent;
}

/** An abandon's goal page reached: the person's deliveries of that momentum triggered before `at` are cancelled. */
export interface Goal {
  momentumUuid: string;
  personUuid: string;
  at: Date;
}

/** A momentum that events start (page view, event and abandon triggers) through a channel. */
export const startsFromEvents = (m: CompiledMomentum) =>
  Boolean(m.triggerKind && m.triggerKind !== 'recurrence' && m.channelType);

/** The events a trigger reads (page views and events of a known person), by domain. */
export function triggerEventsByDomain(events: StoredEvent[]): Map<string, StoredEvent[]> {
  const byDomain = new Map<string, StoredEvent[]>();
  for (const e of events) {
    if (!e.personUuid || (e.kind !== 'pageview' && e.kind !== 'event')) continue;
    const list = byDomain.get(e.domainUuid);
    if (list) list.push(e);
    else byDomain.set(e.domainUuid, [e]);
  }
  return byDomain;
}

/**
 * Trigger match of one domain's events against its momentums: every goal reached is added to `goals`, and the first
 * event of each (momentum, person) that starts a delivery to `candidates` (keyed `momentum|person`).
 */
export function matchEvents(
  events: StoredEvent[],
  momentums: CompiledMomentum[],
  candidates: Map<string, Candidate>,
  goals: Goal[],
) {
  for (const e of events) {
    for (const m of momentums) {
      if (m.cancels(e)) goals.push({ momentumUuid: m.uuid, personUuid: e.personUuid!, at: e.ts });
      const key = `${m.uuid}|${e.personUuid}`;
      if (!candidates.has(key) && m.starts(e))
        candidates.set(key, { momentum: m, personUuid: e.personUuid!, event: e });
    }
  }
}

/** Channels that reach only a person subscribed to web push. */
export const needsPushSubscription = (channelType: string | null) => channelType === 'CELL_NOTIFICATION';

/** needsPushSubscription as a condition over `persons`, for a fan-out's audience. */
export const channelEligibleSql = (channelType: string | null): SQL =>
  needsPushSubscription(channelType) ? sql`push_status = 'subscribed'` : sql`true`;

/**
 * The delivery rows the candidates start: a push needs a subscribed person (`subscribed`: those of the candidates
 * who are), a trigger at or after the finish date starts nothing; each other candidate starts its chain (timing.ts).
 */
export function qualifiedDeliveries(candidates: Iterable<Candidate>, subscribed: ReadonlySet<string>): NewDelivery[] {
  const rows: NewDelivery[] = [];
  for (const { momentum: m, personUuid, event } of candidates) {
    if (needsPushSubscription(m.channelType) && !subscribed.has(personUuid)) continue;
    if (m.finishAt && event.ts >= m.finishAt) continue;
    appendChain(rows, m, personUuid, event);
  }
  return rows;
}

/** How a claimed delivery ends without a send: its status and the reason stored with it. */
export interface Verdict {
  status: 'cancelled' | 'expired' | 'skipped' | 'failed';
  error: string;
}

export const NOT_ACTIVE: Verdict = Object.freeze({ status: 'cancelled', error: engineMessages.notActive });
const EXPIRED: Verdict = Object.freeze({ status: 'expired', error: engineMessages.expired });
export const GOAL_REACHED: Verdict = Object.freeze({ status: 'cancelled', error: engineMessages.goalReached });
export const OUT_OF_AUDIENCE: Verdict = Object.freeze({ status: 'cancelled', error: engineMessages.outOfAudience });

/**
 * Does a claimed delivery's momentum still send? The verdict when it does not (paused, finished, removed, past its
 * finish date at `now`), else null.
 */
export function momentumStopped(status: string, m: CompiledMomentum, now: Date): Verdict | null {
  if (status !== 'Active') return NOT_ACTIVE;
  if (m.finishAt && now >= m.finishAt) return EXPIRED;
  return null;
}

/** An abandon is not sent once the person reached its goal page; only those need the pages visited since the trigger. */
export const checksGoal = (m: CompiledMomentum) => m.triggerKind === 'abandon';

export const reachedGoal = (m: CompiledMomentum, pagesSinceTrigger: { url: string }[]) =>
  pagesSinceTrigger.some((p) => m.reachesGoal(p.url));

/** The audience filter on the person's attributes as they are when the delivery is due. */
export const passesAudience = (m: CompiledMomentum, attributes: Record<string, unknown>) =>
  m.filter.matches({ attributes });
