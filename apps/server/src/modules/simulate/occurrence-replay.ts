import { inTestShare, type SimulationStage, simulateMessages } from '@impeto/shared';
import type { Database, Db } from '../../db/client.ts';
import { OUT_OF_AUDIENCE, unreachableReasonSql } from '../../engine/qualify.ts';
import { busiestHour, mostActiveHours } from '../../engine/timing.queries.ts';
import { chainOffsets, createSendPlanner, createThrottle, needsPlan, nextOccurrence } from '../../engine/timing.ts';
import { winnerTest } from '../../engine/winner-decision.ts';
import { recipientOf } from '../../lib/mask.ts';
import { heldOutAsControl } from './control-group.ts';
import { replayInBatches } from './cursor-replay.ts';
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
 * The replay of a campaign or a recurrence: its occurrences in the range (a recurrence's from `nextOccurrence`, as
 * its ticks follow each other from an activation at the range's start; a campaign's one, at its schedule when that
 * falls in the range, else at the range's start), each fanned out as fan-out.ts does: to the persons who existed then
 * and pass the filter (the fan-out's own SQL condition), each person's first send planned by the fan-out's own
 * planner (timing.ts createSendPlanner: the visitor's clock, local time, best hour, holidays, quiet hours, worktime;
 * then the throttle's slot), given the repeat chain (chainOffsets), and every planned send decided at its due time
 * (planned-send.ts). A campaign that sends the winner (issue #25) fans out twice: its test share at the occurrence,
 * the rest (not held out) `hours` later, at the decision. Persons are independent (the cap counts one person's
 * messages; only a throttle's slots follow the fan-out's order, by uuid, and then they come in that order), so they
 * are read through a cursor a page at a time and each one is replayed whole before the next. Those the fan-out would
 * not plan a send for (out of the filter, or a skipped row: the channel cannot reach them) are decided by its own SQL
 * and only counted, without reading them.
 */

const PAGE = 5_000;
/** Persons only counted (out of the filter or the channel's reach) offered to the sample. */
const SAMPLES = 20;
const HOUR_MS = 3_600_000;

/** Does the filter read more of the attributes than 'all' (which reads none)? */
const readsAttributes = (m: Simulation['m']) => m.filter.block?.values.some((c) => c.filter !== 'all') ?? false;
/** Best time reads the 30 days of activity before the occurrence (fan-out.ts). */
const BEST_TIME_DAYS = 30;

/**
 * The occurrences in [from, to): a recurrence's ticks as if it was activated at `from` (timed-jobs.ts: the first tick
 * `ongoing`, so on the visitor's clock the occurrence some clock has not reached yet at `from` counts, though its tick
 * is earlier), or a campaign's one instant.
 */
export function occurrencesIn(
  sim: Pick<Simulation, 'm' | 'timeZone'>,
  from: Date,
  to: Date,
  scheduledAt: Date | null,
): Date[] {
  if (!sim.m.recurrence) return [scheduledAt && scheduledAt >= from && scheduledAt < to ? scheduledAt : from];
  const out: Date[] = [];
  for (let at = nextOccurrence(sim.m, sim.timeZone, from, from, true); at && at < to; ) {
    out.push(at);
    at = nextOccurrence(sim.m, sim.timeZone, from, at);
  }
  return out;
}

export interface AudienceInput {
  db: Db;
  database: Database;
  companyUuid: string;
  domainUuid: string;
  from: Date;
  occurrences: Date[];
  except: string | null;
  signal: AbortSignal;
}

export async function replayOccurrences(sim: Simulation, input: AudienceInput) {
  const { m, tally } = sim;
  const { db, companyUuid, domainUuid, occurrences, signal } = input;
  if (occurrences.length === 0) return;
  const offsets = chainOffsets(m.repeats);
  const to = sim.to.getTime();
  // Send the winner (issue #25): the campaign's fan-outs are its test share's at the occurrence and the rest's at the
  // decision, `hours` later (timed-jobs.ts 'experiment.decide'; none when the campaign has finished by then).
  const test = m.recurrence ? null : winnerTest({ type: m.type, experiment: sim.arm.experiment });
  const decision = test ? new Date(occurrences[0]!.getTime() + test.winner.hours * HOUR_MS) : null;
  const restReached = decision !== null && !(m.finishAt && decision >= m.finishAt);
  const fanOuts = test ? [occurrences[0]!, decision!] : occurrences;
  // The persons each fan-out reads: those who existed when it ran. The first tick on the visitor's clock may come
  // before `from`: it runs at the activation, `from`; a decision past the range's end reads everyone of the range.
  const reads = fanOuts.map((o) => new Date(Math.min(Math.max(o.getTime(), input.from.getTime()), to - 1)));
  // Issue #27, the fan-out's plan (fan-out.ts plannedFanOut, which a campaign that sends the winner always takes):
  // each person's first send by the fan-out's planner, per fan-out, then spread by its throttle in the fan-out's order
  // (uuid). A fan-out at or past the range's end is not planned: all of it still waits.
  const channelType = m.channelType!;
  const usesPlanner = test !== null || needsPlan(sim.timing, sim.domainTiming, channelType);
  const inRange = fanOuts.map((o) => o.getTime() < to);
  const planners = fanOuts.map((o) =>
    createSendPlanner({
      at: o,
      timing: sim.timing,
      domain: sim.domainTiming,
      channelType,
      visitorRecurrence: m.recurrenceOnVisitorClock ? m.recurrence!.hours : null,
      activatedAt: input.from,
      dropHolidays: m.recurrence?.period === 'daily',
      worktime: m.worktime,
    }),
  );
  const throttles = fanOuts.map((o) =>
    sim.timing?.throttle_per_minute ? createThrottle(o, sim.timing.throttle_per_minute) : null,
  );
  const bestSince = (o: Date) => new Date(o.getTime() - BEST_TIME_DAYS * 86_400_000);
  const busiest = sim.timing?.best_time
    ? await Promise.all(
        fanOuts.map((o, k) =>
          inRange[k]
            ? busiestHour(db, { domainUuid, zone: sim.domainTiming.timeZone, since: bestSince(o), until: o })
            : null,
        ),
      )
    : null;
  // The database decides the filter and the channel's reach (the fan-out's own SQL): those out of either are only
  // counted, in one aggregate beside the cursor (a few of them kept for the sample); the rest come through the cursor
  // with only what the replay reads of them.
  const audience: q.AudienceInput = {
    domainUuid,
    from: input.from,
    to: sim.to,
    where: m.filter.where,
    skip: unreachableReasonSql(channelType),
    occurrences: reads,
    // With a finish date, a planned send may be stopped before the channel's reach is asked (decide); a campaign
    // that sends the winner writes no skipped row for the rest's held-out persons (only the replay draws them).
    keepSkipped: m.finishAt !== null || test !== null,
    attributes: readsAttributes(m),
    cap: sim.cap !== null,
    except: input.except,
    // The throttle's slots go in the fan-out's order; without one, a person's sends are theirs alone.
    ordered: Boolean(sim.timing?.throttle_per_minute),
  };
  const counted = q.audienceRemoved(db, companyUuid, audience);
  counted.catch(() => {}); // awaited below; left unawaited only when the replay stops
  if (sim.tally.wantsSamples()) {
    for (const row of await q.audienceRemovedSample(db, companyUuid, audience, SAMPLES)) {
      const who = sim.tally.wantsSamples() ? { recipient: recipientOf(channelType, row) } : undefined;
      const [stage, reason] =
        row.reason === null ? (['filter', OUT_OF_AUDIENCE.error] as const) : (['channel', row.reason] as const);
      tally.removed(stage, row.uuid, who, reason, reads[row.before]!, 0);
    }
  }
  // The database reads the next page while the replay decides this one (cursor-replay.ts).
  await replayInBatches<q.AudienceRow>(
    input.database,
    q.audienceQuery(companyUuid, audience),
    PAGE,
    signal,
    replayPage,
  );
  // Out of the filter: every send the fan-outs would have planned (one fan-out per person when the campaign sends
  // the winner); out of the channel's reach: the one skipped row each fan-out writes.
  for (const row of await counted) {
    const fanOutsOf = test ? 1 : fanOuts.length - row.before;
    const sends = fanOutsOf * (row.reason === null ? offsets.length : 1) * row.persons;
    tally.enter(sends);
    if (row.reason === null) tally.removed('filter', '', undefined, OUT_OF_AUDIENCE.error, reads[0]!, sends);
    else tally.removed('channel', '', undefined, row.reason, reads[0]!, sends);
  }
  await nextTurn();
  if (signal.aborted) throw signal.reason;

  /**
   * The fan-outs that reach a person, [first, end) of `fanOuts`: those after their first visit (`before` came
   * earlier); with send the winner, the test's when they are in the test share (and were there at the occurrence),
   * else the rest's unless the arm holds them out (fan-out.ts audienceShare).
   */
  function reachedBy(row: q.AudienceRow, person: PersonView): [number, number] {
    if (!test) return [row.before, fanOuts.length];
    if (inTestShare(row.uuid, m.uuid, test.winner.test_percent)) return row.before === 0 ? [0, 1] : [0, 0];
    if (!restReached || row.before > 1) return [0, 0];
    if (person.heldOut === undefined) person.heldOut = heldOutAsControl(sim.arm, row.uuid);
    return person.heldOut ? [0, 0] : [1, 2];
  }

  /** One page of persons, each replayed whole. */
  async function replayPage(page: q.AudienceRow[]) {
    const views = page.map((row) =>
      personView(
        sim,
        {
          uuid: row.uuid,
          visitor_id: row.visitor_id,
          email: row.email,
          phone: row.phone,
          push_status: null,
          push_subscription: null,
          attributes: row.attributes ?? {},
          timezone: row.timezone,
        },
        row.real ?? [],
        row.skip,
      ),
    );
    const reached = page.map((row, i) => reachedBy(row, views[i]!));
    // Best time: each person's most active local hour over the 30 days before each fan-out (the fan-out's query).
    const hours = sim.timing?.best_time
      ? await Promise.all(
          fanOuts.map((o, k) =>
            inRange[k]
              ? mostActiveHours(db, {
                  domainUuid,
                  zones: page.flatMap((r, i) =>
                    !views[i]!.fanOutSkip && reached[i]![0] <= k && k < reached[i]![1]
                      ? [{ uuid: r.uuid, zone: views[i]!.zone }]
                      : [],
                  ),
                  since: bestSince(o),
                  until: o,
                })
              : null,
          ),
        )
      : null;
    /** The person's first send of fan-out `k` (null: the fan-out leaves them out and writes no row). */
    const firstSend = (person: PersonView, k: number): Date | null => {
      const o = fanOuts[k]!;
      if (!usesPlanner || !inRange[k]) return o;
      const plan = planners[k]!(person.zone, hours?.[k]?.get(person.uuid) ?? busiest?.[k] ?? null);
      if (!plan) return null;
      return throttles[k] ? throttles[k]!.slot(plan) : plan;
    };
    const waitingWinner = { stage: 'schedule' as const, reason: simulateMessages.waitingWinner };

    for (let i = 0; i < page.length; i++) {
      const [first, end] = reached[i]!;
      if (first >= end) continue;
      const person = views[i]!;
      // The person's planned sends, decided in due order; a deferred one is put back in its place.
      const planned: { due: number; waiting?: { stage: SimulationStage; reason: string } }[] = [];
      for (let k = first; k < end; k++) {
        // Out of the channel's reach: the fan-out's one skipped row.
        if (person.fanOutSkip) {
          planned.push({ due: fanOuts[k]!.getTime() });
          continue;
        }
        const due = firstSend(person, k)?.getTime();
        if (due === undefined) continue;
        const waiting = test && k === 1 && !inRange[k] ? waitingWinner : undefined;
        for (const s of offsets) planned.push({ due: due + s * 1000, waiting });
      }
      tally.enter(planned.length);
      if (planned.length > 1) planned.sort((a, b) => a.due - b.due);
      while (planned.length) {
        const next = planned.shift()!;
        if (next.due >= to) {
          const at = new Date(to - 1);
          record(sim, person, at, stillWaiting(sim, person, at, next.waiting));
          continue;
        }
        const at = new Date(next.due);
        const d = decide(sim, person, at);
        if (d.kind !== 'later') {
          record(sim, person, at, d);
          continue;
        }
        const later = { due: d.at.getTime(), waiting: { stage: d.stage, reason: d.reason } };
        let i = 0;
        while (i < planned.length && planned[i]!.due <= later.due) i++;
        planned.splice(i, 0, later);
      }
    }
    // Journey steps (issue #26; recurrences only: campaigns have none): the page's persons run them now.
    if (sim.journey) await sim.journey.run(views);
  }
}
