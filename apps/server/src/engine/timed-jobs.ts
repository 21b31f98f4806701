import { z } from 'zod';
import type { AppContext } from '../lib/context.ts';
import * as q from './deliveries.queries.ts';
import type { FanOut } from './fan-out.ts';
import { defineJob, type JobRunner } from './jobs.ts';
import { type CompiledMomentum, compileStored } from './matcher.ts';
import { nextOccurrence } from './timing.ts';
import * as wq from './winner.queries.ts';
import { decidedWinner, pickWinner, storedDecision, variantRates, winnerTest } from './winner-decision.ts';

/*
 * The timed jobs (pg-boss, DESIGN.md §10): scheduled activation, finish, campaign fan-out and recurrence ticks, one
 * waiting job per (momentum, instant) (the key). Every handler is safe to run twice: it checks the momentum is still
 * in the state the job was made for, and what it writes is guarded or deduplicated. A campaign that sends the winner
 * (issue #25, winner-decision.ts) has one more: its decision, `hours` after its fan-out.
 */

export const TIMED_JOB_NAMES = [
  'momentum.activate',
  'momentum.finish',
  'campaign.fanout',
  'recurrence.tick',
  'experiment.decide',
] as const;
type TimedJobName = (typeof TIMED_JOB_NAMES)[number];

export type TimedSchedule = ReturnType<typeof createTimedSchedule>;

/** Sends the timed jobs through `send` (the engine's job runner, made after the definitions that need this). */
export function createTimedSchedule(send: JobRunner['send']) {
  const at = (name: TimedJobName, uuid: string, when: Date) => {
    const iso = when.toISOString();
    return send(name, { uuid, at: iso }, { startAfter: when, key: `${uuid}:${iso}` });
  };
  return {
    activation: (uuid: string, scheduledAt: Date) => at('momentum.activate', uuid, scheduledAt),
    finish: (uuid: string, finishAt: Date) => at('momentum.finish', uuid, finishAt),
    /** Right away: the fan-out of the campaign activated at `activatedAt`. */
    campaignFanOut(uuid: string, activatedAt: Date) {
      const iso = activatedAt.toISOString();
      return send('campaign.fanout', { uuid, at: iso }, { key: `${uuid}:${iso}` });
    },
    /** Send the winner: the decision of the campaign whose test share went out, at `when`. */
    decision: (uuid: string, when: Date) => at('experiment.decide', uuid, when),
    /** The recurrence's next tick after `after` (`ongoing`: timing.ts nextOccurrence), unless at or past the finish date. */
    async nextRecurrence(m: q.DispatchMomentum, compiled: CompiledMomentum, after: Date, ongoing = false) {
      const next = nextOccurrence(compiled, m.time_zone, m.activated_at, after, ongoing);
      if (next) await at('recurrence.tick', m.uuid, next);
    },
    /** The same job again, for the very instant (text) it was made for. */
    again: (name: TimedJobName, uuid: string, iso: string) =>
      send(name, { uuid, at: iso }, { startAfter: new Date(iso), key: `${uuid}:${iso}` }),
  };
}

const momentumRef = z.object({ uuid: z.uuid(), at: z.iso.datetime() });

