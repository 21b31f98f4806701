import type { AppContext } from '../lib/context.ts';
import * as q from './deliveries.queries.ts';
import { requeueStalePositions } from './journey.queries.ts';

const SWEEP_EVERY_MS = 10_000;

/**
 * The sweeper: hands back to the queue deliveries stuck in `sending` past the lease (a worker died between send and
 * record; the one at-least-once window, DESIGN.md §10), every SWEEP_EVERY_MS in the worker role.
 */
export function createSweeper(ctx: Pick<AppContext, 'db' | 'clock' | 'log' | 'config'>, deps: { wake: () => void }) {
  const { db, clock, log } = ctx;
  let timer: NodeJS.Timeout | undefined;

  const sweep = async () => {
    const n = await q.requeueStale(db, clock.now(), ctx.config.deliveryLeaseSeconds);
    // Journey positions (issue #26) are held under the same lease.
    const positions = await requeueStalePositions(db, clock.now(), ctx.config.deliveryLeaseSeconds);
    if (positions) {
      log.warn({ positions }, 'posições de jornada presas devolvidas');
      deps.wake();
    }
    if (n) {
      log.warn({ deliveries: n }, 'entregas presas em envio devolvidas à fila');
      deps.wake();
    }
    return n;
  };

  return {
    sweep,
    /** Sweeps every SWEEP_EVERY_MS, and once now. */
    async start() {
      timer = setInterval(() => void sweep().catch((err) => log.error({ err }, 'sweeper')), SWEEP_EVERY_MS);
      await sweep();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
