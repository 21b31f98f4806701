/**
 * The server side of `npm run bench:collect`, run as a child process so the load generator never shares
 * its event loop. Env:
 *   MODE=bare           a bare Fastify app whose POST /collect parses text/plain JSON and answers 202 (the ceiling)
 *   DB=pglite           the real app (buildApp) on a fresh PGlite data dir under the OS temp dir
 *   DB=postgres         the real app on a fresh database created from TEST_DATABASE_URL
 *                       (default postgres://postgres@127.0.0.1:5432/postgres), dropped on 'stop'
 *   SERVER_PROCESSES=n  with DB=postgres: n API processes sharing the port (node:cluster, as API_PROCESSES does
 *                       in production); this process migrates, seeds and sums their figures
 * IPC: sends { type: 'ready', port, geroId, databaseUrl?, tmp? }; answers { type: 'stats' } with { type: 'stats', stored,
 * quarantined, drainMs } after draining the ingestor, { type: 'progress' } with { type: 'progress', stored,
 * quarantined, outages } without draining (bench:soak's timeline); { type: 'stop' } closes everything and exits.
 * LOG_LEVEL (default silent) is the app's.
 * For bench/retention.ts: { type: 'backlog', events } inserts old events (retention one month) and
 * { type: 'purge', batchRows, pauseMs } runs the retention purge.
 */
import cluster from 'node:cluster';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { type Db, fromPostgres } from '../apps/server/src/db/client.ts';
import { ensureEventPartitions } from '../apps/server/src/db/partitions.ts';
import { companies, domains } from '../apps/server/src/db/schema.ts';
import { installJobs } from '../apps/server/src/engine/jobs.ts';
import { processGeo } from '../apps/server/src/modules/collect/enrich.ts';
import { purgeExpiredEvents } from '../apps/server/src/modules/persons/retention.ts';

export const DOMAIN_ROOT = 'https://bench.example.com.br';
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

const send = (message: unknown) => process.send?.(message);

const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};

/** The bench's company and its domain (root DOMAIN_ROOT); answers the domain's gero_id. */
async function seedDomain(db: Db) {
  const companyUuid = randomUUID();
  const geroId = `G-${randomBytes(6).toString('hex').toUpperCase()}`;
  await db.insert(companies).values({ uuid: companyUuid, name: 'Loja Bench', status: 'active' });
  await db.insert(domains).values({
    uuid: randomUUID(),
    companyUuid,
    name: 'Bench',
    domain: DOMAIN_ROOT,
    domainRoot: DOMAIN_ROOT,
    geroId,
    geroVersion: '1.0.0',
    cnSwVersion: '1.0.0',
    status: 'Active',
    vapidPublic: 'bench-public',
    vapidPrivate: 'bench-private',
  });
  return geroId;
}

