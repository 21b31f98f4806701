import { randomUUID } from 'node:crypto';
import { analyticsMessages } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const SITE = 'https://loja-analytics.com.br';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string };
let promo: { uuid: string };
let carrinho: string;

const collect = async (vid: string, events: object[], ua = CHROME) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': ua },
    payload: JSON.stringify({ id: domain.gero_id, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};
const pv = (path: string) => ({ t: 'pv', u: `${SITE}${path}` });
const api = async (path: string, token = owner.token) => call(t.app, 'GET', `/api/analytics/${path}`, undefined, token);
const data = async (path: string) => {
  const res = await api(path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const dispatchAll = async () => {
  while ((await t.app.engine.dispatchDue()) > 0);
};
const deliveryOf = async (vid: string) =>
  (
    await queryRows<{ id: string; status: string }>(
      t.app.ctx.db,
      sql`SELECT d.id, d.status FROM deliveries d JOIN persons p ON p.uuid = d.person_uuid
          WHERE p.visitor_id = ${vid} AND d.momentum_uuid = ${promo.uuid}::uuid`,
    )
  )[0];

const BOTH_DAYS = 'start=2026-03-09&end=2026-03-10';

/**
 * A hand-computed fixture: two São Paulo days split by midnight (UTC-3), a desktop and a mobile visitor, events,
 * opt-in then opt-out, an on-site momentum whose deliveries end sent, viewed+clicked and still queued, a cart
 * access and conversions with a repeated order_id.
 */
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja Analytics', SITE);
  const settings = await call(
    t.app,
    'PUT',
    `/api/analytics/${domain.uuid}/settings`,
    { settings: { cart_url: '/carrinho' } },
    owner.token,
  );
  expect(settings.status).toBe(200);
  expect(settings.body.message).toBe(analyticsMessages.settingsSaved);
  const created = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    {
      domain_uuid: domain.uuid,
      type: 'momentum',
      momentum_title: 'Promoção relâmpago',
      status: 'Active',
      momentums: [blocks.everyone, blocks.pageviewContaining('/promo'), blocks.topbar()],
    },
    owner.token,
  );
  expect(created.status).toBe(200);
  promo = created.body.data;
  const draft = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    {
      domain_uuid: domain.uuid,
      type: 'momentum',
      momentum_title: 'Rascunho',
      status: 'Draft',
      momentums: [blocks.everyone, blocks.pageviewContaining('/nunca'), blocks.topbar()],
    },
    owner.token,
  );
  expect(draft.status).toBe(200);

  // 23:30 on 9 March in São Paulo: the desktop visitor A.
  t.clock.set('2026-03-10T02:30:00Z');
  await collect('ana', [pv('/'), pv('/produto')]);
  // 00:30 on 10 March: A again, the mobile visitor B, events, opt-in then opt-out, an e-mail and a phone.
  t.clock.set('2026-03-10T03:30:00Z');
  await collect('ana', [
    pv('/'),
    { t: 'ev', c: 'carrinho' },
    { t: 'ev', c: 'carrinho' },
    { t: 'ev', c: 'busca' },
    { t: 'id', p: { email: 'ana@exemplo.com.br' } },
  ]);
  await collect(
    'bia',
    [pv('/'), pv('/promo'), { t: 'ev', c: 'carrinho' }, { t: 'id', p: { phone: '11987654321' } }],
    IPHONE,
  );
  const sub = { endpoint: 'https://fcm.googleapis.com/fcm/send/analytics', keys: { p256dh: 'BPk', auth: 'xyz' } };
  await collect('caio', [{ t: 'optin', s: sub }]);
  await collect('caio', [{ t: 'optout' }]);
  await collect('duda', [{ t: 'optin', s: { ...sub, endpoint: `${sub.endpoint}/2` } }]);
  await collect('edu', [pv('/promo')]);
  await dispatchAll();
  // B sees and clicks the message, opens the cart and converts (the same order twice, then another one).
  const bia = await deliveryOf('bia');
  expect(bia?.status).toBe('sent');
  await collect(
    'bia',
    [
      { t: 'viewed', d: bia!.id },
      { t: 'clicked', d: bia!.id },
    ],
    IPHONE,
  );
  await collect('bia', [pv('/carrinho'), pv('/carrinho?passo=2')], IPHONE);
  carrinho = randomUUID();
  await collect('bia', [{ t: 'cv', v: 349.9, o: 'PED-1' }], IPHONE);
  await collect(
    'bia',
    [
      { t: 'cv', v: 349.9, o: 'PED-1' },
      { t: 'cv', v: 50, o: 'PED-2' },
    ],
    IPHONE,
  );
  // A converts without any message: stored, credited to no momentum. F is triggered but not sent yet.
  await collect('ana', [{ t: 'cv', v: 10, o: 'PED-3' }]);
  await collect('fabi', [pv('/promo')]);
});
afterAll(() => t.close());

