import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';

/*
 * aes128gcm encryption (RFC 8291: an ephemeral P-256 key pair and an ECDH per message) is the largest CPU cost of
 * a push, about half of it. A campaign's sends are encrypted in worker threads so the event loop keeps posting
 * and recording; jobs travel in batches (one message per tick) to keep the hand-off cheap. The encryption itself
 * is aes128gcm.cjs, plain JavaScript that both the threads and the event loop load.
 */

const aes128gcmPath = createRequire(import.meta.url).resolve('./aes128gcm.cjs');
const aes128gcm = createRequire(import.meta.url)(aes128gcmPath) as typeof import('./aes128gcm.cjs');

interface Job {
  p256dh: string;
  auth: string;
  plain: Buffer;
}

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { encrypt } = require(${JSON.stringify(aes128gcmPath)});
parentPort.on('message', ({ batch, jobs }) => {
  const out = jobs.map((j) => {
    try {
      return { ok: encrypt(j.p256dh, j.auth, j.plain) };
    } catch (err) {
      return { error: String(err && err.message) };
    }
  });
  parentPort.postMessage({ batch, out });
});`;

export interface EncryptPool {
  encrypt(p256dh: string, auth: string, plain: Buffer): Promise<Buffer>;
  close(): Promise<void>;
}

/** Encrypts in this thread (threads = 0) or in a small pool (default: one thread per spare core, at most 4). */
export function createEncryptPool(threads = Math.max(0, Math.min(4, os.availableParallelism() - 1))): EncryptPool {
  if (threads === 0) {
    return {
      encrypt: async (p256dh, auth, plain) => aes128gcm.encrypt(p256dh, auth, plain),
      close: async () => {},
    };
  }
  type Waiter = { resolve: (b: Buffer) => void; reject: (e: Error) => void };
  const workers = Array.from({ length: threads }, () => {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    return { worker, inFlight: 0 };
  });
  const batches = new Map<number, Waiter[]>();
  let nextBatch = 0;
  let pending: { job: Job; waiter: Waiter }[] = [];
  let scheduled = false;

  for (const w of workers) {
    w.worker.on('message', ({ batch, out }: { batch: number; out: { ok?: Uint8Array; error?: string }[] }) => {
      const waiters = batches.get(batch) ?? [];
      batches.delete(batch);
      w.inFlight -= waiters.length;
      out.forEach((r, i) => {
        // A view of the bytes the thread sent, not a copy.
        if (r.ok) waiters[i]?.resolve(Buffer.from(r.ok.buffer, r.ok.byteOffset, r.ok.byteLength));
        else waiters[i]?.reject(new Error(r.error ?? 'encrypt'));
      });
    });
  }

  const flush = () => {
    scheduled = false;
    const list = pending;
    pending = [];
    const target = workers.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    const batch = nextBatch++;
    batches.set(
      batch,
      list.map((p) => p.waiter),
    );
    target.inFlight += list.length;
    target.worker.postMessage({ batch, jobs: list.map((p) => p.job) });
  };

  return {
    encrypt(p256dh, auth, plain) {
      return new Promise<Buffer>((resolve, reject) => {
        pending.push({ job: { p256dh, auth, plain }, waiter: { resolve, reject } });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    async close() {
      await Promise.all(workers.map((w) => w.worker.terminate()));
      for (const waiters of batches.values()) for (const w of waiters) w.reject(new Error('pool closed'));
      batches.clear();
    },
  };
}
