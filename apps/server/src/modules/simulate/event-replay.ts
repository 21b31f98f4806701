import type { SimulationStage } from '@impeto/shared';
import type { Database, Db } from '../../db/client.ts';
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
 * persons through the compiled matcher (starts, cancels) and qualifiedDeliveries, the very functions matching.ts runs
 * on a stored batch; the delivery rows they answer are kept the way the deliveries table keeps them (dedupe keys, "no
 * new chain while one waits", a removal frees its key, an abandon's goal cancels), and each is decided at its due time
 * (planned-send.ts), in time order with the person's events.
 *
 * Everything the engine decides for a delivery is the person's own (their keys, their chain, their messages under the
 * cap, their control-group draw), so the replay goes person by person: the database groups the range's events by
 * person (each person's in stored order) beside the person's row and the cap's real messages, and a cursor hands them
 * over a batch of persons at a time. Memory holds one batch; nothing is kept of a person once replayed but the tally.
 */

/** Persons per batch read from the cursor. */
const BATCH = 1_000;
/** Past this many distinct page addresses in the range the page-view stream is not narrowed by address. */
const URL_PREFILTER_LIMIT = 20_000;

interface Pending {
  dueAt: number;
  triggerAt: number;
  seq: number;
  /** Its dedupe key (without the prefix), freed when it ends unsent. */
  key: string;
  /** Deferred (worktime, cap): why it would still wait at the end of the range. */
  waiting?: { stage: SimulationStage; reason: string };
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
  database: Database;
  companyUuid: string;
  domainUuid: string;
  from: Date;
  /** The saved item the simulation stands for: its own real messages are not counted by the cap. */
  except: string | null;
  blocks: unknown[];
  signal: AbortSignal;
}

/** Pending sends by due time, then by creation (a person's few: a sorted array). */
function enqueue(queue: Pending[], item: Pending) {
  let i = queue.length;
  while (
    i > 0 &&
    (queue[i - 1]!.dueAt > item.dueAt || (queue[i - 1]!.dueAt === item.dueAt && queue[i - 1]!.seq > item.seq))
  )
    i--;
  queue.splice(i, 0, item);
}

export async function replayEvents(sim: Simulation, input: ReplayInput) {
  const { m, tally } = sim;
  const { db, companyUuid, domainUuid, from } = input;
  const to = sim.to;

  let filter: Pick<q.PersonEventsInput, 'kind' | 'urls' | 'categories' | 'propKey'>;
  /** For page views sent by number: what the matcher answers for each address (starts, cancels), asked once. */
  let startsAt: boolean[] = [];
  let cancelsAt: boolean[] = [];
  if (m.triggerKind === 'events') {
    const { categories, key } = eventTriggerOf(input.blocks);
    if (categories.length === 0) return;
    filter = { kind: 'event', urls: null, categories, propKey: key };
  } else {
    const asEvent = (url: string): StoredEvent => ({
      id: 0,
      domainUuid,
      personUuid: null,
      kind: 'pageview',
      url,
      category: null,
      props: null,
      ts: from,
    });
    const all = await q.distinctPageUrls(db, companyUuid, { domainUuid, from, to, limit: URL_PREFILTER_LIMIT });
    if (all) {
      startsAt = all.map((u) => m.starts(asEvent(u)));
      cancelsAt = all.map((u) => m.cancels(asEvent(u)));
    }
    // The addresses the matcher starts or cancels on (the others change nothing), each then sent as its number.
    const kept = all ? all.map((_, i) => i).filter((i) => startsAt[i] || cancelsAt[i]) : null;
    if (kept && kept.length === 0) return;
    if (all && kept) {
      startsAt = kept.map((i) => startsAt[i]!);
      cancelsAt = kept.map((i) => cancelsAt[i]!);
    }
    filter = { kind: 'pageview', urls: kept ? kept.map((i) => all![i]!) : null, categories: null, propKey: null };
  }
  const single = m.repeats.length === 0;

  /*
   * The person being replayed (one at a time): their row, their record (read when an event first starts something
   * for them: what waits is theirs, so it is set then), the dedupe keys they took (the deliveries table's unique key,
   * without the `momentum:person:` prefix) and their planned sends by due time.
   */
  let row: q.PersonEvents;
  let person: PersonView | undefined;
  let unreachable = new Map<string, string>();
  let keys: string[] = [];
  let queue: Pending[] = [];
  let seq = 0;
  let prefixLength = 0;
  const end = to.getTime();

  function finish(item: Pending, at: Date, d: Exclude<ReturnType<typeof decide>, { kind: 'later' }>) {
    // recordOutcomes: a delivery that ends without being sent frees its key, so a later trigger may start it again.
    if (d.kind === 'removed') {
      const k = keys.indexOf(item.key);
      if (k >= 0) keys.splice(k, 1);
    }
    record(sim, person!, at, d);
  }

  /** Decides every pending send due before `until` (strictly: an event at the same instant is matched first). */
  function runUntil(until: number) {
    while (queue.length > 0 && queue[0]!.dueAt < until) {
      const next = queue.shift()!;
      const at = new Date(next.dueAt);
      const d = decide(sim, person!, at);
      if (d.kind === 'later') {
        // Deferred, even past the end: it stays queued (its key taken) as the engine's row does.
        next.dueAt = d.at.getTime();
        next.seq = seq++;
        next.waiting = { stage: d.stage, reason: d.reason };
        enqueue(queue, next);
      } else finish(next, at, d);
    }
  }

  /** matching.ts for one candidate: qualifiedDeliveries' rows, inserted as insertDeliveries would. */
  function start(e: StoredEvent) {
    if (!person) {
      person = personView(sim, row, row.real ?? []);
      unreachable = new Map();
      if (person.unreachable) unreachable.set(reachKey(m.channelType, person.uuid), person.unreachable);
    }
    const p = person;
    // What qualifiedDeliveries would answer is all kept out: a repeat chain while one waits, the once key (or the
    // skipped row's) taken.
    if (single ? keys.includes(p.unreachable ? 'skipped' : 'once') : queue.length > 0 && !p.unreachable) return;
    const rows = qualifiedDeliveries([{ momentum: m, personUuid: p.uuid, event: e }], unreachable);
    const hasPending = queue.length > 0;
    for (const r of rows) {
      const key = r.dedupeKey.slice(prefixLength);
      if (keys.includes(key) || (r.unlessPending && hasPending)) continue;
      // A repeat chain's keys carry the trigger event's id: no later row can take them, so they are not kept.
      if (!r.unlessPending) keys.push(key);
      tally.enter();
      if (r.skipReason) {
        // The engine's skipped row: the channel cannot reach the person (the funnel tells the filter first).
        tally.removed(
          p.passes ? 'channel' : 'filter',
          p.uuid,
          p.who,
          p.passes ? r.skipReason : engineMessages.outOfAudience,
          e.ts,
        );
        continue;
      }
      enqueue(queue, { dueAt: r.dueAt.getTime(), triggerAt: r.triggerAt.getTime(), seq: seq++, key });
    }
  }

  /** One person's events in stored order, with their planned sends decided in time order between them. */
  function replayPerson(r: q.PersonEvents) {
    row = r;
    person = undefined;
    keys = [];
    queue = [];
    seq = 0;
    prefixLength = m.uuid.length + r.uuid.length + 2;
    // In stored order (ts to the microsecond, then id): the database grouped them in none.
    r.events.sort(byStoredOrder);
    for (const [us, id, page, category, props] of r.events) {
      const t = Math.floor(us / 1000);
      if (queue.length > 0) runUntil(t);
      const byNumber = typeof page === 'number';
      // Nothing waits and the address starts nothing: the event changes nothing.
      if (byNumber && !startsAt[page - 1] && (queue.length === 0 || !cancelsAt[page - 1])) continue;
      const e: StoredEvent = {
        id,
        domainUuid,
        personUuid: r.uuid,
        kind: filter.kind,
        url: byNumber ? filter.urls![page - 1]! : (page ?? null),
        category: category ?? null,
        props: props ?? null,
        ts: new Date(t),
      };
      if (queue.length > 0 && (byNumber ? cancelsAt[page - 1] : m.cancels(e))) {
        // matching.ts cancelForGoal: what waits, triggered before the goal page, is cancelled and its key freed.
        for (let i = 0; i < queue.length; ) {
          const item = queue[i]!;
          if (item.triggerAt >= t) {
            i++;
            continue;
          }
          queue.splice(i, 1);
          const k = keys.indexOf(item.key);
          if (k >= 0) keys.splice(k, 1);
          tally.removed('trigger', person!.uuid, person!.who, engineMessages.goalReached, e.ts);
        }
      }
      if (byNumber ? startsAt[page - 1] : m.starts(e)) start(e);
    }
    if (queue.length === 0) return;
    runUntil(end);
    // What still waits at the end of the range was not sent in it: counted where it waits (a planned send not yet
    // due is told the filter and the reach first).
    for (const item of queue) {
      const at = new Date(Math.max(item.dueAt, end - 1));
      finish(item, at, stillWaiting(sim, person!, at, item.waiting));
    }
  }

  const cursor = await q.openCursor<q.PersonEvents>(
    input.database,
    q.personEventsQuery(companyUuid, { domainUuid, from, to, ...filter, cap: sim.cap !== null, except: input.except }),
  );
  try {
    // The next batch is asked for before this one is replayed: the database groups while the replay decides.
    const ask = () => {
      const batch = cursor.read(BATCH);
      batch.catch(() => {}); // awaited below; left unawaited only when the replay stops
      return batch;
    };
    let next = ask();
    for (;;) {
      // Other requests get their turn between batches (PGlite answers without leaving the microtask queue), and a
      // client that went away is noticed here.
      await nextTurn();
      if (input.signal.aborted) throw input.signal.reason;
      const rows = await next;
      if (rows.length === BATCH) next = ask();
      for (const r of rows) replayPerson(r);
      if (rows.length < BATCH) break;
    }
    await nextTurn();
    if (input.signal.aborted) throw input.signal.reason;
  } finally {
    await cursor.close();
  }
}

const byStoredOrder = (a: q.PersonEvent, b: q.PersonEvent) => a[0] - b[0] || a[1] - b[1];
