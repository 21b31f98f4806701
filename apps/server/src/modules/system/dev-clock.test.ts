import { randomUUID } from 'node:crypto';
import { devClockMessages, msg } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocks,
  call,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../../../test/harness.ts';
import { PROXY_HEADERS } from '../../../test/proxy-headers.ts';
import { type PushService, startPushService } from '../../../test/push-service.ts';
import { loadConfig } from '../../config.ts';

/*
 * The demonstration clock (DEMO_CLOCK=1): `npm run demo` moves the server's clock back through the last 30 days
 * while it sends history through the collector. It exists only in development, answers only this machine, and
 * what happens while it is moved lands on the days it says, in every rollup.
 */

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DAY_MS = 86_400_000;
const saoPauloDay = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(at);

const pushBlock = (title: string, site: string) => ({
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_NOTIFICATION',
      name: title,
      title,
      message: 'Frete grátis no primeiro pedido.',
      icon_uri: `${site}/icone.png`,
      redirect_uri: `${site}/ofertas`,
    },
  ],
});

const putClock = (t: TestApp, at: string | null, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/dev/clock',
    remoteAddress,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ clock: { at } }),
  });
const getClock = (t: TestApp, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/dev/clock', remoteAddress, headers });

describe('demonstration clock, with DEMO_CLOCK=1 in development', () => {
  let t: TestApp;
  let push: PushService;
  let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
  let domain: { uuid: string; gero_id: string };
  const root = 'https://loja-relogio.com.br';

  beforeAll(async () => {
    // The engine works in this process, as in `npm run demo`: the clock's move sends what came due.
    t = await createTestApp(
      { nodeEnv: 'development', demoClock: true, authRateLimit: 1000, allowPrivateFetch: true },
      {
        engine: { work: true },
      },
    );
    push = await startPushService();
    owner = await signUpAndSignIn(t.app);
    domain = await createDomain(t.app, owner, 'Loja do relógio', root);
  });
  afterAll(async () => {
    await putClock(t, null);
    await t.close();
    await push.close();
  });

  const collect = async (vid: string | undefined, events: object[]) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain', origin: root, 'user-agent': CHROME },
      payload: JSON.stringify({ id: domain.gero_id, ...(vid ? { vid } : {}), e: events }),
    });
    expect(res.statusCode, res.body).toBe(202);
  };
  const analytics = async (path: string) => {
    const res = await call(t.app, 'GET', `/api/analytics/${domain.uuid}/${path}`, undefined, owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  it('moves back, answers where it stands, and gives the real clock back', async () => {
    const at = new Date(Date.now() - 12 * DAY_MS);
    const moved = await putClock(t, at.toISOString());
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().message).toBe(devClockMessages.moved);
    const state = (await getClock(t)).json().data;
    expect(state.shifted).toBe(true);
    expect(Math.abs(new Date(state.now).getTime() - at.getTime())).toBeLessThan(60_000);

    const reset = await putClock(t, null);
    expect(reset.json()).toMatchObject({ message: devClockMessages.reset, data: { shifted: false } });
    expect(Math.abs(new Date(reset.json().data.now).getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('refuses the future and a malformed instant, in pt-BR', async () => {
    const future = await putClock(t, new Date(Date.now() + DAY_MS).toISOString());
    expect(future.statusCode).toBe(400);
    expect(future.json()).toEqual({ message: devClockMessages.future, code: 'DEV_CLOCK_FUTURE' });
    const garbage = await putClock(t, 'ontem à tarde');
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().message).toBe(devClockMessages.invalid);
    expect((await getClock(t)).json().data.shifted).toBe(false);
  });

  it('what arrives and is sent while it is moved lands on that day: page views, opt-ins, deliveries, views, clicks', async () => {
    const tenDaysAgo = new Date(Date.now() - 10 * DAY_MS);
    const day = saoPauloDay(tenDaysAgo);
    expect((await putClock(t, tenDaysAgo.toISOString())).statusCode).toBe(200);
    const m = await createMomentum(t.app, owner, domain.uuid, 'Boas-vindas do relógio', [
      blocks.everyone,
      blocks.pageviewContaining('/produto'),
      pushBlock('Que bom te ver', root),
    ]);
    const vid = `v-${randomUUID()}`;
    const sub = push.newSubscription();
    await collect(vid, [{ t: 'optin', s: sub.subscription }]);
    await collect(vid, [{ t: 'pv', u: `${root}/produto/tenis` }]);
    // The move stores what arrived, matches it and sends what came due, all at the old instant.
    expect((await putClock(t, new Date(tenDaysAgo.getTime() + 60_000).toISOString())).statusCode).toBe(200);
    const received = push.received.filter((r) => r.endpoint === sub.subscription.endpoint);
    expect(received).toHaveLength(1);
    const deliveryId = (received[0]!.payload as { delivery_id: string }).delivery_id;
    await collect(undefined, [{ t: 'viewed', d: deliveryId }]);
    await collect(undefined, [{ t: 'clicked', d: deliveryId }]);
    await collect(vid, [{ t: 'cv', v: 199.9, o: `PED-${randomUUID()}` }]);
    expect((await putClock(t, null)).statusCode).toBe(200);

    const range = `start=${day}&end=${day}`;
    expect(await analytics(`count/visits?${range}`)).toMatchObject({ count: 1 });
    expect(await analytics(`optins/daily?${range}`)).toEqual([{ date: day, optins: 1, optouts: 0 }]);
    expect(await analytics(`momentums/daily?${range}`)).toEqual([
      expect.objectContaining({
        date: day,
        momentum_uuid: m.uuid,
        notifications_sent: 1,
        notifications_viewed: 1,
        notifications_clicked: 1,
      }),
    ]);
    const [performance] = await analytics(`momentums/performance?${range}`);
    expect(performance).toMatchObject({ momentum_uuid: m.uuid, not_convertion: 1, not_convertion_profit: 199.9 });
    // Nothing of it landed today.
    const today = saoPauloDay(new Date());
    expect(await analytics(`count/visits?start=${today}&end=${today}`)).toMatchObject({ count: 0 });
    expect(await analytics(`momentums/daily?start=${today}&end=${today}`)).toEqual([]);
  });

  it('a timed job that comes due on the moved clock runs when the clock passes it: a daily recurrence, day by day', async () => {
    const target = await createDomain(t.app, owner, 'Loja recorrente', 'https://recorrente-relogio.com.br');
    const start = new Date(Date.now() - 20 * DAY_MS);
    expect((await putClock(t, start.toISOString())).statusCode).toBe(200);
    const vid = `v-${randomUUID()}`;
    const sub = push.newSubscription();
    const res = await t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain', origin: 'https://recorrente-relogio.com.br', 'user-agent': CHROME },
      payload: JSON.stringify({ id: target.gero_id, vid, e: [{ t: 'optin', s: sub.subscription }] }),
    });
    expect(res.statusCode).toBe(202);
    const m = await createMomentum(t.app, owner, target.uuid, 'Ofertas da semana', [
      blocks.everyone,
      {
        type: 'trigger',
        values: [{ filter: 'recurrence', comparation: 'daily', value: [], hours: '10:30', dischargeIn: [] }],
      },
      pushBlock('Ofertas da semana', 'https://recorrente-relogio.com.br'),
    ]);
    // Three days on, in steps: each step passes one 10:30 in São Paulo, and each sends once.
    for (let i = 1; i <= 3; i++) {
      expect((await putClock(t, new Date(start.getTime() + i * DAY_MS).toISOString())).statusCode).toBe(200);
    }
    expect(push.received.filter((r) => r.endpoint === sub.subscription.endpoint)).toHaveLength(3);
    expect((await putClock(t, null)).statusCode).toBe(200);
    const first = saoPauloDay(start);
    const last = saoPauloDay(new Date(start.getTime() + 3 * DAY_MS));
    const daily = await call(
      t.app,
      'GET',
      `/api/analytics/momentum/${m.uuid}/count/dailyPeopleImpacted?start=${first}&end=${last}`,
      undefined,
      owner.token,
    );
    expect(daily.status, JSON.stringify(daily.body)).toBe(200);
    const sent = (daily.body.data as { date: string; notifications_sent: number }[]).map((d) => d.notifications_sent);
    expect(sent).toHaveLength(4);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(3);
    expect(Math.max(...sent)).toBe(1);
  });

  it('is not answered to another machine, whatever X-Forwarded-For claims, nor through a proxy here', async () => {
    const cases: [string, Record<string, string>][] = [
      ['203.0.113.7', {}],
      ['10.0.0.8', {}],
      ['::ffff:192.168.0.10', {}],
      ['203.0.113.7', { 'x-forwarded-for': '127.0.0.1' }],
      ['127.0.0.1', { 'x-forwarded-for': '203.0.113.7' }],
      ['127.0.0.1', { forwarded: 'for=203.0.113.7' }],
      ...PROXY_HEADERS.map((headers): [string, Record<string, string>] => ['127.0.0.1', headers]),
    ];
    for (const [address, headers] of cases) {
      const res = await putClock(t, new Date(Date.now() - DAY_MS).toISOString(), address, headers);
      expect(res.statusCode, `${address} ${JSON.stringify(headers)}`).toBe(404);
      expect(res.json()).toEqual({ message: msg.common.routeNotFound, code: 'ROUTE_NOT_FOUND' });
      expect((await getClock(t, address, headers)).statusCode).toBe(404);
    }
    expect((await getClock(t)).json().data.shifted).toBe(false);
  });
});

