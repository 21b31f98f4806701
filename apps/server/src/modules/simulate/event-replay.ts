import type { SimulationStage } from '@impeto/shared';
import type { Db } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import { engineMessages } from '../../engine/messages.ts';
import { qualifiedDeliveries, reachKey } from '../../engine/qualify.ts';
import { WEEK_MS } from '../../engine/timing.ts';
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
  keys: string[];
  pending: Pending[];
}

/*
 * A person whom nothing is waiting for and whose messages have all left the cap's week is kept as a number, not a
 * record (a 30-day replay meets up to the whole base): whether they were reached, whether a single-send momentum is
 * settled for them (sent, or skipped as unreachable: later triggers find its key taken), and what the filter and the
 * channel said (time does not change them here; the reason by its index in REASONS). Met again, the record is made
 * from the number (and their real messages read again when the domain has a cap).
 */
const REACHED = 1;
const SETTLED = 2;
const OUT = 4;
const UNREACHABLE = 8;
const REASON_SHIFT = 4;
const REASONS: string[] = [];
const reasonIndex = (reason: string) => {
  const i = REASONS.indexOf(reason);
  return i >= 0 ? i : REASONS.push(reason) - 1;
};

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

/**
 * The range's events in stored order, page by page: the range is read in time windows sized to hold about a page
 * each (so every statement is an index range scan of the domain's (domain, ts) index, not a scan of the month's
 * partition), each window paged by its (ts, id) keyset. Between pages other requests get their turn (PGlite answers
 * without leaving the microtask queue) and the caller's signal is checked.
 */
async function* eventPages(
  input: Pick<ReplayInput, 'db' | 'companyUuid' | 'domainUuid' | 'from' | 'signal'>,
  filter: Pick<q.EventPageInput, 'kinds' | 'urls' | 'categories' | 'propKey'>,
  to: Date,
) {
  let width = 3_600_000;
  for (let start = input.from.getTime(); start < to.getTime(); ) {
    const end = Math.min(start + width, to.getTime());
    let rowsInWindow = 0;
    let after: q.EventPageInput['after'] = null;
    for (;;) {
      await nextTurn();
      if (input.signal.aborted) throw input.signal.reason;
      const rows = await q.eventPage(input.db, input.companyUuid, {
        domainUuid: input.domainUuid,
        from: new Date(start),
        to: new Date(end),
        ...filter,
        after,
        limit: PAGE,
      });
      rowsInWindow += rows.length;
      if (rows.length) yield rows;
      if (rows.length < PAGE) break;
      const last = rows[rows.length - 1]!;
      after = { tsKey: last.ts_key, id: last.id };
    }
    start = end;
    // The next window aims at about a page: wider after a quiet one, narrower after a busy one.
    width = Math.min(7 * 86_400_000, Math.max(60_000, (width * PAGE) / Math.max(rowsInWindow, PAGE / 8)));
  }
}

