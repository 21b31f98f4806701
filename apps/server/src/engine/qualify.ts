import { type SQL, sql } from 'drizzle-orm';
import { EMAIL_OPTOUT_ATTRIBUTES } from '../channels/email-content.ts';
import { hasOptedOut } from '../channels/provider-http.ts';
import { SMS_OPTOUT_ATTRIBUTES } from '../channels/zenvia.ts';
import type { NewDelivery } from './deliveries.queries.ts';
import type { CompiledMomentum, StoredEvent } from './matcher.ts';
import { engineMessages } from './messages.ts';
import { appendChain } from './timing.ts';

/*
 * Qualification: which events start (or cancel) deliveries and for whom, which of those become delivery rows, and
 * whether a claimed delivery still qualifies when it is due (the momentum still running, the abandon's goal not
 * reached, the person still in the audience and reachable through the channel). Pure: matching.ts and deliver.ts
 * write what these answer; a dry run can call the same functions and write nothing.
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

/*
 * Reachability: a person who qualified but whom the channel cannot reach gets a `skipped` delivery with the reason
 * (the delivery log's "quem não recebeu e por quê"), and nothing is sent. Push needs a subscription; SMS a phone and
 * no SMS opt-out; e-mail an address and no unsubscribe (the attributes the adapters and the unsubscribe route read).
 * A phone or address that is there but malformed is the adapter's to judge at send time (skipped there too). The rule
 * is written twice, in memory (`unreachableReason`, the send stage) and as SQL over `persons`
 * (`unreachableReasonSql`, matching and fan-out): skipped.test.ts checks that both agree.
 */

/** What reachability reads of a person. */
export interface ReachablePerson {
  push_status: string | null;
  push_subscription: unknown;
  email: string | null;
  phone: string | null;
  attributes: Record<string, unknown>;
}

const EMAIL_CHANNELS = new Set(['AWS_SES', 'AKNA']);
const blank = (v: string | null) => v === null || !/\S/.test(v);

/** Channels some persons cannot be reached through (the others reach everyone: on-site, GCD, OneSignal's own list). */
export const hasReachabilityRule = (channelType: string | null) =>
  channelType === 'CELL_NOTIFICATION' || channelType === 'ZENVIA' || EMAIL_CHANNELS.has(channelType ?? '');

/** Why the channel cannot reach this person (the reason of the skipped delivery), or null when it can. */
export function unreachableReason(channelType: string | null, p: ReachablePerson): string | null {
  if (channelType === 'CELL_NOTIFICATION')
    return p.push_status === 'subscribed' && p.push_subscription ? null : engineMessages.noPushSubscription;
  if (channelType === 'ZENVIA') {
    if (hasOptedOut(p.attributes, SMS_OPTOUT_ATTRIBUTES)) return engineMessages.smsOptOut;
    return blank(p.phone) ? engineMessages.noPhone : null;
  }
  if (EMAIL_CHANNELS.has(channelType ?? '')) {
    if (hasOptedOut(p.attributes, EMAIL_OPTOUT_ATTRIBUTES)) return engineMessages.emailOptOut;
    return blank(p.email) ? engineMessages.noEmail : null;
  }
  return null;
}

/** hasOptedOut over `persons.attributes`: true, 1, "true" or "1" (1.0 equals 1 in jsonb, as in JavaScript). */
const optedOutSql = (keys: string[]) =>
  sql.join(
    keys.map((k) => sql`(attributes -> ${k}::text) IN ('true'::jsonb, '1'::jsonb, '"true"'::jsonb, '"1"'::jsonb)`),
    sql` OR `,
  );
const blankSql = (column: SQL) => sql`coalesce(${column}, '') !~ '[^[:space:]]'`;

/** unreachableReason as a text expression over `persons` (bare column names): the reason, or NULL. */
export function unreachableReasonSql(channelType: string | null): SQL {
  if (channelType === 'CELL_NOTIFICATION')
    return sql`CASE WHEN push_status = 'subscribed' AND push_subscription IS NOT NULL THEN NULL
               ELSE ${engineMessages.noPushSubscription}::text END`;
  if (channelType === 'ZENVIA')
    return sql`CASE WHEN ${optedOutSql(SMS_OPTOUT_ATTRIBUTES)} THEN ${engineMessages.smsOptOut}::text
               WHEN ${blankSql(sql`phone`)} THEN ${engineMessages.noPhone}::text END`;
  if (EMAIL_CHANNELS.has(channelType ?? ''))
    return sql`CASE WHEN ${optedOutSql(EMAIL_OPTOUT_ATTRIBUTES)} THEN ${engineMessages.emailOptOut}::text
               WHEN ${blankSql(sql`email`)} THEN ${engineMessages.noEmail}::text END`;
  return sql`NULL::text`;
}

/** The key of `unreachable` in qualifiedDeliveries: a person for a channel. */
export const reachKey = (channelType: string | null, personUuid: string) => `${channelType}|${personUuid}`;

/**
 * The row a qualified person is given instead of a delivery when nothing is to be sent: `skipped`, with the reason
 * (unreachable; the same for any other reason to hold a person out). One per (momentum, person) from triggers, so a
 * visitor who views page after page unsubscribed is listed once; it takes no key a later delivery needs (`:once`),
 * so a person who subscribes later still receives the momentum.
 */
export const skippedDelivery = (
  m: CompiledMomentum,
  personUuid: string,
  event: StoredEvent,
  reason: string,
): NewDelivery => ({
  domainUuid: m.domainUuid,
  momentumUuid: m.uuid,
  personUuid,
  channelType: m.channelType!,
  dedupeKey: `${m.uuid}:${personUuid}:skipped`,
  triggerAt: event.ts,
  dueAt: event.ts,
  unlessPending: false,
  skipReason: reason,
});

/**
 * The delivery rows the candidates start: a trigger at or after the finish date starts nothing; a candidate the
 * channel cannot reach (`unreachable`, by reachKey, its reason) gets a skipped row; each other candidate starts its
 * chain (timing.ts).
 */
export function qualifiedDeliveries(
  candidates: Iterable<Candidate>,
  unreachable: ReadonlyMap<string, string>,
): NewDelivery[] {
  const rows: NewDelivery[] = [];
  for (const { momentum: m, personUuid, event } of candidates) {
    if (m.finishAt && event.ts >= m.finishAt) continue;
    const reason = unreachable.get(reachKey(m.channelType, personUuid));
    if (reason) rows.push(skippedDelivery(m, personUuid, event, reason));
    else appendChain(rows, m, personUuid, event);
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
