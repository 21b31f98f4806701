import type { SimulationStage } from '@impeto/shared';
import type { Database, Db } from '../../db/client.ts';
import { OUT_OF_AUDIENCE, unreachableReasonSql } from '../../engine/qualify.ts';
import { busiestHour, mostActiveHours } from '../../engine/timing.queries.ts';
import { chainOffsets, createThrottle, needsPlan, nextOccurrence, planFirstSend } from '../../engine/timing.ts';
import { recipientOf } from '../../lib/mask.ts';
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
 * its ticks follow each other; a campaign's one, at its schedule when that falls in the range, else at the range's
 * start), each fanned out to the persons who existed then and pass the filter (the fan-out's own SQL condition),
 * each given the repeat chain (chainOffsets), and every planned send decided at its due time (planned-send.ts).
 * Persons are independent (the cap counts one person's messages; only a throttle's slots follow the fan-out's order,
 * by uuid, and then they come in that order), so they are read through a cursor a page at a time and each one is
 * replayed whole before the next. Those the fan-out would not plan a send for (out of the filter, or a skipped row:
 * the channel cannot reach them) are decided by its own SQL and only counted, without reading them.
 */

const PAGE = 5_000;
/** Persons only counted (out of the filter or the channel's reach) offered to the sample. */
const SAMPLES = 20;

/** Does the filter read more of the attributes than 'all' (which reads none)? */
const readsAttributes = (m: Simulation['m']) => m.filter.block?.values.some((c) => c.filter !== 'all') ?? false;
/** Best time reads the 30 days of activity before the occurrence (fan-out.ts). */
const BEST_TIME_DAYS = 30;

/** The occurrences in [from, to): a recurrence's ticks as if it started at `from`, or a campaign's one instant. */
export function occurrencesIn(
  sim: Pick<Simulation, 'm' | 'timeZone'>,
  from: Date,
  to: Date,
  scheduledAt: Date | null,
): Date[] {
  if (!sim.m.recurrence) return [scheduledAt && scheduledAt >= from && scheduledAt < to ? scheduledAt : from];
  const out: Date[] = [];
  for (let at = nextOccurrence(sim.m, sim.timeZone, from, from); at && at < to; ) {
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
  // Issue #27, the fan-out's plan: each person's first send at their local time or best hour, past holidays and quiet
  // hours (planFirstSend), then spread by the throttle, per occurrence, in the fan-out's order (uuid).
  const channelType = m.channelType!;
  const planned = needsPlan(sim.timing, sim.domainTiming, channelType);
  const throttles = occurrences.map((o) =>
    sim.timing?.throttle_per_minute ? createThrottle(o, sim.timing.throttle_per_minute) : null,
  );
  const bestSince = (o: Date) => new Date(o.getTime() - BEST_TIME_DAYS * 86_400_000);
  const busiest = sim.timing?.best_time
    ? await Promise.all(
        occurrences.map((o) =>
          busiestHour(db, { domainUuid, zone: sim.domainTiming.timeZone, since: bestSince(o), until: o }),
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
    occurrences,
    // With a finish date, a planned send may be stopped before the channel's reach is asked (decide).
    keepSkipped: m.finishAt !== null,
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
      tally.removed(stage, row.uuid, who, reason, occurrences[row.before]!, 0);
    }
  }
  const cursor = await q.openCursor<q.AudienceRow>(input.database, q.audienceQuery(companyUuid, audience));
  try {
    // The next page is asked for before this one is replayed: the database reads while the replay decides.
    const ask = () => {
      const batch = cursor.read(PAGE);
      batch.catch(() => {}); // awaited below; left unawaited only when the replay stops
      return batch;
    };
    let next = ask();
    for (;;) {
      // Other requests get their turn between pages (PGlite answers without ever leaving the microtask queue), and a
      // client that went away is noticed here.
      await nextTurn();
      if (signal.aborted) throw signal.reason;
      const page = await next;
      if (page.length === PAGE) next = ask();
      await replayPage(page);
      if (page.length < PAGE) break;
    }
    for (const row of await counted) {
      const sends = (occurrences.length - row.before) * offsets.length * row.persons;
      tally.enter(sends);
      if (row.reason === null) tally.removed('filter', '', undefined, OUT_OF_AUDIENCE.error, occurrences[0]!, sends);
      else tally.removed('channel', '', undefined, row.reason, occurrences[0]!, sends);
    }
    await nextTurn();
    if (signal.aborted) throw signal.reason;
  } finally {
    await cursor.close();
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
    // Best time: each person's most active local hour over the 30 days before each occurrence (the fan-out's query).
    const hours = sim.timing?.best_time
      ? await Promise.all(
          occurrences.map((o, k) =>
            mostActiveHours(db, {
              domainUuid,
              zones: page.flatMap((r, i) =>
                !views[i]!.fanOutSkip && r.before <= k ? [{ uuid: r.uuid, zone: views[i]!.zone }] : [],
              ),
              since: bestSince(o),
              until: o,
            }),
          ),
        )
      : null;
    const firstSend = (person: PersonView, k: number, o: Date) => {
      if (!planned || person.fanOutSkip) return o;
      const plan = planFirstSend({
        at: o,
        timing: sim.timing,
        domain: sim.domainTiming,
        zone: person.zone,
        bestHour: hours?.[k]?.get(person.uuid) ?? busiest?.[k] ?? null,
        channelType,
      });
      return throttles[k] ? throttles[k]!.slot(plan) : plan;
    };

    for (let i = 0; i < page.length; i++) {
      // The occurrences from the first at or after the person's first visit (`before` of them came earlier).
      const before = page[i]!.before;
      if (before >= occurrences.length) continue;
      tally.enter((occurrences.length - before) * offsets.length);
      const person = views[i]!;
      // The person's planned sends, decided in due order; a deferred one is put back in its place.
      const planned: { due: number; waiting?: { stage: SimulationStage; reason: string } }[] = [];
      for (let k = before; k < occurrences.length; k++) {
        const first = firstSend(person, k, occurrences[k]!).getTime();
        for (const s of offsets) planned.push({ due: first + s * 1000 });
      }
      if (planned.length > 1) planned.sort((a, b) => a.due - b.due);
      while (planned.length) {
        const next = planned.shift()!;
        if (next.due >= sim.to.getTime()) {
          const at = new Date(sim.to.getTime() - 1);
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
  }
}