async function bare() {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  let stored = 0;
  app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 512 * 1024 }, (_req, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.post('/collect', async (request, reply) => {
    const n = (request.body as { e?: unknown[] })?.e?.length ?? 0;
    stored += n; // nothing is stored: the ceiling counts what it received
    return reply.code(202).send({ accepted: n, rejected: [], onsite: [] });
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    geroId: 'G-BARE',
    geoMs: 0,
    databaseUrl: undefined,
    tmp: undefined,
    stats: async () => stored,
    progress: () => ({ stored, quarantined: 0, outages: { count: 0, away: false, lastSeconds: 0 } }),
    cleanup: async () => {},
  };
}

async function real(kind: 'pglite' | 'postgres') {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `impeto-bench-${kind}-`));
  // A tag catalogue of our own, so a concurrent tracker build cannot break the start-up.
  const trackerDist = path.join(tmp, 'tracker');
  mkdirSync(trackerDist, { recursive: true });
  mkdirSync(path.join(tmp, 'data'), { recursive: true });
  writeFileSync(path.join(trackerDist, 'versions.json'), JSON.stringify({ gero: [], cnsw: [] }));
  writeFileSync(path.join(trackerDist, 'loader.js'), '');

  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (kind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_PG;
    const name = `impeto_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    databaseUrl = withDatabase(adminUrl, name);
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }

  const config = loadConfig({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: path.join(tmp, 'data'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    SECRET_KEY: 'b'.repeat(43),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    ...(process.env.COLLECT_SPOOL ? { COLLECT_SPOOL: process.env.COLLECT_SPOOL } : {}),
    WEB_DIST: path.join(tmp, 'no-web'),
    TRACKER_DIST: trackerDist,
  });
  const app = await buildApp(config);
  await app.ready();
  // The collector loads its geo tables in the background on first use; a production server pays that once
  // at boot, so load them before measuring rather than inside the first scenario.
  const geoStarted = performance.now();
  await processGeo().load();
  const geoMs = performance.now() - geoStarted;

  const geroId = await seedDomain(app.ctx.db);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    geroId,
    geoMs,
    databaseUrl,
    tmp,
    stats: async () => {
      await app.ingestor.drain();
      return app.ingestor.stored();
    },
    progress: () => ({
      stored: app.ingestor.stored(),
      quarantined: app.ingestor.quarantined(),
      outages: app.ingestor.outages(),
    }),
    cleanup: async () => {
      await dropDatabase();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

const PROCESSES = Number(process.env.SERVER_PROCESSES ?? 1);

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** One of the clustered API processes: the real app on the database the primary prepared. */
async function clusterWorker() {
  const tmp = process.env.BENCH_TMP!;
  const config = loadConfig({
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: process.env.BENCH_PORT!,
    DATA_DIR: path.join(tmp, 'data'),
    DATABASE_URL: process.env.BENCH_DB!,
    SECRET_KEY: 'b'.repeat(43),
    LOG_LEVEL: 'silent',
    ...(process.env.COLLECT_SPOOL ? { COLLECT_SPOOL: process.env.COLLECT_SPOOL } : {}),
    WEB_DIST: path.join(tmp, 'no-web'),
    TRACKER_DIST: path.join(tmp, 'tracker'),
  });
  const app = await buildApp(config, { migrate: false });
  await app.ready();
  await processGeo().load();
  await app.listen({ port: config.port, host: '127.0.0.1' });
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  process.on('message', async (m: { type?: string }) => {
    if (m?.type === 'cpu') process.send?.({ type: 'cpu', cpuMs: cpu() });
    else if (m?.type === 'stats') {
      await app.ingestor.drain();
      process.send?.({
        type: 'stats',
        stored: app.ingestor.stored(),
        rssMb: process.memoryUsage().rss / 2 ** 20,
        cpuMs: cpu(),
      });
    } else if (m?.type === 'stop') {
      await app.close();
      process.exit(0);
    }
  });
  process.send?.({ type: 'ready' });
}

/** The primary of SERVER_PROCESSES: prepares the database, forks the API processes and sums their answers. */
async function clusterPrimary() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'impeto-bench-cluster-'));
  mkdirSync(path.join(tmp, 'tracker'), { recursive: true });
  mkdirSync(path.join(tmp, 'data'), { recursive: true });
  writeFileSync(path.join(tmp, 'tracker', 'versions.json'), JSON.stringify({ gero: [], cnsw: [] }));
  writeFileSync(path.join(tmp, 'tracker', 'loader.js'), '');
  const adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_PG;
  const name = `impeto_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(adminUrl, name);
  const database = fromPostgres(url, 2);
  await database.migrate();
  await installJobs(database);
  const geroId = await seedDomain(database.db);
  await database.close();
  const port = await freePort();
  const geoStarted = performance.now();
  const workers = Array.from({ length: PROCESSES }, () =>
    cluster.fork({ BENCH_CLUSTER_WORKER: '1', BENCH_TMP: tmp, BENCH_DB: url, BENCH_PORT: String(port) }),
  );
  await Promise.all(workers.map((w) => new Promise((r) => w.once('message', r))));
  const geoMs = performance.now() - geoStarted;
  const ask = <T>(type: string) =>
    Promise.all(
      workers.map(
        (w) =>
          new Promise<T>((resolve) => {
            const on = (m: { type?: string }) => {
              if (m?.type !== type) return;
              w.off('message', on);
              resolve(m as T);
            };
            w.on('message', on);
            w.send({ type });
          }),
      ),
    );
  const ownCpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  const cleanup = async () => {
    for (const w of workers) w.send({ type: 'stop' });
    await Promise.all(workers.map((w) => new Promise((r) => (w.isDead() ? r(null) : w.once('exit', r)))));
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
    rmSync(tmp, { recursive: true, force: true });
  };
  process.on('message', async (m: { type?: string }) => {
    try {
      if (m?.type === 'cpu') {
        const all = await ask<{ cpuMs: number }>('cpu');
        send({ type: 'cpu', cpuMs: ownCpu() + all.reduce((a, b) => a + b.cpuMs, 0) });
      } else if (m?.type === 'stats') {
        const t0 = performance.now();
        const all = await ask<{ stored: number; rssMb: number; cpuMs: number }>('stats');
        send({
          type: 'stats',
          stored: all.reduce((a, b) => a + b.stored, 0),
          drainMs: performance.now() - t0,
          rssMb: all.reduce((a, b) => a + b.rssMb, 0),
          cpuMs: ownCpu() + all.reduce((a, b) => a + b.cpuMs, 0),
        });
      } else if (m?.type === 'stop') {
        await cleanup();
        process.removeAllListeners('disconnect');
        process.send?.({ type: 'stopped' }, () => process.exit(0));
      }
    } catch (err) {
      send({ type: 'error', message: (err as Error).stack ?? String(err) });
    }
  });
  process.on('disconnect', () => void cleanup().finally(() => process.exit(0)));
  send({ type: 'ready', port, geroId, mode: 'postgres', geoMs, processes: PROCESSES });
}

