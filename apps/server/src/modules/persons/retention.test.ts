import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
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