describe('analytics widgets', () => {
  it('count page views per São Paulo day, with the previous period of the same length', async () => {
    // Two days later, so these ranges have ended and are compared with whole previous periods (same-hours.test.ts
    // covers a range that reaches today).
    t.clock.set('2026-03-12T15:00:00Z');
    onTestFinished(() => t.clock.set('2026-03-10T03:30:00Z'));
    expect(await data(`${domain.uuid}/count/visits?start=2026-03-10&end=2026-03-10`)).toEqual({
      count: 7,
      previous: 2,
    });
    expect(await data(`${domain.uuid}/count/visits?start=2026-03-09&end=2026-03-09`)).toEqual({
      count: 2,
      previous: 0,
    });
    expect(await data(`${domain.uuid}/count/visits?${BOTH_DAYS}`)).toEqual({ count: 9, previous: 0 });
    // Distinct visitors of the range: A on the 9th; A again, B, C, D, E, F on the 10th.
    expect(await data(`${domain.uuid}/count/visitors?${BOTH_DAYS}`)).toEqual({ count: 6, previous: 0 });
  });

  it('list the most viewed pages split into mobile and desktop', async () => {
    const res = await api(`${domain.uuid}/pages/mostViewed?${BOTH_DAYS}&limit=3`);
    expect(res.body.message).toBe('Most viewed pages have been loaded.');
    expect(res.body.data).toEqual([
      { url: `${SITE}/`, mobile: 1, desktop: 2, count: 3 },
      { url: `${SITE}/promo`, mobile: 1, desktop: 2, count: 3 },
      { url: `${SITE}/carrinho`, mobile: 1, desktop: 0, count: 1 },
    ]);
  });

  it('count visitors by event category and by device, and per day for one category', async () => {
    const categories = await data(`${domain.uuid}/visitors/category?${BOTH_DAYS}`);
    expect(categories.map((c: { parent_category: string; amount: number }) => [c.parent_category, c.amount])).toEqual([
      ['carrinho', 2],
      ['busca', 1],
    ]);
    const devices = await data(`${domain.uuid}/visitors/device?${BOTH_DAYS}`);
    expect(devices).toEqual([
      { device: 'desktop', amount: 5 },
      { device: 'mobile', amount: 1 },
    ]);
    const cart = categories[0].category_uuid;
    expect(await data(`event/${cart}/${domain.uuid}/count/dailyPeopleImpacted?period=2&end=2026-03-10`)).toEqual([
      { date: '2026-03-09', amount: 0 },
      { date: '2026-03-10', amount: 2 },
    ]);
  });

  it('show opt-ins and opt-outs per day, and the base by channel', async () => {
    expect(await data(`${domain.uuid}/optins/daily?${BOTH_DAYS}`)).toEqual([
      { date: '2026-03-09', optins: 0, optouts: 0 },
      { date: '2026-03-10', optins: 2, optouts: 1 },
    ]);
    expect(await data(`${domain.uuid}/base/channel?start=2026-03-10&end=2026-03-10`)).toEqual([
      { channel: 'push', amount: 1, new: 1 },
      { channel: 'onsite', amount: 6, new: 5 },
      { channel: 'email', amount: 1, new: 0 },
      { channel: 'sms', amount: 1, new: 1 },
    ]);
  });

  it('measure each momentum: sent, viewed, clicked, CTR, conversions once per order, revenue and cart accesses', async () => {
    expect(await data(`${domain.uuid}/count/momentums?${BOTH_DAYS}`)).toEqual({ active: 1, inactive: 1 });
    expect(await data(`${domain.uuid}/momentums/performance?${BOTH_DAYS}`)).toEqual([
      {
        momentum_uuid: promo.uuid,
        momentum_title: 'Promoção relâmpago',
        type: 'momentum',
        notifications_sent: 2,
        notifications_viewed: 1,
        notifications_clicked: 1,
        notifications_ctr: 50,
        not_convertion: 2,
        not_convertion_profit: 399.9,
        not_cart_access: 1,
        not_cart_access_percent: 50,
      },
    ]);
    expect(await data(`${domain.uuid}/momentums/daily?${BOTH_DAYS}`)).toEqual([
      {
        date: '2026-03-10',
        momentum_uuid: promo.uuid,
        momentum_title: 'Promoção relâmpago',
        notifications_sent: 2,
        notifications_viewed: 1,
        notifications_clicked: 1,
      },
    ]);
    expect(await data(`momentum/${promo.uuid}/count/dailyPeopleImpacted?${BOTH_DAYS}`)).toEqual([
      { date: '2026-03-09', notifications_sent: 0, notifications_viewed: 0, notifications_clicked: 0 },
      { date: '2026-03-10', notifications_sent: 2, notifications_viewed: 1, notifications_clicked: 1 },
    ]);
    const stored = await queryRows<{ order_key: string; momentum_uuid: string | null; value_cents: string }>(
      t.app.ctx.db,
      sql`SELECT order_key, momentum_uuid, value_cents::text FROM conversions WHERE domain_uuid = ${domain.uuid}::uuid
          ORDER BY order_key`,
    );
    expect(stored).toEqual([
      { order_key: 'order:PED-1', momentum_uuid: promo.uuid, value_cents: '34990' },
      { order_key: 'order:PED-2', momentum_uuid: promo.uuid, value_cents: '5000' },
      { order_key: 'order:PED-3', momentum_uuid: null, value_cents: '1000' },
    ]);
    expect(carrinho).toBeTruthy();
  });

  it('count the visitors of the last five minutes', async () => {
    t.clock.set('2026-03-10T03:50:00Z');
    await collect('ana', [pv('/agora')]);
    expect((await data(`${domain.uuid}/count/live`)).count).toBe(1);
  });

  it('keep the conversion settings of the domain', async () => {
    expect(await data(`${domain.uuid}/settings`)).toEqual({ cart_url: '/carrinho' });
  });
});

