import type { AppContext } from '../lib/context.ts';
import type { createBatchLoader } from './batch-context.ts';
import { claimBatch } from './claim.ts';
import { deliver, type PassState, type SendEnv } from './deliver.ts';
import * as q from './deliveries.queries.ts';
import { createOutcomeRecorder } from './outcome-recorder.ts';

async function mapLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const run = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, run));
}

/**
 * One send pass: claim what is due (claim.ts), load what its deliveries need (batch-context.ts), send them
 * `concurrency` at a time (deliver.ts) while their outcomes are written (outcome-recorder.ts), then opt out the gone
 * push subscriptions and mark the refused channels. Answers how many deliveries it handled.
 */
export function createSendPass(
  ctx: Pick<AppContext, 'db' | 'clock' | 'log' | 'config'>,
  deps: {
    env: SendEnv;
    loadBatch: ReturnType<typeof createBatchLoader>;
    batchSize: number;
    concurrency: number;
  },
) {
  const { db, clock, log } = ctx;
  const uniq = <T>(list: T[]) => [...new Set(list)];

  return async function sendPass(): Promise<number> {
    const now = clock.now();
    const claim = await claimBatch(ctx, now, deps.batchSize);
    if (!claim) return 0;
    try {
      const claimed = claim.deliveries;
      const pass: PassState = {
        now,
        batch: await deps.loadBatch(claimed),
        recorder: createOutcomeRecorder(ctx),
        gone: [],
        refused: new Map(),
      };
      await mapLimit(claimed, deps.concurrency, (d) => deliver(deps.env, pass, d));
      await pass.recorder.finish();
      if (pass.gone.length) await q.markPushGone(db, uniq(pass.gone), clock.now());
      for (const [uuid, reason] of pass.refused) {
        await q.markChannelRefused(db, uuid, reason, clock.now());
        log.warn({ channel: uuid, reason }, 'credenciais do canal recusadas pelo provedor');
      }
      return claimed.length;
    } finally {
      claim.release();
    }
  };
}
