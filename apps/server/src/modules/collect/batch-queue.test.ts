import type { CollectEvent } from '@impeto/shared';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../lib/context.ts';
import { createBatchQueue } from './batch-queue.ts';
import type { Batch, IncomingRequest } from './incoming.ts';

/*
 * Batch assembly alone, without a database: what reaches `store`, when, and how many at once. The whole collector
 * (spool, overflow to disk) is tested through the app in spool.test.ts.
 */

const log = pino({ level: 'silent' }) as unknown as AppContext['log'];

const request = (events: number, visitorId = 'ana'): IncomingRequest => ({
  domainUuid: '6f1c2b1e-5d8a-4c7e-9a31-2b8f0d4e6a10',
  visitorId,
  device: { device: 'desktop', mobile: false },
  geo: {},
  receivedAt: new Date('2026-11-23T12:00:00.000Z'),
  events: Array.from({ length: events }, (): CollectEvent => ({ t: 'pv', u: 'https://loja.com.br/' })),
});

/** A store whose batches finish when the test says so. */
const heldStore = () => {
  const batches: Batch[] = [];
  const pending: (() => void)[] = [];
  let running = 0;
  let mostAtOnce = 0;
  return {
    batches,
    mostAtOnce: () => mostAtOnce,
    finishAll() {
      for (const finish of pending.splice(0)) finish();
    },
    store: (batch: Batch) => {
      batches.push(batch);
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      return new Promise<number>((resolve) =>
        pending.push(() => {
          running--;
          resolve(batch.events);
        }),
      );
    },
  };
};

const queueWith = (
  store: (batch: Batch) => Promise<number>,
  limits: { maxQueued?: number; maxInFlight?: number } = {},
) =>
  createBatchQueue({
    log,
    spool: undefined,
    maxQueued: limits.maxQueued ?? 50_000,
    maxDeferredBytes: 0,
    maxInFlight: limits.maxInFlight ?? 1,
    store,
  });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('batch assembly', () => {
  it('stores the requests of one short moment together, in the order they came', async () => {
    const held = heldStore();
    const queue = queueWith(held.store);
    expect(queue.push(request(2, 'ana'))).toBe(true);
    expect(queue.push(request(1, 'bia'))).toBe(true);
    expect(held.batches).toHaveLength(0);
    await sleep(120);
    expect(held.batches).toHaveLength(1);
    expect(held.batches[0]!.events).toBe(3);
    expect(held.batches[0]!.requests.map((r) => r.visitorId)).toEqual(['ana', 'bia']);
    held.finishAll();
    await queue.drain();
  });

  it('seals a batch at once when it reaches 5,000 events, without waiting for the timer', async () => {
    const held = heldStore();
    const queue = queueWith(held.store);
    queue.push(request(4999));
    expect(held.batches).toHaveLength(0);
    queue.push(request(1));
    expect(held.batches.map((b) => b.events)).toEqual([5000]);
    held.finishAll();
    await queue.drain();
  });

  it('says no when memory is full and there is no spool, and yes again once the batch is stored', async () => {
    const held = heldStore();
    const queue = queueWith(held.store, { maxQueued: 10 });
    expect(queue.push(request(6))).toBe(true);
    expect(queue.push(request(5))).toBe(false);
    expect(queue.push(request(4))).toBe(true);
    const drained = queue.drain();
    expect(queue.push(request(1))).toBe(false);
    held.finishAll();
    await drained;
    expect(queue.push(request(10))).toBe(true);
    const last = queue.drain();
    held.finishAll();
    await last;
    expect(held.batches.map((b) => b.events)).toEqual([10, 10]);
  });

  it('stores no more batches at once than the database takes', async () => {
    const held = heldStore();
    const queue = queueWith(held.store, { maxInFlight: 2 });
    for (let i = 0; i < 5; i++) queue.push(request(5000));
    expect(held.batches).toHaveLength(2);
    const drained = queue.drain();
    for (let turn = 0; turn < 100 && held.batches.length < 5; turn++) {
      held.finishAll();
      await sleep(1);
    }
    held.finishAll();
    await drained;
    expect(held.mostAtOnce()).toBe(2);
    expect(held.batches).toHaveLength(5);
  });

  it('counts a batch stored beside the queue (a replay) as held in memory until it is stored', async () => {
    const held = heldStore();
    const queue = queueWith(held.store, { maxQueued: 10 });
    const replayed = queue.storeNow({ requests: [request(8)], events: 8 });
    expect(queue.push(request(5))).toBe(false);
    held.finishAll();
    expect(await replayed).toBe(8);
    expect(queue.push(request(5))).toBe(true);
    const drained = queue.drain();
    held.finishAll();
    await drained;
  });
});