describe('demonstration clock elsewhere', () => {
  it('is refused at start-up with NODE_ENV=production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO_CLOCK: '1', SECRET_KEY: 'k'.repeat(43) })).toThrow(
      /DEMO_CLOCK=1 não é aceito com NODE_ENV=production/,
    );
  });

  it('does not exist in production even when the flag slips through, not even for this machine', async () => {
    const t = await createTestApp({ nodeEnv: 'production', demoClock: true, authRateLimit: 1000 });
    try {
      const res = await putClock(t, new Date(Date.now() - DAY_MS).toISOString());
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: msg.common.routeNotFound, code: 'ROUTE_NOT_FOUND' });
      expect((await getClock(t)).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('is off behind a reverse proxy (TRUST_PROXY), even for a request from this machine without proxy headers', async () => {
    const t = await createTestApp({ nodeEnv: 'development', demoClock: true, trustProxy: true, authRateLimit: 1000 });
    try {
      expect((await putClock(t, new Date(Date.now() - DAY_MS).toISOString())).statusCode).toBe(404);
      expect((await getClock(t)).statusCode).toBe(404);
      expect(t.app.ctx.clock.now().getTime()).toBeGreaterThan(Date.now() - 60_000);
    } finally {
      await t.close();
    }
  });

  it('does not exist without DEMO_CLOCK=1 (development, this machine)', async () => {
    const t = await createTestApp({ nodeEnv: 'development', authRateLimit: 1000 });
    try {
      expect((await putClock(t, new Date(Date.now() - DAY_MS).toISOString())).statusCode).toBe(404);
      expect((await getClock(t)).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
