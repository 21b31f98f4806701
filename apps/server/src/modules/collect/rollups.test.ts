import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const SITE = 'https://loja-rollup.com.br';

let t: TestApp;
let domain: { uuid: string; gero_id: string };

beforeAll(async () => {
  t = await createTestApp();
  const owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Rollup', SITE);
});
afterAll(() => t.close());

const collect = (vid: string, ua: string, e: object[]) =>
  t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': ua },
    payload: JSON.stringify({ id: domain.gero_id, vid, e }),
  });

it('keeps the daily counters and visitors analytics reads, in the São Paulo day', async () => {
  // 01:30 UTC on the 23rd is still the 22nd in São Paulo.
  t.clock.set('2026-11-23T01:30:00.000Z');
  await collect('ana', CHROME, [
    { t: 'pv', u: `${SITE}/` },
    { t: 'pv', u: `${SITE}/produto/1` },
    { t: 'ev', c: 'compra', p: { valor: 10 } },
  ]);
  await collect('bia', IPHONE, [{ t: 'pv', u: `${SITE}/produto/1` }]);
  await collect('ana', CHROME, [{ t: 'pv', u: `${SITE}/` }]);
  await t.app.ingestor.drain();

  const stats = await queryRows<{ day: string; dimension: string; value: string; count: number }>(
    t.app.ctx.db,
    sql`SELECT day::text, dimension, value, count::int FROM daily_stats WHERE domain_uuid = ${domain.uuid}::uuid
        ORDER BY dimension, value`,
  );
  const of = (dimension: string, value = '') => stats.find((s) => s.dimension === dimension && s.value === value);
  expect(new Set(stats.map((s) => s.day))).toEqual(new Set(['2026-11-22']));
  expect(of('pageviews')?.count).toBe(4);
  expect(of('page:desktop', `${SITE}/`)?.count).toBe(2);
  expect(of('page:desktop', `${SITE}/produto/1`)?.count).toBe(1);
  expect(of('page:mobile', `${SITE}/produto/1`)?.count).toBe(1);
  expect(of('event', 'compra')?.count).toBe(1);

  const visitors = await queryRows<{ n: number }>(
    t.app.ctx.db,
    sql`SELECT count(*)::int AS n FROM daily_visitors WHERE domain_uuid = ${domain.uuid}::uuid AND day = '2026-11-22'`,
  );
  expect(visitors[0]!.n).toBe(2);
});
