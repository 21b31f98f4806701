import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import { ensureEventPartitions, listEventPartitions } from '../../db/partitions.ts';
import { nextRetentionRun, purgeExpiredEvents } from './retention.ts';

/*
 * The per-domain retention (LGPD: keep events only as long as needed): set in the domain's settings, applied by the
 * daily `retention.purge` job in bounded statements.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let short: { uuid: string };
let standard: { uuid: string };
let foreign: { uuid: string };

const NOW = new Date('2026-11-23T12:00:00.000Z');
const monthsAgo = (months: number, days = 0) => {
  const d = new Date(NOW);
  d.setUTCMonth(d.getUTCMonth() - months);
  d.setUTCDate(d.getUTCDate() - days);
  return d;
};

/** `n` page views of one domain at `at`, straight in the table (the collector stamps the present). */
const seed = (domainUuid: string, n: number, at: Date) =>
  t.app.ctx.db.execute(sql`
    INSERT INTO events (domain_uuid, kind, url, device, ts)
    SELECT ${domainUuid}::uuid, 'pageview', 'https://loja.com.br/' || g, 'desktop', ${at}::timestamptz
    FROM generate_series(1, ${n}) AS g`);

const countOf = async (domainUuid: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.app.ctx.db,
        sql`SELECT count(*)::int AS n FROM events WHERE domain_uuid = ${domainUuid}::uuid`,
      )
    )[0]!.n,
  );

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  const stranger = await signUpAndSignIn(t.app);
  short = await createDomain(t.app, owner, 'Curta', 'https://curta-retencao.com.br');
  standard = await createDomain(t.app, owner, 'Padrão', 'https://padrao-retencao.com.br');
  foreign = await createDomain(t.app, stranger, 'Outra', 'https://outra-retencao.com.br');
  t.clock.set(NOW);
});
afterAll(() => t.close());

it('is 13 months by default and edited with the domain, 1 to 120 months', async () => {
  const list = await call(t.app, 'GET', `/api/domain/list/${owner.company.uuid}`, undefined, owner.token);
  expect(list.body.data.every((d: { retention_months: number }) => d.retention_months === 13)).toBe(true);

  const edit = (retention_months: unknown) =>
    call(
      t.app,
      'PUT',
      `/api/domain/update/${short.uuid}`,
      { domain: { name: 'Curta', address: 'https://curta-retencao.com.br', retention_months } },
      owner.token,
    );
  for (const bad of [0, 121, 2.5, '3']) {
    const res = await edit(bad);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^(Informe a retenção em meses, de 1 a 120\.|Os dados enviados são inválidos\.)/);
  }
  const res = await edit(1);
  expect(res.status).toBe(200);
  expect(res.body.data.retention_months).toBe(1);
  // Editing name and address without it keeps the setting.
  await call(
    t.app,
    'PUT',
    `/api/domain/update/${short.uuid}`,
    { domain: { name: 'Curta 2', address: 'https://curta-retencao.com.br' } },
    owner.token,
  );
  const after = await call(t.app, 'GET', `/api/domain/list/${owner.company.uuid}`, undefined, owner.token);
  expect(after.body.data.find((d: { uuid: string }) => d.uuid === short.uuid).retention_months).toBe(1);
  // Another company's domain cannot be edited.
  const foreignEdit = await call(
    t.app,
    'PUT',
    `/api/domain/update/${foreign.uuid}`,
    { domain: { name: 'X', address: 'https://outra-retencao.com.br', retention_months: 1 } },
    owner.token,
  );
  expect(foreignEdit.status).toBe(404);
});

it('removes events older than each domain retention, in bounded statements, and keeps the rest', async () => {
  await seed(short.uuid, 120, monthsAgo(2)); // past 1 month: removed
  await seed(short.uuid, 7, monthsAgo(0, 10)); // 10 days old: kept
  await seed(standard.uuid, 60, monthsAgo(14)); // past 13 months: removed
  await seed(standard.uuid, 9, monthsAgo(12)); // 12 months old: kept
  await seed(foreign.uuid, 11, monthsAgo(2)); // 13 months by default: kept
  await seed(foreign.uuid, 4, monthsAgo(24)); // removed, from its own retention

  const batches: number[] = [];
  const result = await purgeExpiredEvents(t.app.ctx, { batchRows: 50, pauseMs: 0, onBatch: (_, n) => batches.push(n) });
  expect(result.deleted).toBe(184);
  expect(Math.max(...batches)).toBeLessThanOrEqual(50);
  // 120 rows take three statements (50, 50, 20); 60 take two; 4 take one.
  expect(batches.filter((n) => n > 0)).toEqual(expect.arrayContaining([50, 50, 20, 50, 10, 4]));
  expect(await countOf(short.uuid)).toBe(7);
  expect(await countOf(standard.uuid)).toBe(9);
  expect(await countOf(foreign.uuid)).toBe(11);

  // A second run finds nothing more.
  expect((await purgeExpiredEvents(t.app.ctx, { pauseMs: 0 })).deleted).toBe(0);
});

