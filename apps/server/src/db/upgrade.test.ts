import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createTestApp, solveCaptcha, type TestApp } from '../../test/harness.ts';
import { adminUrl } from '../../test/postgres-url.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { spoolDatabaseFolder } from '../modules/collect/spool.ts';
import { type Database, fromPglite, fromPostgres, migrationsFolder, queryRows } from './client.ts';
import { readMigrations } from './migrate.ts';
import { listEventPartitions } from './partitions.ts';

/*
 * Upgrading keeps the data: each fixture under test/fixtures/upgrade/<commit>/ is what an older version left behind
 * (written by scripts/make-upgrade-fixture.ts through that version's API and collector, then killed with requests
 * still in its spool). Today's code starts on it, migrates it, and everything must still be there and work.
 */

const kind = inject('dbKind');
const fixturesRoot = path.resolve(import.meta.dirname, '../../test/fixtures/upgrade');
const fixtures = existsSync(fixturesRoot)
  ? readdirSync(fixturesRoot).filter((c) => existsSync(path.join(fixturesRoot, c, kind, 'manifest.json')))
  : [];
/** A pid no process can have (Linux's pid_max is at most 2^22): the spool's writer is dead, as after any upgrade. */
const DEAD_PID = 4_194_305;

// biome-ignore lint/suspicious/noExplicitAny: API answers and the manifest are read loosely; the assertions check their shape
type Json = Record<string, any>;