async function main() {
  const mode = process.env.MODE === 'bare' ? 'bare' : process.env.DB === 'postgres' ? 'postgres' : 'pglite';
  const target = mode === 'bare' ? await bare() : await real(mode);
  const app: FastifyInstance = target.app;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  process.on('message', async (m: { type?: string }) => {
    try {
      if (m?.type === 'cpu') {
        const cpu = process.cpuUsage();
        send({ type: 'cpu', cpuMs: (cpu.user + cpu.system) / 1000 });
      } else if (m?.type === 'progress') {
        send({ type: 'progress', ...target.progress() });
      } else if (m?.type === 'stats') {
        const t0 = performance.now();
        const stored = await target.stats();
        const cpu = process.cpuUsage();
        send({
          type: 'stats',
          stored,
          quarantined: target.progress().quarantined,
          drainMs: performance.now() - t0,
          rssMb: process.memoryUsage().rss / 2 ** 20,
          cpuMs: (cpu.user + cpu.system) / 1000,
        });
      } else if (m?.type === 'backlog') {
        // bench/retention.ts: `events` page views two years old, past a retention of one month: from the first
        // instant of that month, in its own monthly partition (what retention drops whole), or with `month: false`
        // in the default partition (what it purges row by row).
        const { events = 0, month = true } = m as { events?: number; month?: boolean };
        const t0 = performance.now();
        await app.ctx.db.execute(sql`UPDATE domains SET retention_months = 1`);
        const [domain] = await app.ctx.db.select({ uuid: domains.uuid }).from(domains).limit(1);
        const now = new Date();
        const from = month
          ? new Date(Date.UTC(now.getUTCFullYear() - 2, now.getUTCMonth(), 1))
          : new Date(Date.UTC(1990, 0, 1));
        if (month) await ensureEventPartitions(app.ctx.db, from, 0);
        for (let done = 0; done < events; done += 100_000) {
          await app.ctx.db.execute(sql`
            INSERT INTO events (domain_uuid, kind, url, device, ts)
            SELECT ${domain!.uuid}::uuid, 'pageview', ${DOMAIN_ROOT} || '/antigo/' || g, 'desktop',
              ${from}::timestamptz + (${done} + g) * interval '1 second'
            FROM generate_series(1, ${Math.min(100_000, events - done)}) AS g`);
        }
        await app.ctx.db.execute(sql`ANALYZE events`);
        send({ type: 'backlog', ms: performance.now() - t0 });
      } else if (m?.type === 'purge') {
        // bench/retention.ts: the retention job's purge, in this process as under ROLE=all.
        const { batchRows, pauseMs } = m as { batchRows?: number; pauseMs?: number };
        const t0 = performance.now();
        const result = await purgeExpiredEvents(app.ctx, { batchRows, pauseMs });
        send({ type: 'purged', ...result, ms: performance.now() - t0 });
      } else if (m?.type === 'stop') {
        await app.close();
        await target.cleanup();
        process.removeAllListeners('disconnect');
        process.send?.({ type: 'stopped' }, () => process.exit(0));
      }
    } catch (err) {
      send({ type: 'error', message: (err as Error).stack ?? String(err) });
    }
  });
  // The parent went away (Ctrl-C, crash): still drop the temporary database and files.
  process.on('disconnect', () => {
    void app
      .close()
      .catch(() => {})
      .then(() => target.cleanup())
      .finally(() => process.exit(0));
  });
  send({
    type: 'ready',
    port,
    geroId: target.geroId,
    mode,
    geoMs: target.geoMs,
    databaseUrl: target.databaseUrl,
    tmp: target.tmp,
  });
}

const entry = process.env.BENCH_CLUSTER_WORKER
  ? clusterWorker
  : PROCESSES > 1 && process.env.DB === 'postgres' && process.env.MODE !== 'bare'
    ? clusterPrimary
    : main;
entry().catch((err) => {
  send({ type: 'error', message: (err as Error).stack ?? String(err) });
  console.error(err);
  process.exit(1);
});
