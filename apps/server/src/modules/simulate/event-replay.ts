import type { SimulationStage } from '@impeto/shared';
import type { Db } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import { engineMessages } from '../../engine/messages.ts';
import { qualifiedDeliveries, reachKey } from '../../engine/qualify.ts';
import {
  decide,
  nextTurn,
  type PersonView,
  personView,
  record,
  type Simulation,
  stillWaiting,
} from './planned-send.ts';
import * as q from './simulate.queries.ts';

/*
 * The replay of a momentum that events start (page view, event, abandon): the range's stored events of known
 * persons, in stored order, page by page, through the compiled matcher (starts, cancels) and qualifiedDeliveries,
 * the very functions matching.ts runs on a stored batch; the delivery rows they answer are kept in memory the way
 * the deliveries table keeps them (dedupe keys, "no new chain while one waits", an abandon's goal freeing the key),
 * and each is decided at its due time (planned-send.ts), in time order with the events (a queue by due time).
 *
 * Memory: per person met, a small record; a person whom nothing more can happen to (a single-send momentum already
 * decided for them) is reduced to a marker. Events are never held beyond one page.
 */

const PAGE = 5_000;
/** Past this many distinct page addresses in the range the page-view stream is not narrowed by address. */
const URL_PREFILTER_LIMIT = 20_000;

interface Pending {
  person: Person;
  dueAt: number;
  triggerAt: number;
  seq: number;
  done: boolean;
  /** Its dedupe key (without the prefix), freed when it ends unsent. */
  key: string;
  /** Deferred (worktime, cap): why it would still wait at the end of the range. */
  waiting?: { stage: SimulationStage; reason: string };
}

interface Person extends PersonView {
  /** Dedupe keys taken (the deliveries table's unique key), without the `momentum:person:` prefix. */
  keys: Set<string>;
  pending: Pending[];
}

/** A single-send momentum decided for this person: later triggers find its key taken. */
const SETTLED = Symbol('settled');