export function defineTimedJobs(
  ctx: Pick<AppContext, 'db' | 'clock'>,
  deps: { schedule: TimedSchedule; fanOut: FanOut; momentumChanged(uuid: string): Promise<void> },
) {
  const { db, clock } = ctx;
  const { schedule, fanOut, momentumChanged } = deps;
  const loadMomentum = async (uuid: string) => (await q.momentumsByUuid(db, [uuid]))[0];

  /**
   * A timed job that pg-boss hands over before its instant on our clock is sent again for that instant instead of
   * being dropped: pg-boss reads the database's clock, which may run a little ahead of ours (and the demonstration
   * clock is days behind it). Same key: a no-op when that job already waits.
   */
  const tooEarly = async (name: TimedJobName, uuid: string, at: string) => {
    if (clock.now() >= new Date(at)) return false;
    await schedule.again(name, uuid, at);
    return true;
  };

  return [
    defineJob({
      name: 'momentum.activate',
      payload: momentumRef,
      async handler({ uuid, at }) {
        const m = await loadMomentum(uuid);
        // Only the schedule this job was made for: a re-scheduled or already started item is left alone.
        if (m?.status !== 'Paused' || m.scheduled_at?.toISOString() !== at) return;
        if (await tooEarly('momentum.activate', uuid, at)) return;
        await q.activateScheduled(db, uuid, new Date(at), clock.now());
        await momentumChanged(uuid);
      },
    }),
    defineJob({
      name: 'momentum.finish',
      payload: momentumRef,
      async handler({ uuid, at }) {
        const m = await loadMomentum(uuid);
        if (m?.status !== 'Active' || compileStored(m).finishAt?.toISOString() !== new Date(at).toISOString()) return;
        if (await tooEarly('momentum.finish', uuid, at)) return;
        await q.finishActive(db, uuid, clock.now());
        await momentumChanged(uuid);
      },
    }),
    defineJob({
      name: 'campaign.fanout',
      payload: momentumRef,
      async handler({ uuid, at }) {
        const m = await loadMomentum(uuid);
        if (m?.status !== 'Active' || m.activated_at?.toISOString() !== at) return;
        // One occurrence per campaign: resuming a paused campaign reaches only those it has not reached yet.
        await fanOut(m, 'c', new Date(at));
        // Send the winner: the test share went out; the decision comes `hours` later (a resumed campaign, `hours`
        // after it resumed). Once decided, a resumed campaign's fan-out above reached the rest with the winner.
        const test = winnerTest(m);
        if (test && !decidedWinner(m.experiment_decision)) {
          const plannedAt = new Date(new Date(at).getTime() + test.winner.hours * 3_600_000);
          await wq.planDecision(db, uuid, plannedAt);
          await schedule.decision(uuid, plannedAt);
        }
      },
    }),
    defineJob({
      name: 'experiment.decide',
      payload: momentumRef,
      /**
       * Send the winner's decision: each variant's rate on the metric over the test (winner-decision.ts), the best
       * one (a tie: the first), stored once on the momentum, then the rest of the audience fanned out with it. A
       * campaign paused or removed meanwhile decides nothing (resumed, its fan-out plans the decision again). Safe
       * to run twice: a decision taken is not taken again, and the rest's fan-out is deduplicated.
       */
      async handler({ uuid, at }) {
        let m = await loadMomentum(uuid);
        if (m?.status !== 'Active') return;
        const test = winnerTest(m);
        // Only the decision planned last (a resumed campaign planned a later one).
        if (!test || storedDecision(m.experiment_decision)?.planned_at !== at) return;
        if (!decidedWinner(m.experiment_decision)) {
          if (await tooEarly('experiment.decide', uuid, at)) return;
          const { metric } = test.winner;
          const rates = variantRates(test.experiment.variants, await wq.armCounters(db, uuid), metric);
          const decidedAt = clock.now();
          await wq.storeDecision(db, uuid, {
            decided_at: decidedAt.toISOString(),
            metric,
            winner: pickWinner(rates),
            rates,
          });
          m = await loadMomentum(uuid);
        }
        const decided = m && decidedWinner(m.experiment_decision);
        if (!m || !decided) return;
        await fanOut(m, 'c', decided.decidedAt);
        await wq.storeRestCount(db, uuid, decided.decidedAt);
      },
    }),
    defineJob({
      name: 'recurrence.tick',
      payload: momentumRef,
      async handler({ uuid, at }) {
        const m = await loadMomentum(uuid);
        if (m?.status !== 'Active') return;
        const compiled = compileStored(m);
        if (!compiled.recurrence) return;
        const when = new Date(at);
        if (await tooEarly('recurrence.tick', uuid, at)) return;
        if (!compiled.finishAt || when < compiled.finishAt) await fanOut(m, `r${at}`, when);
        await schedule.nextRecurrence(m, compiled, when);
      },
    }),
  ];
}

/**
 * Runs now, on this process's clock, the timed jobs whose instant has come (what the demonstration clock does before
 * it moves), and removes each one that ran from pg-boss. Left waiting, a ran job ran again at every later move (its
 * instant stays past): a recurrence's old occurrence then reached whoever had joined since, days late. pg-boss may
 * run the same job meanwhile: every handler is safe to run twice.
 */
export async function runDueTimedJobs(ctx: Pick<AppContext, 'clock' | 'log'>, jobs: JobRunner) {
  const now = ctx.clock.now();
  const names = new Set<string>(TIMED_JOB_NAMES);
  for (const job of await jobs.waiting()) {
    if (!names.has(job.name) || typeof job.data.at !== 'string' || new Date(job.data.at) > now) continue;
    try {
      await jobs.run(job.name, job.data);
      await jobs.discard(job.name, job.id);
    } catch (err) {
      ctx.log.error({ err, job: job.name }, 'job adiantado falhou');
    }
  }
}
