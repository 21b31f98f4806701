import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows } from '../../db/client.ts';
import { dropExpiredEventPartitions, ensureEventPartitions } from '../../db/partitions.ts';
import { defineJob, type JobRunner } from '../../engine/jobs.ts';
import type { AppContext } from '../../lib/context.ts';

/** Rows one DELETE removes: short statements keep locks and WAL bursts small next to the collector's inserts. */
export const RETENTION_BATCH_ROWS = 5000;
/** Pause between two statements, so the purge of a large backlog leaves the database to the collector most of the time. */
export const RETENTION_PAUSE_MS = 200;
/** How long an erasure's hash is kept (longer than any spool waits for a restart). */
export const ERASURE_MEMORY_DAYS = 30;
/** The daily run, at 06:00 UTC (03:00 in São Paulo, the quietest hour of Brazilian sites). */
const RUN_HOUR_UTC = 6;

export interface PurgeOptions {
  batchRows?: number;
  pauseMs?: number;
  /** Called after each statement with the rows it removed (tests check batches are bounded; the bench counts). */
  onBatch?: (domainUuid: string, deleted: number) => void;
}

/**
 * Removes, for every domain, the events older than its retention (domains.retention_months): first whole months
 * (partitions) no domain keeps anything of are dropped, then what is left past each domain's cutoff (the part of a
 * month before it, or months a longer retention keeps for other domains) is deleted oldest first, in statements of
 * at most `batchRows` rows with a pause between them; those statements read only the partitions before the cutoff.
 * Rollups stay (they hold counts, not people). Also forgets erasures older than ERASURE_MEMORY_DAYS. Safe to run
 * twice and to interrupt.
 */
export async function purgeExpiredEvents(ctx: AppContext, options: PurgeOptions = {}) {
  const batchRows = options.batchRows ?? RETENTION_BATCH_ROWS;
  const pauseMs = options.pauseMs ?? RETENTION_PAUSE_MS;
  const now = ctx.clock.now();
  const domains = await queryRows<{ uuid: string; cutoff: Date | string }>(
    ctx.db,
    sql`SELECT uuid, (${now}::timestamptz - make_interval(months => retention_months::int)) AS cutoff FROM domains`,
  );
  const droppedMonths = await dropExpiredEventPartitions(
    ctx.db,
    domains.map((d) => ({ uuid: d.uuid, cutoff: new Date(d.cutoff) })),
    now,
    (name, reason) => ctx.log.warn({ partition: name, reason }, 'retenção: mês não removido agora'),
  );
  let deleted = 0;
  let statements = 0;
  for (const d of domains) {
    for (;;) {
      if (statements > 0 && pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
      const [row] = await queryRows<{ n: number }>(
        ctx.db,
        sql`WITH gone AS (
              DELETE FROM events WHERE id IN (
                SELECT id FROM events WHERE domain_uuid = ${d.uuid}::uuid AND ts < ${new Date(d.cutoff)}
                ORDER BY ts LIMIT ${batchRows})
              RETURNING 1)
            SELECT count(*)::int AS n FROM gone`,
      );
      const n = row?.n ?? 0;
      statements++;
      deleted += n;
      options.onBatch?.(d.uuid, n);
      if (n < batchRows) break;
    }
  }
  await ctx.db.execute(
    sql`DELETE FROM person_erasures WHERE erased_at < ${new Date(now.getTime() - ERASURE_MEMORY_DAYS * 86_400_000)}`,
  );
  return { domains: domains.length, droppedMonths, deleted, statements };
}

/** The next daily run after `after`. */
export const nextRetentionRun = (after: Date) => {
  const next = new Date(after);
  next.setUTCHours(RUN_HOUR_UTC, 0, 0, 0);
  if (next <= after) next.setUTCDate(next.getUTCDate() + 1);
  return next;
};

/**
 * The daily `retention.purge` job: creates the events partitions of the coming months, purges, then schedules the
 * next day's run (one waiting job per day: many worker processes scheduling the same day is a no-op).
 */
export function createRetention(ctx: AppContext, jobs: () => JobRunner) {
  const ensureMonths = async () => {
    const created = await ensureEventPartitions(ctx.db, ctx.clock.now());
    if (created.length) ctx.log.info({ created }, 'retenção: partições de eventos criadas');
  };
  const schedule = async (after: Date) => {
    const at = nextRetentionRun(after).toISOString();
    await jobs().send('retention.purge', { at }, { startAfter: new Date(at), key: `retention:${at}` });
  };
  const job = defineJob({
    name: 'retention.purge',
    payload: z.object({ at: z.iso.datetime() }),
    async handler({ at }) {
      await ensureMonths();
      const result = await purgeExpiredEvents(ctx);
      ctx.log.info(result, 'retenção: eventos antigos removidos');
      await schedule(new Date(Math.max(new Date(at).getTime(), ctx.clock.now().getTime())));
    },
  });
  return {
    job,
    schedule: async () => {
      await ensureMonths();
      await schedule(ctx.clock.now());
    },
  };
}
