import type { AppContext } from '../lib/context.ts';
import * as q from './deliveries.queries.ts';
import type { StoredEvent } from './matcher.ts';
import type { MatcherCache } from './matcher-cache.ts';
import { engineMessages } from './messages.ts';
import {
  type Candidate,
  type Goal,
  hasReachabilityRule,
  matchEvents,
  qualifiedDeliveries,
  reachKey,
  triggerEventsByDomain,
  unreachableReasonSql,
} from './qualify.ts';
import { insertThrottled, type ThrottleRule } from './throttled-insert.ts';

/*
 * The matching stage: a batch the collector stored comes in (api role, after its transaction); the service worker's
 * and the tag's viewed/clicked reports are applied, abandon goals cancel what waits, and the events that start a
 * momentum become queued deliveries (the send queue). The decisions are qualify.ts's and timing.ts's.
 */

const isUuid = (s: unknown): s is string =>
  typeof s === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** viewed/clicked events that carry a delivery id, one report per delivery. */
function reportsOf(events: StoredEvent[]): q.Report[] {
  const reports = new Map<string, q.Report>();
  for (const e of events) {
    if (e.kind !== 'viewed' && e.kind !== 'clicked') continue;
    const id = e.props?.delivery_id;
    if (!isUuid(id)) continue;
    const r = reports.get(id) ?? { deliveryId: id, domainUuid: e.domainUuid, clicked: false, at: e.ts, eventIds: [] };
    r.clicked ||= e.kind === 'clicked';
    r.eventIds.push(e.id);
    reports.set(id, r);
  }
  return [...reports.values()];
}

export function createMatching(
  ctx: Pick<AppContext, 'db' | 'clock' | 'database'>,
  deps: { matchers: MatcherCache; wake: () => void },
) {
  const { db, clock } = ctx;

  return async function onEventsStored(events: StoredEvent[]) {
    const now = clock.now();
    await q.applyReports(db, reportsOf(events), now);

    const candidates = new Map<string, Candidate>();
    const goals: Goal[] = [];
    for (const [domainUuid, list] of triggerEventsByDomain(events)) {
      const momentums = await deps.matchers.of(domainUuid);
      if (momentums.length === 0) continue;
      matchEvents(list, momentums, candidates, goals);
    }
    await q.cancelForGoal(db, goals, engineMessages.goalReached, now);
    if (candidates.size === 0) return;

    // Who the channel cannot reach, one query per channel that has a rule: they get a skipped row with the reason.
    const byChannel = new Map<string, Set<string>>();
    for (const c of candidates.values()) {
      const channel = c.momentum.channelType;
      if (!channel || !hasReachabilityRule(channel)) continue;
      const persons = byChannel.get(channel) ?? new Set<string>();
      persons.add(c.personUuid);
      byChannel.set(channel, persons);
    }
    const unreachable = new Map<string, string>();
    for (const [channel, persons] of byChannel) {
      for (const p of await q.unreachablePersons(db, [...persons], unreachableReasonSql(channel)))
        unreachable.set(reachKey(channel, p.uuid), p.reason);
    }
    // 'Limite de envios por minuto' (issue #27): those momentums' new sends are spread by throttled-insert.ts.
    const throttles = new Map<string, ThrottleRule>();
    for (const { momentum: m } of candidates.values())
      if (m.throttlePerMinute)
        throttles.set(m.uuid, { perMinute: m.throttlePerMinute, worktime: m.worktime, zone: m.worktimeZone });
    const inserted = await insertThrottled(db, qualifiedDeliveries(candidates.values(), unreachable), throttles, now);
    if (inserted.some((d) => d.status === 'queued' && new Date(d.due_at) <= clock.now())) {
      deps.wake();
      if (ctx.database.kind === 'postgres') await q.notifyEngine(db, 'impeto_deliveries', '');
    }
  };
}
