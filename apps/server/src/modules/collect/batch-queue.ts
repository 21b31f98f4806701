import type { AppContext } from '../../lib/context.ts';
import { type Batch, eventCount, type IncomingRequest, requestsInSegment } from './incoming.ts';
import type { Spool, SpoolSegment } from './spool.ts';

/** A batch is sealed at this many events, or FLUSH_MS after its first request. */
const FLUSH_EVENTS = 5000;
const FLUSH_MS = 50;

/**
 * Batch assembly: accepted requests gather in memory (and in the spool's open segment) until FLUSH_EVENTS or
 * FLUSH_MS, then one batch goes to `store`, at most `maxInFlight` at a time. Past `maxQueued` events held in
 * memory, requests go to the spool's overflow segment only; each sealed overflow segment is one batch, read back
 * from disk when a writer is free and nothing in memory waits, up to `maxDeferredBytes` on disk.
 */
export function createBatchQueue(options: {
  log: AppContext['log'];
  spool: Spool | undefined;
  maxQueued: number;
  maxDeferredBytes: number;
  maxInFlight: number;
  /** Stores one batch; resolves with the events stored now. */
  store: (batch: Batch) => Promise<number>;
}) {
  const { log, spool, maxQueued, maxDeferredBytes, maxInFlight, store } = options;
  /** Requests accepted since the last flush (one batch, one spool segment). */
  let queue: IncomingRequest[] = [];
  let queueEvents = 0;
  /** Events in memory: queued, waiting or being stored. */
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<unknown>>();
  const waiting: Batch[] = [];
  const deferred: { segment: SpoolSegment; bytes: number }[] = [];
  let overflowBytes = 0;
  let overflowEvents = 0;
  let deferredBytes = 0;

  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      flush();
    }, FLUSH_MS);
  };

  /** Moves the overflow segment, when it has lines, to the batches waiting on disk. */
  const sealOverflow = () => {
    const segment = spool?.sealDeferred();
    if (segment) deferred.push({ segment, bytes: overflowBytes });
    overflowBytes = 0;
    overflowEvents = 0;
  };

  /** Reads the oldest batch kept on disk into memory (its segment stays its identity). */
  const loadDeferred = () => {
    const { segment, bytes } = deferred.shift()!;
    deferredBytes -= bytes;
    const requests = requestsInSegment(log, spool!, segment);
    if (!requests) return;
    const events = eventCount(requests);
    queued += events;
    waiting.push({ requests, events, segment });
  };

  const pump = () => {
    while (inFlight.size < maxInFlight && (waiting.length || deferred.length)) {
      if (!waiting.length) {
        loadDeferred();
        continue;
      }
      const batch = waiting.shift()!;
      const job = store(batch)
        .catch((err) => log.error({ err }, 'coletor: falha inesperada ao gravar lote'))
        .finally(() => {
          queued -= batch.events;
          inFlight.delete(job);
          pump();
        });
      inFlight.add(job);
    }
  };

  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (queue.length) {
      waiting.push({ requests: queue, events: queueEvents, segment: spool?.seal() });
      queue = [];
      queueEvents = 0;
    }
    if (overflowEvents) sealOverflow();
    pump();
  };

  return {
    /**
     * Takes one request. False when memory is full and the spool cannot keep it (none, its limit, a write refused):
     * the collector answers 503. Once this returns true the request is in the spool (when there is one).
     */
    push(request: IncomingRequest) {
      const n = request.events.length;
      if (queued + n > maxQueued) {
        // Memory is full: keep the request on disk only, up to the spool's limit.
        if (!spool) return false;
        const line = JSON.stringify(request);
        const bytes = Buffer.byteLength(line) + 1;
        if (deferredBytes + bytes > maxDeferredBytes) return false;
        try {
          spool.defer(line);
        } catch (err) {
          log.error({ err }, 'coletor: falha ao gravar no spool');
          return false;
        }
        deferredBytes += bytes;
        overflowBytes += bytes;
        overflowEvents += n;
        if (overflowEvents >= FLUSH_EVENTS) sealOverflow();
        schedule();
        return true;
      }
      if (spool) {
        try {
          spool.append(JSON.stringify(request));
        } catch (err) {
          log.error({ err }, 'coletor: falha ao gravar no spool');
          return false;
        }
      }
      queued += n;
      queue.push(request);
      queueEvents += n;
      if (queueEvents >= FLUSH_EVENTS) flush();
      else schedule();
      return true;
    },
    /** Stores a batch at once, beside the writers (the replay at start), its events counted as held meanwhile. */
    storeNow(batch: Batch) {
      queued += batch.events;
      return store(batch).finally(() => {
        queued -= batch.events;
      });
    },
    /** Seals the open batch and waits until nothing is queued, waiting or being stored. */
    async drain() {
      flush();
      while (inFlight.size || waiting.length || deferred.length) {
        pump();
        await Promise.all([...inFlight]);
      }
    },
  };
}
export type BatchQueue = ReturnType<typeof createBatchQueue>;
