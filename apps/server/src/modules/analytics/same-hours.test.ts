import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

/**
 * Issue #29: the default 'today' view compared a partial day with the whole of yesterday (about −96 % every
 * morning). A range that reaches today is compared with the previous period up to the same time.
 */
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SITE = 'https://loja-mesma-hora.com.br';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string };

const collect = async (vid: string, pages: number) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': CHROME },
    payload: JSON.stringify({
      id: domain.gero_id,
      vid,
      e: Array.from({ length: pages }, (_, i) => ({ t: 'pv', u: `${SITE}/p${i}` })),
    }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};
const data = async (path: string) => {
  const res = await call(t.app, 'GET', `/api/analytics/${domain.uuid}${path}`, undefined, owner.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja', SITE);
  // Yesterday (9 March, São Paulo, UTC−3): 08:00 two visitors, 3 page views; 20:00 another, 10 page views.
  t.clock.set('2026-03-09T11:00:00Z');
  await collect('ana', 2);
  await collect('bia', 1);
  t.clock.set('2026-03-09T23:00:00Z');
  await collect('caio', 10);
  // Today, 10 March, 09:00: one visitor, 4 page views.
  t.clock.set('2026-03-10T12:00:00Z');
  await collect('duda', 4);
});
afterAll(() => t.close());

describe('comparison with the previous period', () => {
  it('compares today so far with yesterday until the same time, and says until when', async () => {
    expect(await data('/count/visits?start=2026-03-10&end=2026-03-10')).toEqual({
      count: 4,
      previous: 3,
      previous_until: '2026-03-09T12:00:00.000Z',
    });
    expect(await data('/count/visitors?start=2026-03-10&end=2026-03-10')).toEqual({
      count: 1,
      previous: 2,
      previous_until: '2026-03-09T12:00:00.000Z',
    });
  });

  it('cuts a longer range that reaches today at the same point of its previous period', async () => {
    // 9–10 March so far, against 7 March whole and 8 March until 09:00: nothing then.
    expect(await data('/count/visits?start=2026-03-09&end=2026-03-10')).toEqual({
      count: 17,
      previous: 0,
      previous_until: '2026-03-08T12:00:00.000Z',
    });
  });

  it('compares a range that has ended with its whole previous period', async () => {
    t.clock.set('2026-03-11T12:00:00Z');
    try {
      expect(await data('/count/visits?start=2026-03-10&end=2026-03-10')).toEqual({ count: 4, previous: 13 });
      expect(await data('/count/visitors?start=2026-03-10&end=2026-03-10')).toEqual({ count: 1, previous: 3 });
    } finally {
      t.clock.set('2026-03-10T12:00:00Z');
    }
  });
});
