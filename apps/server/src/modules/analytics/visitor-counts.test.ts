import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

/*
 * Issue #30: visitors over a range are distinct visitors of the range, not the sum of each day's. Through the
 * collector and the API, as the dashboard sees them, on both databases.
 */

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const SITE = 'https://contagem-visitantes.com.br';
const TOKYO_SITE = 'https://toquio-visitantes.com.br';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string };
let tokyo: { uuid: string; gero_id: string };

const collect = async (site: string, geroId: string, vid: string, at: string, events: object[], ua = CHROME) => {
  t.clock.set(at);
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: site, 'user-agent': ua },
    payload: JSON.stringify({ id: geroId, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};
const visit = (vid: string, at: string, events: object[], ua = CHROME) =>
  collect(SITE, domain.gero_id, vid, at, events, ua);
const data = async (path: string) => {
  const res = await call(t.app, 'GET', `/api/analytics/${path}`, undefined, owner.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Contagem', SITE);
  tokyo = await createDomain(t.app, owner, 'Tóquio', TOKYO_SITE);
  // Noon in São Paulo on 1, 2 and 3 June: Ana every day (desktop), Bia on the 2nd on her phone and on the 3rd on a
  // desktop, Caio once; Ana and Caio add to the cart.
  const pv = { t: 'pv', u: `${SITE}/` };
  const cart = { t: 'ev', c: 'carrinho' };
  await visit('ana', '2026-06-01T15:00:00Z', [pv, cart]);
  await visit('ana', '2026-06-02T15:00:00Z', [pv, cart]);
  await visit('bia', '2026-06-02T15:01:00Z', [pv], IPHONE);
  await visit('ana', '2026-06-03T15:00:00Z', [pv, cart]);
  await visit('bia', '2026-06-03T15:01:00Z', [pv]);
  await visit('caio', '2026-06-03T15:02:00Z', [pv, cart]);
});
afterAll(() => t.close());

const RANGE = 'start=2026-06-01&end=2026-06-03';

it('counts a visitor who came on three days of the range once', async () => {
  expect(await data(`${domain.uuid}/count/visitors?${RANGE}`)).toMatchObject({ count: 3, previous: 0 });
  expect(await data(`${domain.uuid}/count/visitors?start=2026-06-03&end=2026-06-03`)).toMatchObject({
    count: 3,
    previous: 2,
  });
  const categories = await data(`${domain.uuid}/visitors/category?${RANGE}`);
  expect(categories.map((c: { parent_category: string; amount: number }) => [c.parent_category, c.amount])).toEqual([
    ['carrinho', 2],
  ]);
  // The event's per-day chart still counts each day's visitors.
  expect(
    await data(`event/${categories[0].category_uuid}/${domain.uuid}/count/dailyPeopleImpacted?period=3&end=2026-06-03`),
  ).toEqual([
    { date: '2026-06-01', amount: 1 },
    { date: '2026-06-02', amount: 1 },
    { date: '2026-06-03', amount: 2 },
  ]);
});

it("adds a range's visitors by device up to at most its visitors, each visitor under one device", async () => {
  const devices: { device: string; amount: number }[] = await data(`${domain.uuid}/visitors/device?${RANGE}`);
  const { count } = await data(`${domain.uuid}/count/visitors?${RANGE}`);
  expect(devices.reduce((n, d) => n + d.amount, 0)).toBeLessThanOrEqual(count);
  // Bia used a phone and a desktop: she counts once, under the device most visitors used.
  expect(devices).toEqual([
    { device: 'desktop', amount: 3 },
    { device: 'mobile', amount: 0 },
  ]);
  expect(await data(`${domain.uuid}/visitors/device?start=2026-06-02&end=2026-06-02`)).toEqual([
    { device: 'desktop', amount: 1 },
    { device: 'mobile', amount: 1 },
  ]);
});

it("counts each domain's days in its own time zone", async () => {
  const set = await call(
    t.app,
    'PUT',
    `/api/domain/update/${tokyo.uuid}`,
    { domain: { timezone: 'Asia/Tokyo' } },
    owner.token,
  );
  expect(set.status).toBe(200);
  // 20:00 UTC on 10 June: still the 10th in São Paulo, already the 11th in Tokyo.
  await collect(TOKYO_SITE, tokyo.gero_id, 'kenji', '2026-06-10T20:00:00Z', [{ t: 'pv', u: `${TOKYO_SITE}/` }]);
  await visit('ana', '2026-06-10T20:00:00Z', [{ t: 'pv', u: `${SITE}/` }]);
  const card = (uuid: string, which: string, day: string) =>
    data(`${uuid}/count/${which}?start=${day}&end=${day}`).then((x) => x.count);
  expect(await card(tokyo.uuid, 'visits', '2026-06-11')).toBe(1);
  expect(await card(tokyo.uuid, 'visitors', '2026-06-11')).toBe(1);
  expect(await card(tokyo.uuid, 'visits', '2026-06-10')).toBe(0);
  expect(await card(domain.uuid, 'visits', '2026-06-10')).toBe(1);
});
