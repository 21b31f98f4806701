import type { ChannelAdapter } from '../channels/channel.ts';
import type { AppContext, EngineHooks } from '../lib/context.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { createBatchLoader } from './batch-context.ts';
import { ENGINE_DEFAULTS } from './defaults.ts';
import * as q from './deliveries.queries.ts';
import { createFanOut } from './fan-out.ts';
import { createJobRunner, type JobDefinition, type JobRunner } from './jobs.ts';
import { createJourneys } from './journey.ts';
import type { StoredEvent } from './matcher.ts';
import { createMatcherCache } from './matcher-cache.ts';
import { createMatching } from './matching.ts';
import { createMomentumLifecycle } from './momentum-lifecycle.ts';
import { createNotifyListener } from './notify-listener.ts';
import { createSendLoop } from './send-loop.ts';
import { createSendPass } from './send-pass.ts';
import { createSweeper } from './sweeper.ts';
import { createTimedSchedule, defineTimedJobs, runDueTimedJobs } from './timed-jobs.ts';

export { engineMessages } from './messages.ts';

/*
 * The engine (DESIGN.md §5, §10), wired from its stages. Matching runs where events are stored (api role):
 * matching.ts, through the matcher cache and qualify.ts / timing.ts. Sending runs in the worker role: send-loop.ts
 * runs send passes (send-pass.ts: claim.ts → batch-context.ts → deliver.ts → outcome-recorder.ts) and sweeper.ts hands
 * back what a dead worker left. The deliveries table is the send queue; pg-boss runs the timed work (timed-jobs.ts:
 * scheduled activation, finish, campaign fan-out (fan-out.ts) and recurrence ticks), scheduled by
 * momentum-lifecycle.ts when a momentum changes.
 */

export interface EngineOptions {
  adapters: ChannelAdapter[];
  /** Run pg-boss workers and the send loop in this process (worker and all roles). Tests drive it by hand. */
  work: boolean;
  /** Deliveries claimed per pass, and sends in flight (defaults.ts). */
  batchSize?: number;
  concurrency?: number;
  /** Jobs of other modules run by the same pg-boss (the retention purge). */
  jobs?: JobDefinition[];
}

export interface Engine extends EngineHooks {
  onEventsStored(events: StoredEvent[]): Promise<void>;
  /**
   * One send pass: advances the journey positions due (issue #26), then claims the deliveries due, sends them,
   * records them. Answers how many positions and deliveries it handled.
   */
  dispatchDue(): Promise<number>;
  /** Hands back deliveries stuck in `sending` past the lease (a worker died between send and record). */
  sweep(): Promise<number>;
  /**
   * Runs now, on this process's clock, the timed jobs whose instant has come (activation, finish, fan-out,
   * recurrence) and sends every delivery due: what the demonstration clock does before it moves.
   */
  settle(): Promise<void>;
  jobs: JobRunner;
  /** A visitor's on-site messages, taken once. */
  takeOnsite(domainUuid: string, visitorId: string): Promise<unknown[]>;
  /** Cheap hint: did this process queue an on-site message for the visitor that may still be waiting? */
  mayHaveOnsite(domainUuid: string, visitorId: string): boolean;
  /** The on-site adapter queued a message for this visitor. */
  noteOnsite(domainUuid: string, visitorId: string): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createEngine(ctx: AppContext, options: EngineOptions): Engine {
  const { db, clock } = ctx;
  const adapters = new Map(options.adapters.map((a) => [a.type, a]));
  const onsiteHint = new Set<string>();

  const matchers = createMatcherCache(ctx);
  const sendPass = createSendPass(ctx, {
    env: { ctx, adapters },
    loadBatch: createBatchLoader(ctx, createSecretBox(ctx.config.secretKey)),
    batchSize: options.batchSize ?? ENGINE_DEFAULTS.batchSize,
    concurrency: options.concurrency ?? ENGINE_DEFAULTS.concurrency,
  });
  const sendLoop = createSendLoop(ctx, sendPass);
  // Journeys (journey.ts) advance in passes of their own loop, beside the send loop's (which they wake when a step's
  // message is inserted): a pass deciding positions never holds back one sending.
  const journeyLoop = createSendLoop(
    ctx,
    createJourneys(ctx, { wake: sendLoop.wake, batchSize: options.batchSize ?? ENGINE_DEFAULTS.batchSize }),
  );
  const sweeper = createSweeper(ctx, { wake: sendLoop.wake });
  const onEventsStored = createMatching(ctx, { matchers, wake: sendLoop.wake });
  const fanOut = createFanOut(ctx, { wake: sendLoop.wake });

  // The timed jobs and the lifecycle schedule each other: the schedule sends through the runner made from them.
  const schedule = createTimedSchedule((name, data, opts) => jobs.send(name, data, opts));
  const momentumChanged = createMomentumLifecycle(ctx, { matchers, schedule });
  const timedJobs = defineTimedJobs(ctx, { schedule, fanOut, momentumChanged });
  const jobs = createJobRunner(ctx, [...timedJobs, ...(options.jobs ?? [])]);

  const listener = createNotifyListener(ctx, {
    momentumChanged: (domainUuid) => matchers.invalidate(domainUuid),
    deliveriesDue: sendLoop.wake,
    reconnected() {
      matchers.invalidate();
      sendLoop.wake();
    },
  });

  return {
    momentumChanged,
    onEventsStored,
    dispatchDue: async () => (await journeyLoop.dispatchDue()) + (await sendLoop.dispatchDue()),
    sweep: sweeper.sweep,
    async settle() {
      await runDueTimedJobs(ctx, jobs);
      await journeyLoop.drain();
      await sendLoop.drain();
    },
    jobs,
    async takeOnsite(domainUuid, visitorId) {
      onsiteHint.delete(`${domainUuid}|${visitorId}`);
      return q.takeOnsite(db, domainUuid, visitorId, clock.now());
    },
    mayHaveOnsite: (domainUuid, visitorId) => onsiteHint.has(`${domainUuid}|${visitorId}`),
    noteOnsite(domainUuid, visitorId) {
      if (onsiteHint.size > 100_000) onsiteHint.clear();
      onsiteHint.add(`${domainUuid}|${visitorId}`);
    },
    async start() {
      await listener.start();
      await jobs.start(options.work);
      if (!options.work) return;
      sendLoop.start();
      journeyLoop.start();
      await sweeper.start();
    },
    async stop() {
      sweeper.stop();
      await journeyLoop.stop();
      await sendLoop.stop();
      await jobs.stop();
      await listener.stop();
      for (const a of adapters.values()) await a.close?.();
    },
  };
}
