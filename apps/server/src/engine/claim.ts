import type { AppContext } from '../lib/context.ts';
import * as q from './deliveries.queries.ts';

/** Deliveries this worker took from the send queue, under a lease renewed until `release`. */
export interface Claim {
  deliveries: q.ClaimedDelivery[];
  /** The batch is recorded: stop renewing its lease. */
  release(): void;
}

/**
 * The claim stage: takes up to `batchSize` deliveries due at `now` (queued → sending, SKIP LOCKED) or answers null
 * when none is due. A slow batch (push services timing out) keeps its lease, so no sweeper hands it to another worker.
 */
export async function claimBatch(
  ctx: Pick<AppContext, 'db' | 'clock' | 'log' | 'config'>,
  now: Date,
  batchSize: number,
): Promise<Claim | null> {
  const { db, clock, log } = ctx;
  const deliveries = await q.claimDue(db, now, batchSize);
  if (deliveries.length === 0) return null;
  const renewal = setInterval(
    () =>
      void q
        .renewLease(
          db,
          deliveries.map((c) => c.id),
          clock.now(),
        )
        .catch((err) => log.warn({ err }, 'renovação do lease falhou')),
    (ctx.config.deliveryLeaseSeconds * 1000) / 3,
  );
  return { deliveries, release: () => clearInterval(renewal) };
}