it('runs as a daily job that schedules its next run and forgets old erasures', async () => {
  await seed(short.uuid, 3, monthsAgo(3));
  await t.app.ctx.db.execute(sql`
    INSERT INTO person_erasures (domain_uuid, visitor_hash, erased_at) VALUES
      (${short.uuid}::uuid, 'antigo', ${monthsAgo(2)}), (${short.uuid}::uuid, 'recente', ${monthsAgo(0, 3)})`);

  await t.app.engine.jobs.run('retention.purge', { at: NOW.toISOString() });
  expect(await countOf(short.uuid)).toBe(7);
  const hashes = await queryRows<{ visitor_hash: string }>(t.app.ctx.db, sql`SELECT visitor_hash FROM person_erasures`);
  expect(hashes.map((h) => h.visitor_hash)).toEqual(['recente']);

  const waiting = await t.app.engine.jobs.waiting('retention.purge');
  expect(waiting.map((j) => j.startAfter.toISOString())).toContain('2026-11-24T06:00:00.000Z');
  expect(nextRetentionRun(new Date('2026-11-24T05:59:00.000Z')).toISOString()).toBe('2026-11-24T06:00:00.000Z');
  expect(nextRetentionRun(new Date('2026-11-24T06:00:00.000Z')).toISOString()).toBe('2026-11-25T06:00:00.000Z');
});

const partitionOf = async (domainUuid: string) =>
  (
    await queryRows<{ part: string; n: number }>(
      t.app.ctx.db,
      sql`SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM events
          WHERE domain_uuid = ${domainUuid}::uuid GROUP BY 1 ORDER BY 1`,
    )
  ).map((r) => `${r.part}:${r.n}`);

it('drops whole months no domain keeps, leaves to the row purge the months a longer retention still needs', async () => {
  await t.app.ctx.db.execute(sql`DELETE FROM events`);
  // A month older than the partitions: its rows wait in the default partition until the month is created.
  await seed(standard.uuid, 5, new Date('2025-03-10T12:00:00Z'));
  expect(await partitionOf(standard.uuid)).toEqual(['events_default:5']);
  const created = await ensureEventPartitions(t.app.ctx.db, new Date('2025-01-15T00:00:00Z'), 22);
  expect(created).toContain('events_2025_03');
  expect(await partitionOf(standard.uuid)).toEqual(['events_2025_03:5']);

  // short keeps 1 month (cutoff 2026-10-23), standard and foreign 13 (cutoff 2025-10-23).
  await seed(foreign.uuid, 6, new Date('2025-03-20T12:00:00Z')); // March 2025: nobody keeps it, dropped
  await seed(standard.uuid, 4, new Date('2025-10-05T12:00:00Z')); // past standard's cutoff, its month…
  await seed(standard.uuid, 3, new Date('2025-10-28T12:00:00Z')); // …still has kept rows: row purge
  await seed(short.uuid, 8, new Date('2026-06-10T12:00:00Z')); // June 2026: only short's expired rows, dropped
  await seed(short.uuid, 2, new Date('2026-07-10T12:00:00Z')); // July 2026: short's expired rows…
  await seed(foreign.uuid, 1, new Date('2026-07-11T12:00:00Z')); // …beside foreign's kept one: row purge

  const result = await purgeExpiredEvents(t.app.ctx, { pauseMs: 0 });
  expect(result.droppedMonths).toEqual(expect.arrayContaining(['events_2025_03', 'events_2026_06']));
  expect(result.droppedMonths).not.toContain('events_2025_10');
  expect(result.droppedMonths).not.toContain('events_2026_07');
  expect(result.deleted).toBe(6); // standard's 4 of October 2025, short's 2 of July 2026
  expect(await partitionOf(standard.uuid)).toEqual(['events_2025_10:3']);
  expect(await partitionOf(short.uuid)).toEqual([]);
  expect(await partitionOf(foreign.uuid)).toEqual(['events_2026_07:1']);

  // The job keeps the coming months ready (three ahead of the clock).
  await t.app.engine.jobs.run('retention.purge', { at: NOW.toISOString() });
  const names = (await listEventPartitions(t.app.ctx.db)).map((p) => p.name);
  expect(names).toEqual(
    expect.arrayContaining(['events_2026_11', 'events_2026_12', 'events_2027_01', 'events_2027_02']),
  );

  // A range read touches only the months it covers.
  const plan = await queryRows<Record<string, string>>(
    t.app.ctx.db,
    sql`EXPLAIN SELECT count(*) FROM events WHERE domain_uuid = ${foreign.uuid}::uuid
        AND ts >= '2026-07-01T00:00:00Z' AND ts < '2026-08-01T00:00:00Z'`,
  );
  const text = plan.map((r) => Object.values(r).join('')).join('\n');
  expect(text).toContain('events_2026_07');
  expect(text).not.toContain('events_2025_10');
});