describe('analytics refuses', () => {
  it('bad ranges and periods with a pt-BR message', async () => {
    const bad = [
      [`${domain.uuid}/count/visits?start=2026-02-30&end=2026-03-01`, analyticsMessages.dateInvalid],
      [`${domain.uuid}/count/visits?start=10/03/2026&end=2026-03-10`, analyticsMessages.dateInvalid],
      [`${domain.uuid}/count/visits?end=2026-03-10`, analyticsMessages.dateInvalid],
      [`${domain.uuid}/count/visits?start=2026-03-10&end=2026-03-09`, analyticsMessages.endBeforeStart],
      [`${domain.uuid}/optins/daily?start=2025-01-01&end=2026-03-10`, analyticsMessages.rangeTooLong],
      [`${domain.uuid}/pages/mostViewed?${BOTH_DAYS}&limit=0`, analyticsMessages.limitInvalid],
      [`event/${randomUUID()}/${domain.uuid}/count/dailyPeopleImpacted?period=0`, analyticsMessages.periodInvalid],
      [`event/${randomUUID()}/${domain.uuid}/count/dailyPeopleImpacted?period=abc`, analyticsMessages.periodInvalid],
    ];
    for (const [path, message] of bad) {
      const res = await api(path!);
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toBe(message);
    }
    const settings = await call(
      t.app,
      'PUT',
      `/api/analytics/${domain.uuid}/settings`,
      { settings: { cart_url: 'x'.repeat(201) } },
      owner.token,
    );
    expect(settings.status).toBe(400);
    expect(settings.body.message).toBe(analyticsMessages.cartRuleInvalid);
  });

  it('another company: every widget answers 404 and settings stay untouched', async () => {
    const paths = [
      `${domain.uuid}/count/visits?${BOTH_DAYS}`,
      `${domain.uuid}/count/visitors?${BOTH_DAYS}`,
      `${domain.uuid}/count/momentums?${BOTH_DAYS}`,
      `${domain.uuid}/count/live`,
      `${domain.uuid}/pages/mostViewed?${BOTH_DAYS}`,
      `${domain.uuid}/visitors/category?${BOTH_DAYS}`,
      `${domain.uuid}/visitors/device?${BOTH_DAYS}`,
      `${domain.uuid}/base/channel?${BOTH_DAYS}`,
      `${domain.uuid}/momentums/performance?${BOTH_DAYS}`,
      `${domain.uuid}/momentums/daily?${BOTH_DAYS}`,
      `${domain.uuid}/optins/daily?${BOTH_DAYS}`,
      `${domain.uuid}/settings`,
      `momentum/${promo.uuid}/count/dailyPeopleImpacted?${BOTH_DAYS}`,
    ];
    for (const path of paths) {
      expect((await api(path, stranger.token)).status, path).toBe(404);
    }
    const categories = await data(`${domain.uuid}/visitors/category?${BOTH_DAYS}`);
    const event = `event/${categories[0].category_uuid}/${domain.uuid}/count/dailyPeopleImpacted?period=2`;
    expect((await api(event, stranger.token)).status).toBe(404);
    const put = await call(
      t.app,
      'PUT',
      `/api/analytics/${domain.uuid}/settings`,
      { settings: { cart_url: '/roubado' } },
      stranger.token,
    );
    expect(put.status).toBe(404);
    expect(await data(`${domain.uuid}/settings`)).toEqual({ cart_url: '/carrinho' });
    expect((await call(t.app, 'GET', `/api/analytics/${domain.uuid}/count/visits?${BOTH_DAYS}`)).status).toBe(401);
  });
});