/** The fixture's database as the older version left it: the PGlite data dir, or the pg_dump restored with psql. */
async function restoreDatabase(dir: string): Promise<Database> {
  if (kind === 'pglite') {
    const tar = brotliDecompressSync(readFileSync(path.join(dir, 'pglite.tar.br')));
    return fromPglite(await PGlite.create({ loadDataDir: new Blob([tar], { type: 'application/x-tar' }) }));
  }
  const url = inject('pgUrl');
  const name = `impeto_upgrade_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  execFileSync('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '--dbname', adminUrl(url, name)], {
    input: gunzipSync(readFileSync(path.join(dir, 'postgres.sql.gz'))),
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const database = fromPostgres(adminUrl(url, name), 4);
  const close = database.close;
  database.close = async () => {
    await close();
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  };
  return database;
}

describe.skipIf(fixtures.length === 0).each(fixtures)('upgrading from %s', (commit) => {
  const dir = path.join(fixturesRoot, commit, kind);
  const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Json;
  const secret = readFileSync(path.join(fixturesRoot, commit, 'secret.key'), 'utf8').trim();
  const loja = manifest.domains.loja as Json;
  const [ana, bruno] = manifest.accounts as Json[];
  const work = mkdtempSync(path.join(tmpdir(), 'impeto-upgrade-'));
  const dataDir = path.join(work, 'data');
  const spoolRoot = path.join(work, 'spool');
  let t: TestApp;
  let push: PushService;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    const database = await restoreDatabase(dir);
    // The same DATA_DIR and spool a real upgrade keeps: media files, and the segments the killed process left.
    if (existsSync(path.join(dir, 'media')))
      cpSync(path.join(dir, 'media'), path.join(dataDir, 'media'), { recursive: true });
    const spoolOfDatabase = spoolDatabaseFolder(spoolRoot, dataDir);
    for (const folder of readdirSync(path.join(dir, 'spool')))
      cpSync(path.join(dir, 'spool', folder), path.join(spoolOfDatabase, folder.replace(/^\d+/, String(DEAD_PID))), {
        recursive: true,
      });
    t = await createTestApp(
      {
        secretKey: secret,
        publicUrl: manifest.publicUrl,
        dataDir,
        collectSpool: spoolRoot,
        allowPrivateFetch: true,
        authRateLimit: 1000,
      },
      { database, migrate: true },
    );
    t.clock.set(new Date(new Date(manifest.writtenAt).getTime() + 60_000));
    push = await startPushService();
  });
  afterAll(async () => {
    await t?.close();
    await push?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("applies today's migrations on top of the older ones", async () => {
    const applied = await queryRows<{ hash: string }>(t.app.ctx.db, sql`SELECT hash FROM drizzle.__drizzle_migrations`);
    const today = readMigrations(migrationsFolder);
    expect(applied.map((r) => r.hash).sort()).toEqual(today.map((m) => m.hash).sort());
    expect(today.length).toBeGreaterThanOrEqual(manifest.stored.migrations);
  });

  it('replays the spool the killed process left: those events are stored exactly once', async () => {
    await t.app.ingestor.drain();
    const [row] = await queryRows<{ n: number; distinct_n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n, count(DISTINCT props->>'n')::int AS distinct_n FROM events
          WHERE category = ${manifest.spool.category}`,
    );
    expect(manifest.stored.spool_events_stored).toBeLessThan(manifest.spool.eventsSent);
    expect(row).toEqual({ n: manifest.spool.eventsSent, distinct_n: manifest.spool.eventsSent });
    const [counts] = await queryRows<{ events: number }>(t.app.ctx.db, sql`SELECT count(*)::int AS events FROM events`);
    // Each spooled request carried a page view and the marker event.
    expect(counts!.events).toBe(
      manifest.stored.events + 2 * (manifest.spool.eventsSent - manifest.stored.spool_events_stored),
    );
    const left = readdirSync(spoolRoot, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.seg'));
    expect(left).toEqual([]);
  });

  it('keeps every event in monthly partitions and counts the old visitor history as distinct visitors', async () => {
    const db = t.app.ctx.db;
    const [events] = await queryRows<{ relkind: string; stray: number }>(
      db,
      sql`SELECT relkind, (SELECT count(*)::int FROM events_default) AS stray FROM pg_class WHERE relname = 'events'`,
    );
    expect(events).toEqual({ relkind: 'p', stray: 0 });
    expect((await listEventPartitions(db)).length).toBeGreaterThanOrEqual(5);
    // The visitors card of the whole history equals the exact distinct count of the per-day visitor table.
    const [range] = await queryRows<{ start: string; end: string; exact: number }>(
      db,
      sql`SELECT to_char(min(day), 'YYYY-MM-DD') AS start, to_char(max(day), 'YYYY-MM-DD') AS end,
            count(DISTINCT person_uuid)::int AS exact
          FROM daily_visitors WHERE domain_uuid = ${loja.uuid}::uuid`,
    );
    expect(range!.exact).toBeGreaterThan(1);
    const login = await call(t.app, 'POST', '/api/users/signin', {
      user: { username: ana!.username, password: ana!.password },
      captcha: await solveCaptcha(t.app),
    });
    const visitors = await call(
      t.app,
      'GET',
      `/api/analytics/${loja.uuid}/count/visitors?start=${range!.start}&end=${range!.end}`,
      undefined,
      login.body.data.token,
    );
    expect(visitors.body.data.count).toBe(range!.exact);
    const domains = await call(t.app, 'GET', `/api/domain/list/${ana!.companyUuid}`, undefined, login.body.data.token);
    expect(new Set(domains.body.data.map((d: Json) => d.timezone))).toEqual(new Set(['America/Sao_Paulo']));
    // The base by channel, now read from counters, still counts the persons the older version stored.
    const base = await call(
      t.app,
      'GET',
      `/api/analytics/${loja.uuid}/base/channel?start=${range!.start}&end=${range!.end}`,
      undefined,
      login.body.data.token,
    );
    const [persons] = await queryRows<Record<string, number>>(
      db,
      sql`SELECT count(*)::int AS onsite, count(*) FILTER (WHERE push_status = 'subscribed')::int AS push,
            count(email)::int AS email, count(phone)::int AS sms
          FROM persons WHERE domain_uuid = ${loja.uuid}::uuid`,
    );
    expect(persons!.onsite).toBeGreaterThan(1);
    for (const row of base.body.data as Json[]) expect(row.amount, row.channel).toBe(persons![row.channel]);
  });

  it('every account signs in with its old password; a wrong one is still refused', async () => {
    for (const account of manifest.accounts as Json[]) {
      const res = await call(t.app, 'POST', '/api/users/signin', {
        user: { username: account.username, password: account.password },
        captcha: await solveCaptcha(t.app),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.company_uuid).toBe(account.companyUuid);
      tokens[account.username] = res.body.data.token;
    }
    const wrong = await call(t.app, 'POST', '/api/users/signin', {
      user: { username: ana!.username, password: 'outra-senha-123' },
      captcha: await solveCaptcha(t.app),
    });
    expect(wrong.status).toBe(401);
  });

  it('lists the domains, channels, media and momentums the older version wrote, each company only its own', async () => {
    const anaToken = tokens[ana!.username]!;
    const brunoToken = tokens[bruno!.username]!;
    const pick = (d: Json) => ({ uuid: d.uuid, name: d.name, status: d.status });
    const anaDomains = await call(t.app, 'GET', `/api/domain/list/${ana!.companyUuid}`, undefined, anaToken);
    expect(anaDomains.body.data.map(pick)).toEqual(manifest.lists.domains.ana);
    expect(anaDomains.body.data.map((d: Json) => d.uuid)).not.toContain(manifest.domains.removed.uuid);
    const brunoDomains = await call(t.app, 'GET', `/api/domain/list/${bruno!.companyUuid}`, undefined, brunoToken);
    expect(brunoDomains.body.data.map(pick)).toEqual(manifest.lists.domains.bruno);
    const foreign = await call(t.app, 'GET', `/api/domain/list/${bruno!.companyUuid}`, undefined, anaToken);
    expect(JSON.stringify(foreign.body)).not.toContain(manifest.domains.outra.uuid);

    const channels = await call(t.app, 'GET', `/api/domain/channels/${loja.uuid}`, undefined, anaToken);
    expect(channels.status).toBe(200);
    const lojaChannels = (manifest.channels as Json[]).filter((c) => c.domainUuid === loja.uuid);
    expect(channels.body.data.map((c: Json) => c.uuid).sort()).toEqual(lojaChannels.map((c) => c.uuid).sort());
    expect(JSON.stringify(channels.body)).not.toContain('zenvia-senha-secreta');
    const foreignChannels = await call(t.app, 'GET', `/api/domain/channels/${loja.uuid}`, undefined, brunoToken);
    expect(foreignChannels.status).toBe(404);

    const gallery = await call(t.app, 'GET', `/api/gallery/list/${loja.uuid}/domain`, undefined, anaToken);
    expect(gallery.body.data).toEqual(manifest.lists.media);
    expect(gallery.body.data.length).toBe(manifest.uploadedMedia);
    for (const item of gallery.body.data as Json[]) {
      const url = new URL(JSON.stringify(item).match(/"(https?:\/\/[^"]+\/media\/[^"]+)"/)![1]!);
      const file = await t.app.inject({ method: 'GET', url: url.pathname });
      expect(file.statusCode, url.pathname).toBe(200);
      const stored = readFileSync(path.join(dir, 'media', ...url.pathname.split('/').slice(2).map(decodeURIComponent)));
      expect(createHash('sha256').update(file.rawPayload).digest('hex')).toBe(
        createHash('sha256').update(stored).digest('hex'),
      );
    }

    const momentums = [];
    for (const type of ['momentum', 'campaign', 'dcm']) {
      const res = await call(t.app, 'GET', `/api/momentum/list/${loja.uuid}?type=${type}`, undefined, anaToken);
      expect(res.status).toBe(200);
      momentums.push(
        ...res.body.data.map((m: Json) => ({
          uuid: m.uuid,
          type: m.type,
          title: m.momentum_title,
          status: m.status,
          scheduled_at: m.scheduled_at,
          deliveries: m.deliveries,
        })),
      );
    }
    expect(momentums).toEqual(manifest.lists.momentums);
    // Every status the older version could leave, a scheduled one (Paused with a date) among them.
    expect(new Set(momentums.map((m) => m.status))).toEqual(new Set(['Active', 'Paused', 'Draft', 'Deleted', 'Done']));
    expect(momentums.some((m) => m.status === 'Paused' && m.scheduled_at)).toBe(true);
    const brunoMomentums = await call(t.app, 'GET', `/api/momentum/list/${loja.uuid}`, undefined, brunoToken);
    expect(brunoMomentums.status).toBe(404);
  });

  it('channel secrets and the domain VAPID keys still decrypt with the same SECRET_KEY', async () => {
    const box = createSecretBox(secret);
    const rows = await queryRows<{ uuid: string; secrets: string | null }>(
      t.app.ctx.db,
      sql`SELECT uuid, secrets FROM channels`,
    );
    // The secret each channel's form took; the stored shape is the channel's (Zenvia keeps a Basic credential).
    const secretField: Record<string, string> = { ZENVIA: 'password', AWS_SES: 'secretAccessKey', AKNA: 'password' };
    const withSecrets = (manifest.channels as Json[]).filter((c) => c.type in secretField);
    expect(withSecrets.length).toBe(3);
    for (const channel of withSecrets) {
      const sealed = rows.find((r) => r.uuid === channel.uuid)!.secrets!;
      const values = Object.values(JSON.parse(box.open(sealed)) as Record<string, string>);
      const readable = [...values, ...values.map((v) => Buffer.from(v, 'base64').toString('utf8'))].join('\n');
      expect(readable).toContain(channel.properties[secretField[channel.type]!]);
      expect(() => createSecretBox('x'.repeat(43)).open(sealed)).toThrow();
    }
    const [domain] = await queryRows<{ vapid_private: string }>(
      t.app.ctx.db,
      sql`SELECT vapid_private FROM domains WHERE uuid = ${loja.uuid}::uuid`,
    );
    expect(box.open(domain!.vapid_private)).toMatch(/^[\w-]{43}$/);
  });

  it('hands an on-site message the older version queued to its visitor', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/collect/pending?id=${loja.gero_id}&vid=${manifest.onsite.vid}`,
    });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json().onsite)).toContain('Frete grátis (versão antiga)');
  });

  it('sends a delivery that was waiting since the older version, signed with the old VAPID keys', async () => {
    const subscription = (manifest.subscriptions as Json[]).find((s) => s.vid === manifest.waiting.vid)!;
    const restored = push.restoreSubscription(subscription as never);
    // The push service of the fixture's run is gone; its endpoints now point at this test's (a real one stays put).
    await t.app.ctx.db.execute(sql`
      UPDATE persons SET push_subscription = jsonb_set(push_subscription, '{endpoint}',
        to_jsonb(replace(push_subscription->>'endpoint', ${manifest.pushOrigin}, ${push.origin})))
      WHERE push_subscription IS NOT NULL`);
    const [waiting] = await queryRows<{ id: string; due_at: Date | string }>(
      t.app.ctx.db,
      sql`SELECT id, due_at FROM deliveries WHERE momentum_uuid = ${manifest.waiting.momentumUuid}::uuid AND status = 'queued'`,
    );
    expect(waiting).toBeDefined();
    t.clock.set(new Date(new Date(waiting!.due_at).getTime() + 60_000));
    while ((await t.app.engine.dispatchDue()) > 0);
    const [received] = await push.waitFor(1);
    expect(received!.endpoint).toBe(restored.subscription.endpoint);
    expect(received!.vapidPublicKey).toBe(loja.vapid_public_key);
    expect(received!.payload).toMatchObject({ title: 'Seu pedido espera', delivery_id: waiting!.id });
    const [row] = await queryRows<{ status: string }>(
      t.app.ctx.db,
      sql`SELECT status FROM deliveries WHERE id = ${waiting!.id}::uuid`,
    );
    expect(row!.status).toBe('sent');
  });
});
