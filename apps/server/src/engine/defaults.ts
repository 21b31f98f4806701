/**
 * The engine's sizes, in one place: config.ts's defaults (ENGINE_BATCH_SIZE, ENGINE_CONCURRENCY), createEngine's
 * fallbacks and bench:engine's report read them. 160 sends in flight keep the encryption thread fed while the event
 * loop, a campaign's bottleneck, posts and records (bench/RESULTS.md: 100,000 pushes in 30.2 s against 33.3 s at 64
 * on a 2-core box).
 */
export const ENGINE_DEFAULTS = {
  /** Deliveries one send pass claims at once. */
  batchSize: 500,
  /** Sends in flight per pass. */
  concurrency: 160,
} as const;

/** Send passes that overlap in a worker process (SKIP LOCKED keeps their claims apart). */
export const SEND_PASSES = 2;

/** Persons per page of a campaign's (or a recurrence's) fan-out. */
export const FANOUT_PAGE = 1000;