export async function replayEvents(sim: Simulation, input: ReplayInput) {
  const { m, tally } = sim;
  const { db, companyUuid, domainUuid, from } = input;
  const to = sim.to;
  const persons = new Map<string, Person | number>();
  const queue = new DueQueue();
  let seq = 0;
  let now = from.getTime();
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
      if (urls.length === all.length) urls = null;
    }
  }

  /** Persons with nothing waiting, by when that began: the ones to reduce to a number once their week is over. */
  const idle: { person: Person; at: number }[] = [];
  let idleHead = 0;

  const compact = (p: Person): number =>
    (p.lastDay !== null ? REACHED : 0) |
    (single && (p.keys.includes('once') || p.keys.includes('skipped')) ? SETTLED : 0) |
    (p.passes ? 0 : OUT) |
    (p.unreachable ? UNREACHABLE | (reasonIndex(p.unreachable) << REASON_SHIFT) : 0);

  /** Nothing waits for the person any more: a settled one becomes a number now, the others after their week. */
  const rest = (p: Person) => {
    if (p.pending.length > 0 || p.who) return;
    const code = compact(p);
    if (code & SETTLED || !(p.passes && !p.unreachable)) persons.set(p.uuid, code);
    else idle.push({ person: p, at: now });
  };
  const reduceIdle = () => {
    for (; idleHead < idle.length && idle[idleHead]!.at <= now - WEEK_MS; idleHead++) {
      const { person } = idle[idleHead]!;
      const lastSend = person.sends[person.sends.length - 1] ?? 0;
      if (persons.get(person.uuid) === person && person.pending.length === 0 && lastSend <= now - WEEK_MS)
        persons.set(person.uuid, compact(person));
    }
    if (idleHead > 10_000) {
      idle.splice(0, idleHead);
      idleHead = 0;
    }
  };

  const finish = (item: Pending, at: Date, d: Exclude<ReturnType<typeof decide>, { kind: 'later' }>) => {
    item.done = true;
    const p = item.person;
    p.pending.splice(p.pending.indexOf(item), 1);
    // recordOutcomes: a delivery that ends without being sent frees its key, so a later trigger may start it again.
    if (d.kind === 'removed') p.keys = p.keys.filter((k) => k !== item.key);
    record(sim, p, at, d);
    rest(p);
  };

  /** Decides every pending send due before `until` (strictly: an event at the same instant is matched first). */
  const runUntil = (until: number) => {
    for (let next = queue.peek(); next && next.dueAt < until; next = queue.peek()) {
      queue.pop();
      if (next.done) continue;
      now = next.dueAt;
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

  const realSends = async (uuids: string[]) => {
    const real = new Map<string, number[]>();
    if (!sim.cap || uuids.length === 0) return real;
    const rows = await q.sentTimes(db, companyUuid, {
      domainUuid,
      personUuids: uuids,
      from: new Date(from.getTime() - WEEK_MS),
      to,
      except: input.except,
    });
    for (const s of rows) {
      const list = real.get(s.person_uuid) ?? [];
      list.push(new Date(s.sent_at).getTime());
      real.set(s.person_uuid, list);
    }
    return real;
  };

  /**
   * Records for the persons the page starts something for: read (again, for one who may still be sent to: their
   * clock and the cap's real messages), or made from their number when the filter or the channel keeps them out.
   */
  const load = async (uuids: string[]) => {
    const code = (u: string) => persons.get(u) as number;
    const numbered = uuids.filter((u) => typeof persons.get(u) === 'number' && !(code(u) & SETTLED));
    const kept = numbered.filter((u) => code(u) & (OUT | UNREACHABLE));
    const keptSet = new Set(kept);
    const read = uuids.filter((u) => !persons.has(u) || (typeof persons.get(u) === 'number' && !keptSet.has(u)));
    const [rows, real] = await Promise.all([q.personsByUuid(db, companyUuid, domainUuid, read), realSends(read)]);
    for (const row of rows) {
      const before = persons.get(row.uuid);
      const view = personView(sim, row, real.get(row.uuid) ?? []);
      // Reached before, on a day long gone: not a new person, and a new day.
      if (typeof before === 'number' && before & REACHED) view.lastDay = '';
      persons.set(row.uuid, { ...view, keys: [], pending: [] });
    }
    for (const uuid of kept) {
      const c = code(uuid);
      persons.set(uuid, {
        uuid,
        passes: !(c & OUT),
        unreachable: c & UNREACHABLE ? REASONS[c >> REASON_SHIFT]! : null,
        fanOutSkip: Boolean(c & UNREACHABLE),
        zone: sim.timeZone,
        who: undefined,
        sends: [],
        lastDay: c & REACHED ? '' : null,
        keys: [],
        pending: [],
      });
    }
  };

  for await (const rows of eventPages(input, { kinds, urls, categories, propKey }, to)) {
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
    const toLoad = new Set<string>();
    events.forEach((e, i) => {
      const p = persons.get(e.personUuid!);
      if (starting[i] && (p === undefined || (typeof p === 'number' && !(p & SETTLED)))) toLoad.add(e.personUuid!);
    });
    if (toLoad.size) await load([...toLoad]);

    events.forEach((e, i) => {
      runUntil(e.ts.getTime());
      now = e.ts.getTime();
      const person = persons.get(e.personUuid!);
      if (person === undefined || typeof person === 'number') return;
      if (m.cancels(e)) {
        // matching.ts cancelForGoal: what waits, triggered before the goal page, is cancelled and its key freed.
        for (const item of [...person.pending]) {
          if (item.triggerAt >= e.ts.getTime()) continue;
          item.done = true;
          person.pending.splice(person.pending.indexOf(item), 1);
          person.keys = person.keys.filter((k) => k !== item.key);
          tally.removed('trigger', person.uuid, person.who, engineMessages.goalReached, e.ts);
        }
      }
      if (starting[i]) start(person, e);
      else rest(person);
    });
    reduceIdle();
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
      if (person.keys.includes(key) || (row.unlessPending && hasPending)) continue;
      // A repeat chain's keys carry the trigger event's id: no later row can take them, so they are not kept.
      if (!row.unlessPending) person.keys.push(key);
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
    rest(person);
  }
}
