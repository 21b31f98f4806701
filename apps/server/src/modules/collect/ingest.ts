import type { AppContext } from '../../lib/context.ts';
import { createForgottenMarks } from './batch-marks.ts';
import { createBatchQueue } from './batch-queue.ts';
import { createHandOver, type OnStored } from './hand-over.ts';
import { createQuarantine } from './quarantine.ts';
import { replayDeadSegments } from './replay.ts';
import { createSplitter } from './split-refused.ts';
import type { Spool } from './spool.ts';
import { createBatchStore } from './store-batch.ts';
import { createTransactor } from './transact.ts';
import { createBatchWriter } from './write-batch.ts';

export type { IncomingEvent, IncomingRequest } from './incoming.ts';
export { requestAttributes } from './person-upsert.ts';

/** Events held in memory waiting for the database; past it requests go to the spool only (or 503 without one). */
export const MAX_QUEUED_EVENTS = 50_000;
/** Spool bytes kept on disk only (memory full); past it the collector answers 503. */
export const MAX_DEFERRED_BYTES = 1024 * 1024 * 1024;

/**
 * Accept fast, process later (STYLE.md rule 5): the collector answers 202 and hands events here; they are written in
 * batches off the request path. This factory only wires the stages (README.md in this folder draws the pipeline):
 * batch assembly (batch-queue.ts) → one transaction per batch (store-batch.ts, transact.ts, batch-marks.ts) that
 * writes it (write-batch.ts: persons, events, GCD counters, push states, catalogue, rollups) → hand-over to the
 * engine (hand-over.ts) → spool segment removed; a refused batch is split and its bad request quarantined
 * (split-refused.ts, quarantine.ts); dead processes' segments are replayed at start (replay.ts).
 */
export function createIngestor(
  ctx: AppContext,
  options: {
    timeZone?: string;
    /** Called with each batch's events once its transaction committed (the engine matches them). */
    onStored?: OnStored;
    /** Where accepted requests are written before the 202 (crash safety); none: memory only. */
    spool?: Spool;
    /** Events held in memory (default MAX_QUEUED_EVENTS). */
    maxQueued?: number;
    /** Bytes of requests kept on disk only when memory is full (default MAX_DEFERRED_BYTES; needs a spool). */
    maxDeferredBytes?: number;
  } = {},
) {
  const spool = options.spool;
  const transactor = createTransactor(ctx);
  const transact = transactor.transact;
  const write = createBatchWriter({ timeZone: options.timeZone });
  const handOver = createHandOver(ctx, options.onStored);
  const quarantine = createQuarantine(ctx, spool);
  const storeSplit = createSplitter(ctx, {
    transact,
    write,
    storedAgain: handOver.storedAgain,
    quarantine: quarantine.put,
  });
  const batches = createBatchStore(ctx, {
    spool,
    transact,
    write,
    forgotten: createForgottenMarks(),
    handOver,
    storeSplit,
  });
  const queue = createBatchQueue({
    log: ctx.log,
    spool,
    maxQueued: options.maxQueued ?? MAX_QUEUED_EVENTS,
    maxDeferredBytes: options.maxDeferredBytes ?? MAX_DEFERRED_BYTES,
    // PostgreSQL takes a few batches at once (each in its own transaction); PGlite is one connection.
    maxInFlight: ctx.database.kind === 'postgres' ? 3 : 1,
    store: batches.store,
  });
  let recovering: Promise<number> = Promise.resolve(0);

  /** Writes everything queued and waits for it (tests, shutdown). */
  const drain = async () => {
    await recovering;
    await queue.drain();
  };

  return {
    /**
     * Takes one request's events. False when the queue is full or the spool refused the write: the caller
     * answers 503 and the sender may retry. Once this returns true the events survive a crash of the process.
     */
    push: queue.push,
    /**
     * Resolves once the requests pushed so far are in the spool's files (written together, once per turn of the
     * event loop): the collector answers 202 after it. A disk that refuses the write is logged; the events stay
     * accepted in memory (answering 503 for events that will be stored would make senders send them twice).
     */
    async durable() {
      try {
        await spool?.committed();
      } catch (err) {
        ctx.log.error({ err }, 'coletor: falha ao gravar no spool; os eventos aceitos seguem só em memória');
      }
    },
    /** Starts replaying what dead processes left in the spool; `drain` waits for it. */
    recover() {
      recovering = replayDeadSegments(ctx, spool, queue.storeNow).catch((err) => {
        ctx.log.error({ err }, 'coletor: falha ao regravar o spool');
        return 0;
      });
      return recovering;
    },
    drain,
    /** Drains, then closes the spool (its folder goes when empty); a database still away leaves batches in it. */
    async close() {
      transactor.close();
      await drain();
      spool?.close();
    },
    /** Events written so far (benchmarks check nothing was lost). */
    stored: batches.stored,
    /** Events of requests the database refused, kept in the spool's quarantine folder instead. */
    quarantined: quarantine.count,
    /** Times the database went away (a restart) while batches waited, whether it is away now, the last one's length. */
    outages: transactor.outages,
  };
}
export type Ingestor = ReturnType<typeof createIngestor>;
