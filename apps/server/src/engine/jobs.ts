import { sql } from 'drizzle-orm';
import { fromPglite, PgBoss } from 'pg-boss';
import type { z } from 'zod';
import { type Database, queryRows } from '../db/client.ts';
import type { AppContext } from '../lib/context.ts';

/** A job: a dotted name, a zod payload and a handler safe to run twice (STYLE.md rule 6). */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
  handler: (data: z.output<S>) => Promise<void>;
}

export const defineJob = <S extends z.ZodType>(job: JobDefinition<S>) => job;

/** pg-boss's own default: how long a job may wait past its instant before its maintenance deletes it. */
const KEEP_WAITING_SECONDS = 14 * 86_400;

/**
 * pg-boss keeps a waiting job until `startAfter` plus its retention, on the database's clock, and its maintenance
 * (a minute after start, then daily) deletes it past that, never run. Our instants are on our clock, which the
 * demonstration clock puts weeks behind the database's: a recurrence tick for an instant more than 14 days back was
 * born expired and deleted before its instant came, and the ticks after it (each tick schedules the next) never
 * were (issue #29: the demo's weekly momentum sent on its first Tuesday only). A job is therefore kept 14 days past
 * the later of its instant and the real now.
 */
const keepWaitingSeconds = (startAfter: Date | undefined, realNow = Date.now()) =>
  KEEP_WAITING_SECONDS + Math.ceil(Math.max(0, realNow - (startAfter?.getTime() ?? realNow)) / 1000);

export interface SendJobOptions {
  startAfter?: Date;
  /** One waiting job per key: sending the same key again while one waits is a no-op. */
  key?: string;
}

/** Creates pg-boss on our database: its PGlite backend on the embedded one, its own pool on PostgreSQL. */
export function createBoss(database: Database) {
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite as never), backend: 'pglite', schedule: false })
      : new PgBoss({
          connectionString: database.url!,
          max: 4,
          schedule: false,
          useListenNotify: true,
        });
  return boss;
}

/** Installs pg-boss's schema (tests copy a template that already has it). */
export async function installJobs(database: Database) {
  const boss = createBoss(database);
  boss.on('error', () => {});
  await boss.start();
  await boss.stop({ graceful: false, close: true });
}

export interface JobRunner {
  start(work: boolean): Promise<void>;
  stop(): Promise<void>;
  send(name: string, data: object, options?: SendJobOptions): Promise<void>;
  /** Runs a job's handler now, in this process (tests move the clock and run what is due). */
  run(name: string, data: unknown): Promise<void>;
  /** Jobs waiting to run (tests check what was scheduled, and for when). */
  waiting(name?: string): Promise<WaitingJob[]>;
  /** Removes a waiting job this process ran itself (`run`), so that pg-boss does not run it again. */
  discard(name: string, id: string): Promise<void>;
}

export interface WaitingJob {
  id: string;
  name: string;
  data: Record<string, unknown>;
  startAfter: Date;
}

export function createJobRunner(ctx: AppContext, definitions: JobDefinition[]): JobRunner {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  let boss: PgBoss | undefined;
  let starting: Promise<PgBoss> | undefined;

  const ensure = () => {
    starting ??= (async () => {
      const b = createBoss(ctx.database);
      b.on('error', (err) => ctx.log.error({ err }, 'pg-boss'));
      await b.start();
      for (const d of definitions) {
        if (!(await b.getQueue(d.name)))
          await b.createQueue(d.name, { policy: 'short', retryLimit: 5, retryBackoff: true });
      }
      boss = b;
      return b;
    })();
    return starting;
  };

  const run = async (name: string, data: unknown) => {
    const def = byName.get(name);
    if (!def) throw new Error(`job desconhecido: ${name}`);
    await def.handler(def.payload.parse(data));
  };

  return {
    async start(work) {
      // Without workers pg-boss starts on the first send (most API processes and tests never send a job).
      if (!work) return;
      const b = await ensure();
      for (const d of definitions) {
        await b.work(d.name, { pollingIntervalSeconds: 1, batchSize: 1 }, async (jobs) => {
          for (const job of jobs) await run(d.name, job.data);
        });
      }
    },
    async stop() {
      if (!starting) return;
      const b = await starting;
      await b.stop({ graceful: true, close: ctx.database.kind === 'postgres', timeout: 5000 });
      starting = undefined;
      boss = undefined;
    },
    async send(name, data, options = {}) {
      const def = byName.get(name);
      if (!def) throw new Error(`job desconhecido: ${name}`);
      const b = boss ?? (await ensure());
      await b.send(name, def.payload.parse(data) as object, {
        ...(options.startAfter ? { startAfter: options.startAfter } : {}),
        ...(options.key ? { singletonKey: options.key } : {}),
        retentionSeconds: keepWaitingSeconds(options.startAfter),
      });
    },
    run,
    async waiting(name) {
      await ensure();
      const rows = await queryRows<{ id: string; name: string; data: Record<string, unknown>; start_after: Date }>(
        ctx.db,
        sql`SELECT id, name, data, start_after FROM pgboss.job
            WHERE state IN ('created', 'retry') AND (${name ?? null}::text IS NULL OR name = ${name ?? null})
            ORDER BY start_after`,
      );
      return rows.map((r) => ({ id: r.id, name: r.name, data: r.data, startAfter: new Date(r.start_after) }));
    },
    async discard(name, id) {
      const b = boss ?? (await ensure());
      await b.deleteJob(name, id);
    },
  };
}