/** A min-heap of pending sends by due time (then by creation). */
class DueQueue {
  private items: Pending[] = [];
  get size() {
    return this.items.length;
  }
  private less = (a: Pending, b: Pending) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
  push(p: Pending) {
    const h = this.items;
    h.push(p);
    let i = h.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.less(h[i]!, h[up]!)) break;
      [h[i], h[up]] = [h[up]!, h[i]!];
      i = up;
    }
  }
  peek() {
    return this.items[0];
  }
  pop() {
    const h = this.items;
    const top = h[0];
    const last = h.pop();
    if (h.length && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.less(h[r]!, h[m]!)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

/** The trigger's category names and property (a prefilter of the rows fetched; the matcher still decides). */
function eventTriggerOf(blocks: unknown[]) {
  const trigger = (blocks as { type: string; values?: Record<string, unknown>[] }[]).find((b) => b.type === 'trigger');
  const t = trigger?.values?.[0] ?? {};
  const categories = [t.parentCategory, t.parentCategory2].filter((c): c is string => typeof c === 'string' && !!c);
  return { categories, key: typeof t.key === 'string' && t.key ? t.key : null };
}

export interface ReplayInput {
  db: Db;
  companyUuid: string;
  domainUuid: string;
  from: Date;
  /** The saved item the simulation stands for: its own real messages are not counted by the cap. */
  except: string | null;
  blocks: unknown[];
  signal: AbortSignal;
}

export async function replayEvents(sim: Simulation, input: ReplayInput) {
  const { m, tally } = sim;
  const { db, companyUuid, domainUuid, from, signal } = input;
  const to = sim.to;
  const persons = new Map<string, Person | typeof SETTLED>();
  const queue = new DueQueue();
  let seq = 0;
  const single = m.repeats.length === 0;
  const prefix = (personUuid: string) => `${m.uuid}:${personUuid}:`;

  const asEvent = (kind: string, url: string | null): StoredEvent => ({
    id: 0,
    domainUuid,
    personUuid: null,
    kind,
    url,
    category: null,
    props: null,
    ts: from,
  });

  let kinds: string[];
  let urls: string[] | null = null;
  let categories: string[] | null = null;
  let propKey: string | null = null;
  if (m.triggerKind === 'events') {
    kinds = ['event'];
    ({ categories, key: propKey } = eventTriggerOf(input.blocks));
    if (categories.length === 0) return;
  } else {
    kinds = ['pageview'];
    const all = await q.distinctPageUrls(db, companyUuid, { domainUuid, from, to, limit: URL_PREFILTER_LIMIT });
    if (all) {
      urls = all.filter((u) => m.starts(asEvent('pageview', u)) || m.cancels(asEvent('pageview', u)));
      if (urls.length === 0) return;
    }
  }

  /**
   * Nothing more can happen to a person of a single-send momentum once it was sent to them (its key stays taken) or
   * the channel could not reach them when triggered (the skipped row's key stays taken, and reach does not change
   * here).
   */
  const settle = (p: Person) => {
    if (single && p.pending.length === 0 && (p.keys.has('once') || p.keys.has('skipped'))) persons.set(p.uuid, SETTLED);
  };

  const finish = (item: Pending, at: Date, d: Exclude<ReturnType<typeof decide>, { kind: 'later' }>) => {
    item.done = true;
    const p = item.person;
    p.pending.splice(p.pending.indexOf(item), 1);
    // recordOutcomes: a delivery that ends without being sent frees its key, so a later trigger may start it again.
    if (d.kind === 'removed') p.keys.delete(item.key);
    record(sim, p, at, d);
    settle(p);
  };

  /** Decides every pending send due before `until` (strictly: an event at the same instant is matched first). */
  const runUntil = (until: number) => {
    for (let next = queue.peek(); next && next.dueAt < until; next = queue.peek()) {
      queue.pop();
      if (next.done) continue;
      const at = new Date(next.dueAt);
      const d = decide(sim, next.person, at);
      if (d.kind === 'later') {
        // Deferred, even past the end: it stays queued (its key taken) as the engine's row does.
        next.dueAt = d.at.getTime();
        next.seq = seq++;
        next.waiting = { stage: d.stage, reason: d.reason };
        queue.push(next);
      } else finish(next, at, d);
    }
  };

  const load = async (uuids: string[]) => {
    const [rows, sends] = await Promise.all([
      q.personsByUuid(db, companyUuid, domainUuid, uuids),
      sim.cap
        ? q.sentTimes(db, companyUuid, {
            domainUuid,
            personUuids: uuids,
            from: new Date(from.getTime() - 7 * 86_400_000),
            to,
            except: input.except,
          })
        : [],
    ]);
    const real = new Map<string, number[]>();
    for (const s of sends) {
      const list = real.get(s.person_uuid) ?? [];
      list.push(new Date(s.sent_at).getTime());
      real.set(s.person_uuid, list);
    }
    for (const row of rows) {
      persons.set(row.uuid, { ...personView(sim, row, real.get(row.uuid) ?? []), keys: new Set(), pending: [] });
    }
  };

  let after: q.EventPageInput['after'] = null;
  for (;;) {
    // Other requests get their turn between pages (PGlite answers without ever leaving the microtask queue), and a
    // client that went away is noticed here.
    await nextTurn();
    if (signal.aborted) throw signal.reason;
    const rows = await q.eventPage(db, companyUuid, {
      domainUuid,
      from,
      to,
      kinds,
      urls,
      categories,
      propKey,
      after,
      limit: PAGE,
    });
    if (rows.length === 0) break;
    const last = rows[rows.length - 1]!;
    after = { tsKey: last.ts_key, id: last.id };

    const events = rows.map(
      (r): StoredEvent => ({
        id: Number(r.id),
        domainUuid,
        personUuid: r.person_uuid,
        kind: r.kind,
        url: r.url,
        category: r.category,
        props: r.props,
        ts: new Date(r.ts),
      }),
    );
    const starting = events.map((e) => m.starts(e));
    const unknown = [
      ...new Set(events.filter((e, i) => starting[i] && !persons.has(e.personUuid!)).map((e) => e.personUuid!)),
    ];
    if (unknown.length) await load(unknown);

    events.forEach((e, i) => {
      runUntil(e.ts.getTime());
      const person = persons.get(e.personUuid!);
      if (!person || person === SETTLED) return;
      if (m.cancels(e)) {
        // matching.ts cancelForGoal: what waits, triggered before the goal page, is cancelled and its key freed.
        for (const item of [...person.pending]) {
          if (item.triggerAt >= e.ts.getTime()) continue;
          item.done = true;
          person.pending.splice(person.pending.indexOf(item), 1);
          person.keys.delete(item.key);
          tally.removed('trigger', person.uuid, person.who, engineMessages.goalReached, e.ts);
        }
      }
      if (!starting[i]) return;
      start(person, e);
    });
    if (rows.length < PAGE) break;
  }
  runUntil(to.getTime());
  // What still waits at the end of the range was not sent in it: counted where it waits (a planned send not yet
  // due is told the filter and the reach first).
  for (let item = queue.pop(); item; item = queue.pop()) {
    if (item.done) continue;
    const at = new Date(Math.max(item.dueAt, to.getTime() - 1));
    finish(item, at, stillWaiting(sim, item.person, at, item.waiting));
  }

  /** matching.ts for one candidate: qualifiedDeliveries' rows, inserted as insertDeliveries would. */
  function start(person: Person, e: StoredEvent) {
    const unreachable = new Map<string, string>();
    if (person.unreachable) unreachable.set(reachKey(m.channelType, person.uuid), person.unreachable);
    const rows = qualifiedDeliveries([{ momentum: m, personUuid: person.uuid, event: e }], unreachable);
    const hasPending = person.pending.length > 0;
    for (const row of rows) {
      const key = row.dedupeKey.slice(prefix(person.uuid).length);
      if (person.keys.has(key) || (row.unlessPending && hasPending)) continue;
      // A repeat chain's keys carry the trigger event's id: no later row can take them, so they are not kept.
      if (!row.unlessPending) person.keys.add(key);
      tally.enter();
      if (row.skipReason) {
        // The engine's skipped row: the channel cannot reach the person (the funnel tells the filter first).
        tally.removed(
          person.passes ? 'channel' : 'filter',
          person.uuid,
          person.who,
          person.passes ? row.skipReason : engineMessages.outOfAudience,
          e.ts,
        );
        continue;
      }
      const item: Pending = {
        person,
        dueAt: row.dueAt.getTime(),
        triggerAt: row.triggerAt.getTime(),
        seq: seq++,
        done: false,
        key,
      };
      person.pending.push(item);
      queue.push(item);
    }
    settle(person);
  }
}
