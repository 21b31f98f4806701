import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  blocks,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import { createIngestor, type IncomingRequest } from './ingest.ts';
import { createSpool } from './spool.ts';

/*
 * The collector answers 202 before the events reach the database; the spool is what keeps that promise when
 * the process dies in between. In process (both databases): what a dead process left is replayed exactly once.
 * Across processes (PostgreSQL): a real server is SIGKILLed while its batches wait on a locked table, and its
 * successor stores every accepted event.
 */

const SITE = 'https://spool.com.br';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const main = path.resolve(import.meta.dirname, '../../main.ts');

let t: TestApp;
let spoolRoot: string;
let domain: Awaited<ReturnType<typeof createDomain>>;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  spoolRoot = mkdtempSync(path.join(tmpdir(), 'impeto-spool-test-'));
  t = await createTestApp({ collectSpool: spoolRoot });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Spool', SITE);
});
afterAll(async () => {
  await t?.close();
  rmSync(spoolRoot, { recursive: true, force: true });
});

const countEvents = async (db = t.app.ctx.db) =>
  Number((await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM events`))[0]!.n);

const pageViews = async (vid: string) =>
  (
    await queryRows<{ url: string }>(
      t.app.ctx.db,
      sql`SELECT e.url FROM events e JOIN persons p ON p.uuid = e.person_uuid WHERE p.visitor_id = ${vid} ORDER BY e.url`,
    )
  ).map((r) => r.url);

/** A pid that no process has now: a child that already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

const request = (vid: string, urls: string[]): IncomingRequest => ({
  domainUuid: domain.uuid,
  visitorId: vid,
  device: { browser: 'Chrome', version: '126', os: 'Windows', device: 'desktop', mobile: false },
  geo: { country: 'BR' },
  language: 'pt-BR',
  receivedAt: new Date('2026-11-20T15:00:00Z'),
  events: urls.map((u) => ({ t: 'pv' as const, u, ts: Date.parse('2026-11-20T15:00:00Z') })),
});

/** Writes `segments` the way a process does, then gives its folder to `pid`, as if that process had written it. */
const leaveSpool = (pid: number, segments: IncomingRequest[][], extra = '') => {
  const writer = createSpool(spoolRoot, t.app.ctx.config.dataDir);
  const ids: string[] = [];
  for (const lines of segments) {
    for (const line of lines) writer.append(JSON.stringify(line));
    const segment = writer.seal()!;
    if (extra) writeFileSync(segment.file, extra, { flag: 'a' });
    ids.push(segment.id);
  }
  const folder = path.join(path.dirname(writer.dir), `${pid}-${randomUUID()}`);
  renameSync(writer.dir, folder);
  return { folder, ids };
};

const collect = async (vid: string, urls: string[]) =>
  (
    await t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': CHROME },
      payload: JSON.stringify({ id: domain.gero_id, vid, e: urls.map((u) => ({ t: 'pv', u })) }),
    })
  ).statusCode;

const spoolFiles = () =>
  readdirSync(spoolRoot, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.seg'));

describe('the collector spool', () => {
  it('keeps nothing once the batches are stored', async () => {
    const before = await countEvents();
    expect(await collect('spool-live', [`${SITE}/a`, `${SITE}/b`])).toBe(202);
    expect(spoolFiles()).toHaveLength(1);
    await t.app.ingestor.drain();
    expect(await countEvents()).toBe(before + 2);
    expect(spoolFiles()).toEqual([]);
  });

  it("replays a dead process's batches once, a previous life's with this pid too; skips a stored batch, a cut line and live folders", async () => {
    const pending = leaveSpool(deadPid(), [
      [request('spool-a', [`${SITE}/1`, `${SITE}/2`]), request('spool-b', [`${SITE}/3`])],
      [request('spool-a', [`${SITE}/4`])],
    ]);
    // A process that stored its batch and died before removing the file.
    const stored = leaveSpool(deadPid(), [[request('spool-c', [`${SITE}/x`])]]);
    await t.app.ctx.db.execute(sql`INSERT INTO ingest_batches (id) VALUES (${stored.ids[0]}::uuid)`);
    // A crash in the middle of writing a line.
    const torn = leaveSpool(deadPid(), [[request('spool-d', [`${SITE}/5`])]], '{"domainUuid":"');
    // A folder of this process's pid that this process did not open: a previous life with the same pid
    // (a restarted container).
    const previousLife = leaveSpool(process.pid, [[request('spool-f', [`${SITE}/7`])]]);
    // A folder of another process that is alive is left alone, and so is a spool open in this process.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const live = leaveSpool(other.pid!, [[request('spool-e', [`${SITE}/6`])]]);
    const open = createSpool(spoolRoot, t.app.ctx.config.dataDir);
    open.append(JSON.stringify(request('spool-g', [`${SITE}/8`])));

    const before = await countEvents();
    expect(await t.app.ingestor.recover()).toBe(6);
    await t.app.ingestor.drain();

    expect(await countEvents()).toBe(before + 6);
    expect(await pageViews('spool-a')).toEqual([`${SITE}/1`, `${SITE}/2`, `${SITE}/4`]);
    expect(await pageViews('spool-b')).toEqual([`${SITE}/3`]);
    expect(await pageViews('spool-c')).toEqual([]);
    expect(await pageViews('spool-d')).toEqual([`${SITE}/5`]);
    expect(await pageViews('spool-f')).toEqual([`${SITE}/7`]);
    expect(await pageViews('spool-e')).toEqual([]);
    expect(await pageViews('spool-g')).toEqual([]);
    for (const folder of [pending.folder, stored.folder, torn.folder, previousLife.folder]) {
      expect(existsSync(folder)).toBe(false);
    }
    expect(existsSync(live.folder)).toBe(true);
    expect(existsSync(open.dir)).toBe(true);
    expect(spoolFiles()).toHaveLength(2);

    // Replaying again stores nothing more.
    expect(await t.app.ingestor.recover()).toBe(0);
    other.kill();
    open.close();
    rmSync(live.folder, { recursive: true });
    rmSync(open.dir, { recursive: true });

    // The marks of stored batches go with the next batch: only that batch's own mark is left.
    await collect('spool-next', [`${SITE}/z`]);
    await t.app.ingestor.drain();
    const marks = await queryRows<{ n: number }>(t.app.ctx.db, sql`SELECT count(*)::int AS n FROM ingest_batches`);
    expect(Number(marks[0]!.n)).toBe(1);
  });
});

it('a batch stored but not yet matched when the process died is matched on replay, and only once', async () => {
  const { uuid: momentumUuid } = await createMomentum(t.app, owner, domain.uuid, 'Oferta no site', [
    blocks.everyone,
    blocks.pageviewContaining('/oferta'),
    blocks.topbar(),
  ]);
  const deliveries = async () =>
    (
      await queryRows<{ n: number }>(
        t.app.ctx.db,
        sql`SELECT count(*)::int AS n FROM deliveries WHERE momentum_uuid = ${momentumUuid}::uuid`,
      )
    )[0]!.n;

  // A process that stores the batch and dies before matching it (no onStored) and before removing the file:
  // its segment is copied aside, under a dead pid, before the batch is written.
  const writer = createSpool(spoolRoot, t.app.ctx.config.dataDir);
  const victim = createIngestor(t.app.ctx, { spool: writer });
  expect(victim.push({ ...request('spool-match', [`${SITE}/oferta/1`]), receivedAt: t.clock.now() })).toBe(true);
  await victim.durable();
  const [segment] = readdirSync(writer.dir);
  const dead = () => {
    const folder = path.join(path.dirname(writer.dir), `${deadPid()}-${randomUUID()}`);
    mkdirSync(folder);
    copyFileSync(path.join(writer.dir, segment!), path.join(folder, segment!));
    return folder;
  };
  const first = dead();
  const second = dead();
  renameSync(second, `${second}.parked`);
  await victim.close();
  expect(await pageViews('spool-match')).toEqual([`${SITE}/oferta/1`]);
  expect(Number(await deliveries())).toBe(0);

  expect(await t.app.ingestor.recover()).toBe(0); // already stored: nothing written again
  await t.app.ingestor.drain();
  expect(existsSync(first)).toBe(false);
  expect(await pageViews('spool-match')).toEqual([`${SITE}/oferta/1`]);
  expect(Number(await deliveries())).toBe(1);

  // The same segment replayed once more (a crash after matching, before the file went): still one delivery.
  renameSync(`${second}.parked`, second);
  expect(await t.app.ingestor.recover()).toBe(0);
  await t.app.ingestor.drain();
  expect(Number(await deliveries())).toBe(1);
  expect(await pageViews('spool-match')).toEqual([`${SITE}/oferta/1`]);
});

it('when memory is full, requests wait on disk and are all stored later; past the disk limit the answer is no', async () => {
  const writer = createSpool(spoolRoot, t.app.ctx.config.dataDir);
  const line = Buffer.byteLength(JSON.stringify(request('overflow-0', [`${SITE}/o/00`]))) + 1;
  const small = createIngestor(t.app.ctx, { spool: writer, maxQueued: 5, maxDeferredBytes: 30 * line });
  const before = await countEvents();
  const answers: boolean[] = [];
  // All in one go, so the database cannot catch up in between: 5 fit in memory, 30 on disk, the rest refused.
  for (let i = 0; i < 50; i++)
    answers.push(small.push(request(`overflow-${i % 7}`, [`${SITE}/o/${String(i).padStart(2, '0')}`])));
  expect(answers.filter(Boolean)).toHaveLength(35);
  expect(answers.slice(35).some(Boolean)).toBe(false);
  expect(readdirSync(writer.dir).filter((f) => f.endsWith('.seg'))).toHaveLength(2);

  await small.drain();
  expect(await countEvents()).toBe(before + 35);
  const urls = await queryRows<{ url: string }>(
    t.app.ctx.db,
    sql`SELECT url FROM events WHERE url LIKE ${`${SITE}/o/%`} ORDER BY url`,
  );
  expect(urls.map((u) => u.url)).toEqual(
    Array.from({ length: 35 }, (_, i) => `${SITE}/o/${String(i).padStart(2, '0')}`),
  );
  // Room again once stored: the disk allowance is given back.
  expect(small.push(request('overflow-late', [`${SITE}/o/late`]))).toBe(true);
  await small.close();
  expect(await countEvents()).toBe(before + 36);
  expect(existsSync(writer.dir)).toBe(false);
});

it('a request stored after a newer one keeps the earliest first-visit facts and the most recent attributes', async () => {
  // Overflow and replay can store a visitor's older request after a newer one.
  const ingestor = createIngestor(t.app.ctx);
  const at = (iso: string) => new Date(iso);
  const newer: IncomingRequest = {
    ...request('ordem', []),
    device: { browser: 'Chrome', version: '127', os: 'Windows', device: 'desktop', mobile: false },
    receivedAt: at('2026-11-20T16:00:00Z'),
    events: [{ t: 'pv', u: `${SITE}/depois`, ts: Date.parse('2026-11-20T16:00:00Z') }],
  };
  const older: IncomingRequest = {
    ...request('ordem', []),
    device: { browser: 'Chrome', version: '125', os: 'Windows', device: 'desktop', mobile: false },
    receivedAt: at('2026-11-20T09:00:00Z'),
    events: [
      { t: 'pv', u: `${SITE}/antes`, r: 'https://www.google.com/', ts: Date.parse('2026-11-20T09:00:00Z') },
      { t: 'id', p: { name: 'Maria', plano: 'ouro' }, ts: Date.parse('2026-11-20T09:00:01Z') },
    ],
  };
  ingestor.push(newer);
  await ingestor.drain();
  ingestor.push(older);
  await ingestor.drain();

  const [person] = await queryRows<{
    attributes: Record<string, unknown>;
    name: string | null;
    first_seen: Date;
    last_seen: Date;
  }>(
    t.app.ctx.db,
    sql`SELECT attributes, name, first_seen, last_seen FROM persons
        WHERE domain_uuid = ${domain.uuid}::uuid AND visitor_id = 'ordem'`,
  );
  expect(person!.attributes).toMatchObject({
    createdAt: '2026-11-20T09:00:00.000Z',
    origin: 'www.google.com',
    'navigator.version': '127',
    'identify.plano': 'ouro',
  });
  expect([...(person!.attributes['visited.url'] as string[])].sort()).toEqual([`${SITE}/antes`, `${SITE}/depois`]);
  expect(person!.name).toBe('Maria');
  expect(new Date(person!.first_seen).toISOString()).toBe('2026-11-20T09:00:00.000Z');
  expect(new Date(person!.last_seen).toISOString()).toBe('2026-11-20T16:00:00.000Z');
});

it('refuses to start on a folder it cannot create, saying how to turn the spool off', () => {
  const file = path.join(spoolRoot, 'um-arquivo');
  writeFileSync(file, '');
  expect(() => createSpool(file, 'x')).toThrow(/COLLECT_SPOOL: não foi possível criar a pasta .*COLLECT_SPOOL=off/);
});

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

describe.skipIf(inject('dbKind') !== 'postgres')('a collector killed before its batches are stored', () => {
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all(children.map(exited));
  });

  const startServer = (databaseUrl: string, spool: string) =>
    new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
        env: {
          ...process.env,
          ROLE: 'api',
          NODE_ENV: 'test',
          PORT: '0',
          DATABASE_URL: databaseUrl,
          SECRET_KEY: t.app.ctx.config.secretKey,
          COLLECT_SPOOL: spool,
          // Most of the load waits on disk only (memory full), as under a traffic peak.
          COLLECT_MEMORY_EVENTS: '40',
          DATA_DIR: spool,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const url = /abra (http:\/\/\S+)/.exec(out)?.[1];
        if (url) resolve({ child, url });
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.once('exit', (code, signal) => reject(new Error(`servidor saiu (${code ?? signal}):\n${out}`)));
    });

  it('every event it answered 202 for is stored once by the next process', async () => {
    const databaseUrl = t.app.ctx.database.url!;
    const spool = mkdtempSync(path.join(tmpdir(), 'impeto-spool-crash-'));
    const lock = new pg.Client({ connectionString: databaseUrl });
    await lock.connect();
    try {
      const before = await countEvents();
      let server = await startServer(databaseUrl, spool);
      // The database takes no events while this transaction holds the table: every batch waits in the process.
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');

      const REQUESTS = 200;
      let accepted = 0;
      for (let i = 0; i < REQUESTS; i += 20) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, async (_, j) => {
            const n = i + j;
            const res = await fetch(`${server.url}/collect`, {
              method: 'POST',
              headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': CHROME },
              body: JSON.stringify({
                id: domain.gero_id,
                vid: `crash-${n % 50}`,
                e: [
                  { t: 'pv', u: `${SITE}/p/${n}` },
                  { t: 'ev', c: 'compra', p: { n } },
                ],
              }),
            });
            expect(res.status).toBe(202);
            return ((await res.json()) as { accepted: number }).accepted;
          }),
        );
        accepted += answers.reduce((a, b) => a + b, 0);
      }
      expect(accepted).toBe(REQUESTS * 2);
      server.child.kill('SIGKILL');
      await exited(server.child);
      await lock.query('ROLLBACK');
      expect(await countEvents()).toBe(before);

      server = await startServer(databaseUrl, spool);
      const deadline = Date.now() + 30_000;
      while ((await countEvents()) < before + accepted && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await countEvents()).toBe(before + accepted);
      const urls = await queryRows<{ n: number }>(
        t.app.ctx.db,
        sql`SELECT count(DISTINCT url)::int AS n FROM events WHERE url LIKE ${`${SITE}/p/%`}`,
      );
      expect(Number(urls[0]!.n)).toBe(REQUESTS);
      server.child.kill('SIGTERM');
      await exited(server.child);
    } finally {
      await lock.end();
      rmSync(spool, { recursive: true, force: true });
    }
  }, 90_000);
});
