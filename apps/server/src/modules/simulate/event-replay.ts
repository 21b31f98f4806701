import type { SimulationStage } from '@impeto/shared';
import type { Database, Db } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import { engineMessages } from '../../engine/messages.ts';
import { reachKey } from '../../engine/qualify.ts';
import { replayInBatches } from './cursor-replay.ts';
import { type EventStream, eventStream, freeKey, startChain, storedEvent } from './event-triggers.ts';
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
interface Pending {
  dueAt: number;
  triggerAt: number;
  seq: number;
  /** Its dedupe key (without the prefix), freed when it ends unsent. */
  key: string;
  /** Deferred (worktime, cap): why it would still wait at the end of the range. */
  waiting?: { stage: SimulationStage; reason: string };
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
  const { companyUuid, domainUuid, from } = input;
  const to = sim.to;

  // A journey whose conditions read only page views gets them from the stream (no read of its own per batch).
  const pageRule = m.triggerKind !== 'events' ? (sim.journey?.pageRule ?? null) : null;
  const found = await eventStream(sim, input, pageRule);
  if (!found) return;
  const stream: EventStream = found;
  const { filter, startsAt, cancelsAt } = stream;

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
    if (d.kind === 'removed') freeKey(keys, item.key);
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
      // The engine's skipped row at the trigger (unreachableReason); a malformed phone or address is queued like any
      // other and skipped by the channel's adapter at its due time (decide).
      if (person.fanOutSkip && person.unreachable)
        unreachable.set(reachKey(m.channelType, person.uuid), person.unreachable);
    }
    startChain(sim, person, unreachable, keys, prefixLength, queue.length > 0, e, (key, dueAt, triggerAt) =>
      enqueue(queue, { dueAt, triggerAt, seq: seq++, key }),
    );
  }

  /** The batch's persons with a first message sent, when the momentum has journey steps. */
  let entered: PersonView[] = [];

  /** One person's events in stored order, with their planned sends decided in time order between them. */
  function replayPerson(r: q.PersonEvents) {
    replayEventsOf(r);
    if (!sim.journey || !person?.entries) return;
    person.stored = r;
    if (pageRule) {
      person.pages = [];
      for (const [us, , page] of r.events) {
        const url = typeof page === 'number' ? stream.filter.urls![page - 1]! : page;
        if (url && pageRule(url)) person.pages.push({ at: Math.floor(us / 1000), url });
      }
    }
    entered.push(person);
  }

  function replayEventsOf(r: q.PersonEvents) {
    row = r;
    person = undefined;
    keys = [];
    queue = [];
    seq = 0;
    prefixLength = m.uuid.length + r.uuid.length + 2;
    // In stored order (ts to the microsecond, then id): the database grouped them in none.
    r.events.sort(byStoredOrder);
    for (const ev of r.events) {
      const t = Math.floor(ev[0] / 1000);
      const page = ev[2];
      if (queue.length > 0) runUntil(t);
      const byNumber = typeof page === 'number';
      // Nothing waits and the address starts nothing: the event changes nothing.
      if (byNumber && !startsAt[page - 1] && (queue.length === 0 || !cancelsAt[page - 1])) continue;
      const e = storedEvent(stream, domainUuid, r.uuid, t, ev);
      if (queue.length > 0 && (byNumber ? cancelsAt[page - 1] : m.cancels(e))) {
        // matching.ts cancelForGoal: what waits, triggered before the goal page, is cancelled and its key freed.
        for (let i = 0; i < queue.length; ) {
          const item = queue[i]!;
          if (item.triggerAt >= t) {
            i++;
            continue;
          }
          queue.splice(i, 1);
          freeKey(keys, item.key);
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

  // The database groups the next batch while the replay decides this one.
  await replayInBatches<q.PersonEvents>(
    input.database,
    q.personEventsQuery(companyUuid, { domainUuid, from, to, ...filter, cap: sim.cap !== null, except: input.except }),
    BATCH,
    input.signal,
    async (rows) => {
      for (const r of rows) replayPerson(r);
      // Journey steps (issue #26): the batch's persons whose first message went out run them now.
      if (entered.length > 0) {
        await sim.journey!.run(entered);
        entered = [];
      }
    },
  );
  await nextTurn();
  if (input.signal.aborted) throw input.signal.reason;
}

const byStoredOrder = (a: q.PersonEvent, b: q.PersonEvent) => a[0] - b[0] || a[1] - b[1];
