import type { SimulationStage } from '@impeto/shared';
import type { StoredEvent } from '../../engine/matcher.ts';
import { engineMessages } from '../../engine/messages.ts';
import { reachKey } from '../../engine/qualify.ts';
import { nextWorktimeOpening } from '../../engine/schedule.ts';
import { throttledSlot } from '../../engine/timing.ts';
import { replayInBatches } from './cursor-replay.ts';
import type { ReplayInput } from './event-replay.ts';
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
 * The replay of a momentum that events start under 'Limite de envios por minuto' (issue #27): the engine's slots
 * link persons in trigger order (throttled-insert.ts moves each new chain to the first slot at least 60/rate s from
 * every send the momentum has planned: other persons' rows, deferred rows at their current due time, sent and
 * cancelled ones at theirs; skipped rows take none; a chain started outside the worktime takes its slot from the
 * opening), and a delayed chain changes the person's later decisions (a waiting chain keeps new triggers out; an
 * abandon's goal page cancels what still waits). So this replay goes in time order across persons, where
 * event-replay.ts goes person by person.
 *
 * The range's events of known persons that may start or cancel the momentum (event-replay.ts's prefilters) come in
 * stored order through a cursor, a chunk at a time; the persons first met in a chunk with an event that starts
 * something are read in one query (contacts, attributes, zone, the cap's real messages). Before each event, every
 * planned send due before it is decided (planned-send.ts, a heap by due time across persons); a matched trigger goes
 * through startChain (the same key rules as event-replay.ts) and its chain takes its slot with the engine's own
 * throttledSlot over the sorted due times of the momentum's planned sends (`taken`): a deferral moves its entry, as
 * the send stage updates the row's due_at; a send that ends skipped (control group, the channel's reach, the cap)
 * gives its entry back; sent, cancelled and expired ones keep it.
 *
 * Each event is matched as a batch of its own (the collector stores a visitor's request as one): within one engine
 * batch of several persons the chains' later rows are not yet among the taken slots, here they are.
 *
 * A person's state (keys, pending sends, their PersonView) lives in a Map while anything of it matters: dropped once
 * nothing waits and they were never sent a message (read again if met again), or reduced to their uuid when a key
 * they hold (a skipped row's) keeps every later trigger out; kept to the end once sent a message (the cap's week, the
 * distinct days, the journey's entries) or given a place in the sample. Memory holds a chunk, what waits, and the
 * persons reached.
 */

/** Events per chunk read from the cursor. */
const CHUNK = 5_000;

/** Decisions that end a row `skipped` in the engine: it no longer takes a throttle slot (timing.queries.ts). */
const FREES_SLOT = new Set<SimulationStage>(['channel', 'control_group', 'frequency_cap']);

type PersonRow = q.SimPerson & { real: number[] | null };

interface PersonState {
  /** What the person's view was made of (read again from here if they are let go and met again in the chunk). */
  row: PersonRow;
  view: PersonView;
  /** The person's reason by reachKey when the fan-out's rule holds them out (a skipped row at the trigger). */
  unreachable: Map<string, string>;
  /** Dedupe keys held, without the `momentum:person:` prefix (`prefixLength` long). */
  keys: string[];
  prefixLength: number;
  /** Planned sends not decided yet. */
  pending: Send[];
}

interface Send {
  dueAt: number;
  triggerAt: number;
  seq: number;
  key: string;
  state: PersonState;
  /** Cancelled by a goal page while in the heap (left there, skipped when it comes out). */
  cancelled: boolean;
  waiting?: { stage: SimulationStage; reason: string };
}

const before = (a: Send, b: Send) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);

/** A binary min-heap of planned sends by due time, then by planning order. */
function sendHeap() {
  const items: Send[] = [];
  return {
    get size() {
      return items.length;
    },
    peek: () => items[0],
    push(s: Send) {
      let i = items.push(s) - 1;
      while (i > 0) {
        const up = (i - 1) >> 1;
        if (!before(s, items[up]!)) break;
        items[i] = items[up]!;
        i = up;
      }
      items[i] = s;
    },
    pop(): Send | undefined {
      const top = items[0];
      const last = items.pop();
      if (items.length === 0 || !last) return top;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= items.length) break;
        const c = l + 1 < items.length && before(items[l + 1]!, items[l]!) ? l + 1 : l;
        if (!before(items[c]!, last)) break;
        items[i] = items[c]!;
        i = c;
      }
      items[i] = last;
      return top;
    },
  };
}

/** The first index of `sorted` whose value is not below `v`. */
function lowerBound(sorted: number[], v: number) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const insertSorted = (sorted: number[], v: number) => sorted.splice(lowerBound(sorted, v), 0, v);
function removeSorted(sorted: number[], v: number) {
  const i = lowerBound(sorted, v);
  if (sorted[i] === v) sorted.splice(i, 1);
}

export async function replayThrottled(sim: Simulation, input: ReplayInput) {
  const { m, tally } = sim;
  const rate = sim.timing?.throttle_per_minute;
  if (!rate) throw new Error('replayThrottled: momentum without throttle_per_minute');
  const perMinute: number = rate;
  const intervalMs = 60_000 / perMinute;
  const { companyUuid, domainUuid, from } = input;
  const to = sim.to;
  const end = to.getTime();
  const found = await eventStream(sim, input);
  if (!found) return;
  const stream: EventStream = found;
  const { filter, startsAt, cancelsAt } = stream;
  // throttled-insert.ts: outside the worktime a chain's slot is counted from the opening, on the domain's clock
  // (the engine compiles worktimeZone null when the worktime is read on each visitor's clock: then from its time).
  const openingZone = sim.timing?.worktime_zone === 'visitor' ? null : sim.timeZone;

  /** The due times of the momentum's planned sends, ascending (the stored rows throttleTaken reads). */
  const taken: number[] = [];
  const heap = sendHeap();
  const states = new Map<string, PersonState>();
  /** Persons held out for good by a key they hold (a skipped row's: the channel cannot reach them). */
  const closed = new Set<string>();
  /** The rows of persons let go in this chunk: met again in it, they are not read again. */
  const released = new Map<string, PersonRow>();
  let seq = 0;

  function settle(s: Send, at: Date, d: Exclude<ReturnType<typeof decide>, { kind: 'later' }>) {
    const st = s.state;
    st.pending.splice(st.pending.indexOf(s), 1);
    // recordOutcomes: a delivery that ends without being sent frees its key, so a later trigger may start it again.
    if (d.kind === 'removed') freeKey(st.keys, s.key);
    record(sim, st.view, at, d);
    if (st.pending.length === 0) release(st);
  }

  /** Decides every planned send due before `until` (strictly: an event at the same instant is matched first). */
  function decideDue(until: number) {
    for (let next = heap.peek(); next && next.dueAt < until; next = heap.peek()) {
      heap.pop();
      if (next.cancelled) continue;
      const at = new Date(next.dueAt);
      const d = decide(sim, next.state.view, at);
      if (d.kind === 'later') {
        // The send stage moves the row's due_at: its slot moves with it (deferred, even past the end, it waits).
        const later = d.at.getTime();
        removeSorted(taken, next.dueAt);
        insertSorted(taken, later);
        next.dueAt = later;
        next.seq = seq++;
        next.waiting = { stage: d.stage, reason: d.reason };
        heap.push(next);
        continue;
      }
      if (d.kind === 'removed' && FREES_SLOT.has(d.stage)) removeSorted(taken, next.dueAt);
      settle(next, at, d);
    }
  }

  /**
   * What no longer matters is let go: a person never sent a message, with nothing waiting, is read again if met
   * again; one held out for good by a key is kept as their uuid. The few the sample may show (`who`) stay: met
   * again, they would be offered to it again.
   */
  function release(st: PersonState) {
    const { view } = st;
    if (view.days !== null || view.who) return;
    states.delete(view.uuid);
    if (st.keys.length > 0) closed.add(view.uuid);
    else released.set(view.uuid, st.row);
  }

  function stateOf(row: PersonRow): PersonState {
    const view = personView(sim, row, row.real ?? []);
    // The fan-out's rule (unreachableReason) writes a skipped row at the trigger; a malformed phone or address is
    // queued like any other (it takes a slot) and skipped by the channel's adapter when due.
    const unreachable = new Map<string, string>();
    if (view.fanOutSkip && view.unreachable) unreachable.set(reachKey(m.channelType, view.uuid), view.unreachable);
    const st: PersonState = {
      row,
      view,
      unreachable,
      keys: [],
      prefixLength: m.uuid.length + view.uuid.length + 2,
      pending: [],
    };
    states.set(view.uuid, st);
    return st;
  }

  /** matching.ts and throttled-insert.ts for one trigger: the chain's rows, moved to the chain's slot. */
  const chain: { key: string; dueAt: number; triggerAt: number }[] = [];
  function start(st: PersonState, e: StoredEvent) {
    chain.length = 0;
    startChain(
      sim,
      st.view,
      st.unreachable,
      st.keys,
      st.prefixLength,
      st.pending.length > 0,
      e,
      (key, dueAt, triggerAt) => chain.push({ key, dueAt, triggerAt }),
    );
    if (chain.length > 0) {
      let firstAt = 0;
      for (let i = 1; i < chain.length; i++) if (chain[i]!.dueAt < chain[firstAt]!.dueAt) firstAt = i;
      const first = chain[firstAt]!.dueAt;
      const from =
        openingZone && m.worktime ? nextWorktimeOpening(new Date(first), m.worktime, openingZone).getTime() : first;
      // The chain's first send takes its slot (throttledSlot inserts it); the others follow it, and later chains
      // keep their distance from them too (the rows are stored).
      const shift = throttledSlot(taken, from, perMinute) - first;
      chain.forEach((r, i) => {
        const dueAt = r.dueAt + shift;
        if (i !== firstAt) insertSorted(taken, dueAt);
        const s: Send = { dueAt, triggerAt: r.triggerAt, seq: seq++, key: r.key, state: st, cancelled: false };
        st.pending.push(s);
        heap.push(s);
      });
    }
    if (st.pending.length === 0) release(st);
  }

  /** matching.ts cancelForGoal: what waits, triggered before the goal page, is cancelled and its key freed. */
  function cancelBefore(st: PersonState, e: StoredEvent) {
    const t = e.ts.getTime();
    for (let i = 0; i < st.pending.length; ) {
      const s = st.pending[i]!;
      if (s.triggerAt >= t) {
        i++;
        continue;
      }
      // The row is cancelled where it stands: its slot stays taken (only skipped rows give theirs back).
      st.pending.splice(i, 1);
      s.cancelled = true;
      freeKey(st.keys, s.key);
      tally.removed('trigger', st.view.uuid, st.view.who, engineMessages.goalReached, e.ts);
    }
    if (st.pending.length === 0) release(st);
  }

  async function replayChunk(events: q.StreamEvent[]) {
    // Which events start something, and the persons they are for who are not in memory: read in one query.
    const starts = new Uint8Array(events.length);
    const built: (StoredEvent | undefined)[] = new Array(events.length);
    const wanted = new Set<string>();
    events.forEach((ev, i) => {
      if (typeof ev.page === 'number') starts[i] = startsAt[ev.page - 1] ? 1 : 0;
      else {
        const e = storedEvent(stream, domainUuid, ev.person, Math.floor(ev.us / 1000), asPersonEvent(ev));
        built[i] = e;
        starts[i] = m.starts(e) ? 1 : 0;
      }
      if (starts[i] && !states.has(ev.person) && !closed.has(ev.person)) wanted.add(ev.person);
    });
    const rows =
      wanted.size > 0
        ? await q.personsOf(input.db, companyUuid, {
            domainUuid,
            uuids: [...wanted],
            from,
            to,
            cap: sim.cap !== null,
            except: input.except,
          })
        : [];
    const fetched = new Map(rows.map((r) => [r.uuid, r]));

    events.forEach((ev, i) => {
      const t = Math.floor(ev.us / 1000);
      decideDue(t);
      // Sends long past can no longer be within a slot's distance of a new one (every new one is due at or after t).
      const stale = lowerBound(taken, t - intervalMs);
      if (stale > 1024) taken.splice(0, stale);
      let st = states.get(ev.person);
      const byNumber = typeof ev.page === 'number';
      // Nothing waits for the person and the event starts nothing: it changes nothing.
      if (!starts[i] && (!st || st.pending.length === 0)) return;
      if (!starts[i] && byNumber && !cancelsAt[(ev.page as number) - 1]) return;
      const e = built[i] ?? storedEvent(stream, domainUuid, ev.person, t, asPersonEvent(ev));
      if (st && st.pending.length > 0 && (byNumber ? cancelsAt[(ev.page as number) - 1] : m.cancels(e))) {
        cancelBefore(st, e);
        st = states.get(ev.person);
      }
      if (!starts[i] || closed.has(ev.person)) return;
      if (!st) {
        const row = fetched.get(ev.person) ?? released.get(ev.person);
        // Not one of the domain's persons: nothing starts.
        if (!row) return;
        st = stateOf(row);
      }
      start(st, e);
    });

    released.clear();
  }

  await replayInBatches<q.StreamEvent>(
    input.database,
    q.timeOrderedEventsQuery(companyUuid, { domainUuid, from, to, ...filter }),
    CHUNK,
    input.signal,
    replayChunk,
  );

  decideDue(end);
  // What still waits at the end of the range was not sent in it: counted where it waits (a planned send not yet due
  // is told the filter and the reach first).
  for (let s = heap.pop(); s; s = heap.pop()) {
    if (s.cancelled) continue;
    const at = new Date(Math.max(s.dueAt, end - 1));
    settle(s, at, stillWaiting(sim, s.state.view, at, s.waiting));
  }
  await nextTurn();
  if (input.signal.aborted) throw input.signal.reason;
  // Journey steps (issue #26): the persons whose first message went out, all kept to the end.
  if (sim.journey) {
    const entered = [...states.values()].filter((st) => st.view.entries).map((st) => st.view);
    if (entered.length > 0) await sim.journey.run(entered);
  }
}

/** A stream row as the PersonEvent storedEvent reads. */
const asPersonEvent = (ev: q.StreamEvent): q.PersonEvent => [ev.us, ev.id, ev.page, ev.category, ev.props];
