import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, freshDatabase, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { type Database, queryRows } from '../db/client.ts';

/*
 * Issue #27 end to end, with the server's clock moved by hand: local-time campaigns to visitors in Brazil's four
 * zones (told by the CDN's geo headers, as the collector keeps them), quiet hours holding and releasing, the
 * throttle's rate, a holiday moving a recurrence, best time. Every message goes out once, across a restart (a new
 * app, and engine, on the same database) in the middle.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MIN = 60_000;

let database: Database;
let closeDatabase: () => Promise<void>;
let push: PushService;
let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
const apps: TestApp[] = [];

const startApp = async () => {
  const app = await createTestApp(
    { authRateLimit: 1000, allowPrivateFetch: true, trustedGeoHeaders: 'cloudflare' },
    { database },
  );
  apps.push(app);
  return app;
};

beforeAll(async () => {
  database = await freshDatabase();
  closeDatabase = database.close;
  database.close = async () => {};
  push = await startPushService();
  t = await startApp();
  owner = await signUpAndSignIn(t.app);
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await closeDatabase();
  await push.close();
});

/** A new app and engine on the same database at the same instant: what a worker restart leaves. */
const restart = async () => {
  const at = t.clock.now();
  await t.app.engine.stop();
  t = await startApp();
  t.clock.set(at);
};

type Site = { uuid: string; gero_id: string; root: string };
const site = async (name: string) => {
  const root = `https://${name.toLowerCase().replaceAll(' ', '-')}-${randomUUID().slice(0, 8)}.com.br`;
  return { ...(await createDomain(t.app, owner, name, root)), root } as Site;
};

const PLACES = {
  saoPaulo: { country: 'BR', region: 'São Paulo', city: 'São Paulo' },
  manaus: { country: 'BR', region: 'Amazonas', city: 'Manaus' },
  rioBranco: { country: 'BR', region: 'Acre', city: 'Rio Branco' },
  noronha: { country: 'BR', region: 'Pernambuco', city: 'Fernando de Noronha' },
};
type Place = (typeof PLACES)[keyof typeof PLACES];

const collect = async (target: Site, vid: string, events: object[], place: Place = PLACES.saoPaulo) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: {
      'content-type': 'text/plain',
      origin: target.root,
      'user-agent': CHROME,
      'cf-ipcountry': place.country,
      'cf-region': encodeURIComponent(place.region),
      'cf-ipcity': encodeURIComponent(place.city),
    },
    payload: JSON.stringify({ id: target.gero_id, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};

/** A visitor who accepted push, somewhere. */
const subscriber = async (target: Site, place: Place = PLACES.saoPaulo) => {
  const vid = `v-${randomUUID()}`;
  const sub = push.newSubscription();
  await collect(target, vid, [{ t: 'optin', s: sub.subscription }], place);
  return { vid, endpoint: sub.subscription.endpoint };
};

const pushBlock = (title: string) => ({
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_NOTIFICATION',
      name: title,
      title,
      message: 'Aproveite hoje.',
      icon_uri: 'https://loja.com.br/icone.png',
      redirect_uri: 'https://loja.com.br/ofertas',
      intervalRecurrency: [],
    },
  ],
});
const everyone = { type: 'filter', values: [{ filter: 'all' }] };

const create = async (target: Site, body: Record<string, unknown>) => {
  const res = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    { domain_uuid: target.uuid, momentum_title: `Item ${randomUUID()}`, status: 'Active', ...body },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.uuid as string;
};

const received = (endpoint: string) => push.received.filter((r) => r.endpoint === endpoint).length;

const deliveriesOf = (momentumUuid: string) =>
  queryRows<{ visitor_id: string; status: string; due_at: string | Date; sent_at: string | Date | null }>(
    database.db,
    sql`SELECT p.visitor_id, d.status, d.due_at, d.sent_at FROM deliveries d JOIN persons p ON p.uuid = d.person_uuid
        WHERE d.momentum_uuid = ${momentumUuid}::uuid ORDER BY d.due_at, p.visitor_id`,
  );
const iso = (v: string | Date) => new Date(v).toISOString();

/** Moves the server's clock to `at` (never back) and runs what came due: timed jobs and sends. */
const moveTo = async (at: string | Date) => {
  await t.app.engine.settle();
  t.clock.set(at);
  await t.app.engine.settle();
};

describe('a local-time campaign', () => {
  it('reaches each of four zones at 10:00 on its own clock, once each, across a restart', async () => {
    // Wednesday 11 March 2026, 08:00 in São Paulo (11:00 UTC): 09:00 in Noronha, 07:00 in Manaus, 06:00 in Acre.
    t.clock.set('2026-03-11T11:00:00Z');
    const target = await site('Loja Fusos');
    const people = {
      noronha: await subscriber(target, PLACES.noronha),
      saoPaulo: await subscriber(target, PLACES.saoPaulo),
      manaus: await subscriber(target, PLACES.manaus),
      rioBranco: await subscriber(target, PLACES.rioBranco),
    };
    // A visitor who never accepted push: one skipped row, no send.
    const unreachable = `v-${randomUUID()}`;
    await collect(target, unreachable, [{ t: 'pv', u: `${target.root}/` }]);
    const uuid = await create(target, {
      type: 'campaign',
      momentums: [everyone, pushBlock('Bom dia!')],
      send_at_local_time: '10:00',
    });
    await moveTo('2026-03-11T11:01:00Z');
    const planned = await deliveriesOf(uuid);
    expect(planned.filter((d) => d.status === 'skipped').map((d) => d.visitor_id)).toEqual([unreachable]);
    const dues = Object.fromEntries(
      planned.filter((d) => d.status !== 'skipped').map((d) => [d.visitor_id, iso(d.due_at)]),
    );
    expect(dues).toEqual({
      [people.noronha.vid]: '2026-03-11T12:00:00.000Z',
      [people.saoPaulo.vid]: '2026-03-11T13:00:00.000Z',
      [people.manaus.vid]: '2026-03-11T14:00:00.000Z',
      [people.rioBranco.vid]: '2026-03-11T15:00:00.000Z',
    });
    const counts = () => Object.values(people).map((p) => received(p.endpoint));
    expect(counts()).toEqual([0, 0, 0, 0]);
    await moveTo('2026-03-11T12:00:00Z');
    expect(counts()).toEqual([1, 0, 0, 0]);
    await moveTo('2026-03-11T13:30:00Z');
    expect(counts()).toEqual([1, 1, 0, 0]);
    await restart();
    await moveTo('2026-03-11T14:00:00Z');
    expect(counts()).toEqual([1, 1, 1, 0]);
    await moveTo('2026-03-11T16:00:00Z');
    await moveTo('2026-03-12T16:00:00Z');
    expect(counts()).toEqual([1, 1, 1, 1]);
    expect((await deliveriesOf(uuid)).map((d) => d.status)).toEqual(['skipped', 'sent', 'sent', 'sent', 'sent']);
  });
});

describe('a recurrence on the visitor’s clock', () => {
  it('reaches each of four zones at 10:00 on its own clock every day, skips Sexta-feira Santa, once each across a restart', async () => {
    // Wednesday 1 April 2026, 18:00 in São Paulo: today's 10:00 has passed everywhere in Brazil, tomorrow's has not.
    t.clock.set('2026-04-01T21:00:00Z');
    const target = await site('Loja Recorrencia Fusos');
    const people = {
      noronha: await subscriber(target, PLACES.noronha),
      saoPaulo: await subscriber(target, PLACES.saoPaulo),
      manaus: await subscriber(target, PLACES.manaus),
      rioBranco: await subscriber(target, PLACES.rioBranco),
    };
    const daily = {
      type: 'trigger',
      regex: false,
      values: [{ filter: 'recurrence', comparation: 'daily', value: [], hours: '10:00', dischargeIn: [] }],
    };
    const uuid = await create(target, {
      type: 'momentum',
      momentums: [everyone, daily, pushBlock('Bom dia')],
      worktime_zone: 'visitor',
      skip_holidays: true,
    });
    await moveTo('2026-04-01T21:01:00Z');
    await moveTo('2026-04-01T21:02:00Z');
    const byPerson = async () => {
      const rows = await deliveriesOf(uuid);
      return Object.fromEntries(
        Object.entries(people).map(([k, p]) => [
          k,
          rows.filter((d) => d.visitor_id === p.vid).map((d) => iso(d.due_at)),
        ]),
      );
    };
    // Thursday's 10:00 on each clock (today's had passed everywhere when it started: nobody gets it late).
    expect(await byPerson()).toEqual({
      noronha: ['2026-04-02T12:00:00.000Z'],
      saoPaulo: ['2026-04-02T13:00:00.000Z'],
      manaus: ['2026-04-02T14:00:00.000Z'],
      rioBranco: ['2026-04-02T15:00:00.000Z'],
    });
    const counts = () => Object.values(people).map((p) => received(p.endpoint));
    await moveTo('2026-04-02T12:00:00Z');
    expect(counts()).toEqual([1, 0, 0, 0]);
    await moveTo('2026-04-02T13:30:00Z');
    expect(counts()).toEqual([1, 1, 0, 0]);
    await restart();
    await moveTo('2026-04-02T15:00:00Z');
    expect(counts()).toEqual([1, 1, 1, 1]);
    // Friday 3 April is Sexta-feira Santa: nobody gets a message that day, nor two on Saturday.
    await moveTo('2026-04-03T18:00:00Z');
    expect(counts()).toEqual([1, 1, 1, 1]);
    await moveTo('2026-04-04T16:00:00Z');
    expect(counts()).toEqual([2, 2, 2, 2]);
    expect(await byPerson()).toEqual({
      noronha: ['2026-04-02T12:00:00.000Z', '2026-04-04T12:00:00.000Z'],
      saoPaulo: ['2026-04-02T13:00:00.000Z', '2026-04-04T13:00:00.000Z'],
      manaus: ['2026-04-02T14:00:00.000Z', '2026-04-04T14:00:00.000Z'],
      rioBranco: ['2026-04-02T15:00:00.000Z', '2026-04-04T15:00:00.000Z'],
    });
    expect((await deliveriesOf(uuid)).every((d) => d.status === 'sent')).toBe(true);
  });
});

describe('the domain’s time zone', () => {
  it('sets the clock of its recurrences and worktime: a domain in Manaus sends at 10:00 and opens at 09:00 there', async () => {
    // Monday 6 April 2026, 07:00 in Manaus (08:00 in São Paulo).
    t.clock.set('2026-04-06T11:00:00Z');
    const target = await site('Loja Manaus');
    const zone = await call(
      t.app,
      'PUT',
      `/api/domain/update/${target.uuid}`,
      { domain: { timezone: 'America/Manaus' } },
      owner.token,
    );
    expect(zone.status).toBe(200);
    const someone = await subscriber(target);
    const tuesdays = {
      type: 'trigger',
      regex: false,
      values: [{ filter: 'recurrence', comparation: 'weekly', value: ['tuesday'], hours: '10:00', dischargeIn: [] }],
    };
    const weekly = await create(target, { type: 'momentum', momentums: [everyone, tuesdays, pushBlock('Terça')] });
    const offer = {
      type: 'trigger',
      regex: false,
      values: [{ filter: 'pageview', comparation: 'contain', value: ['/oferta'], dischargeIn: [] }],
    };
    const office = await create(target, {
      type: 'momentum',
      momentums: [everyone, offer, pushBlock('Oferta')],
      worktime: { weekdays: [1, 2, 3, 4, 5], start_at: '09:00', stop_at: '18:00' },
    });
    // 08:30 in Manaus (09:30 in São Paulo): outside the domain's worktime, held until 09:00 there.
    t.clock.set('2026-04-06T12:30:00Z');
    await collect(target, someone.vid, [{ t: 'pv', u: `${target.root}/oferta` }]);
    await moveTo('2026-04-06T12:31:00Z');
    expect((await deliveriesOf(office)).map((d) => [d.status, iso(d.due_at)])).toEqual([
      ['queued', '2026-04-06T13:00:00.000Z'],
    ]);
    await moveTo('2026-04-06T13:00:00Z');
    expect(received(someone.endpoint)).toBe(1);
    // Tuesday 10:00 in Manaus is 14:00 UTC (11:00 in São Paulo, when nothing goes).
    await moveTo('2026-04-07T13:00:00Z');
    expect(received(someone.endpoint)).toBe(1);
    await moveTo('2026-04-07T14:00:00Z');
    expect((await deliveriesOf(weekly)).map((d) => [d.status, iso(d.due_at)])).toEqual([
      ['sent', '2026-04-07T14:00:00.000Z'],
    ]);
    expect(received(someone.endpoint)).toBe(2);
  });
});

describe('quiet hours', () => {
  it('hold a push due inside the window on the visitor’s clock until its end; on-site messages go', async () => {
    // 23:30 in São Paulo, 21:30 in Acre.
    t.clock.set('2026-03-12T02:30:00Z');
    const target = await site('Loja Silencio');
    expect(
      (
        await call(
          t.app,
          'PUT',
          `/api/domain/update/${target.uuid}`,
          { domain: { quiet_hours: { start: '22:00', end: '08:00' } } },
          owner.token,
        )
      ).status,
    ).toBe(200);
    const pageTrigger = {
      type: 'trigger',
      regex: false,
      values: [{ filter: 'pageview', comparation: 'contain', value: ['/oferta'], dischargeIn: [] }],
    };
    const pushUuid = await create(target, { type: 'momentum', momentums: [everyone, pageTrigger, pushBlock('Oi')] });
    const onsiteUuid = await create(target, {
      type: 'momentum',
      momentums: [
        everyone,
        pageTrigger,
        {
          type: 'dispatcher',
          values: [
            {
              filter: 'SUPERARE_WEBVIEW',
              webview_type: 'topbar',
              webview_mode: 'devices_all',
              webview_props: { topbarContent: 'Frete grátis', topbarBtnText: 'Ver' },
            },
          ],
        },
      ],
    });
    const paulista = await subscriber(target, PLACES.saoPaulo);
    const acreana = await subscriber(target, PLACES.rioBranco);
    await collect(target, paulista.vid, [{ t: 'pv', u: `${target.root}/oferta` }], PLACES.saoPaulo);
    await collect(target, acreana.vid, [{ t: 'pv', u: `${target.root}/oferta` }], PLACES.rioBranco);
    await moveTo('2026-03-12T02:31:00Z');
    expect(received(paulista.endpoint)).toBe(0);
    expect(received(acreana.endpoint)).toBe(1);
    expect((await deliveriesOf(onsiteUuid)).map((d) => d.status)).toEqual(['sent', 'sent']);
    const held = (await deliveriesOf(pushUuid)).find((d) => d.visitor_id === paulista.vid)!;
    expect([held.status, iso(held.due_at)]).toEqual(['queued', '2026-03-12T11:00:00.000Z']);

    await moveTo('2026-03-12T10:59:00Z');
    expect(received(paulista.endpoint)).toBe(0);
    await moveTo('2026-03-12T11:00:00Z');
    expect(received(paulista.endpoint)).toBe(1);
    await moveTo('2026-03-12T12:00:00Z');
    expect([received(paulista.endpoint), received(acreana.endpoint)]).toEqual([1, 1]);
  });
});

describe('the throttle', () => {
  it('sends a campaign at its rate per minute, evenly, each person once, across a restart', async () => {
    t.clock.set('2026-03-13T15:00:00Z');
    const target = await site('Loja Vazao');
    const people: { vid: string; endpoint: string }[] = [];
    for (let i = 0; i < 24; i++) people.push(await subscriber(target));
    const uuid = await create(target, {
      type: 'campaign',
      momentums: [everyone, pushBlock('Liquidação')],
      throttle_per_minute: 6,
    });
    await moveTo(new Date(t.clock.now().getTime() + 1000));
    const dues = (await deliveriesOf(uuid)).map((d) => new Date(d.due_at).getTime());
    // From the activation on (the clock flows while the test subscribes people), one every 10 s.
    const start = dues[0]!;
    expect(start - new Date('2026-03-13T15:00:00Z').getTime()).toBeLessThan(MIN);
    expect(dues.map((d) => (d - start) / 1000)).toEqual(Array.from({ length: 24 }, (_, i) => i * 10));
    const sent = () => people.reduce((n, p) => n + received(p.endpoint), 0);
    expect(sent()).toBe(1);
    await moveTo(new Date(start + MIN - 1000));
    expect(sent()).toBe(6);
    await moveTo(new Date(start + 2 * MIN - 1000));
    expect(sent()).toBe(12);
    await restart();
    await moveTo(new Date(start + 3 * MIN - 1000));
    expect(sent()).toBe(18);
    // The expected end: 23 gaps of 10 s after the start.
    await moveTo(new Date(start + 230_000));
    expect(sent()).toBe(24);
    for (const p of people) expect(received(p.endpoint)).toBe(1);
  });
});

describe('the throttle and the worktime', () => {
  it('spreads a campaign created before its worktime from the opening, instead of sending all at once then', async () => {
    // Friday 13 March 2026, 07:00 in São Paulo; the worktime opens at 09:00 (12:00 UTC).
    t.clock.set('2026-03-13T10:00:00Z');
    const target = await site('Loja Vazao Expediente');
    const people: { vid: string; endpoint: string }[] = [];
    for (let i = 0; i < 6; i++) people.push(await subscriber(target));
    const uuid = await create(target, {
      type: 'campaign',
      momentums: [everyone, pushBlock('Bom dia')],
      throttle_per_minute: 6,
      worktime: { weekdays: [1, 2, 3, 4, 5], start_at: '09:00', stop_at: '18:00' },
    });
    await moveTo(new Date(t.clock.now().getTime() + 1000));
    const dues = (await deliveriesOf(uuid)).map((d) => new Date(d.due_at).getTime());
    const opening = new Date('2026-03-13T12:00:00Z').getTime();
    const first = dues[0]!;
    expect(first - opening).toBeGreaterThanOrEqual(0);
    expect(first - opening).toBeLessThan(10_000);
    expect(dues.map((d) => (d - first) / 1000)).toEqual([0, 10, 20, 30, 40, 50]);
    const sent = () => people.reduce((n, p) => n + received(p.endpoint), 0);
    await moveTo(new Date(opening - MIN));
    expect(sent()).toBe(0);
    await moveTo(new Date(first + 25_000));
    expect(sent()).toBe(3);
    await moveTo(new Date(first + 50_000));
    expect(sent()).toBe(6);
    for (const p of people) expect(received(p.endpoint)).toBe(1);
  });

  it('spreads what page views start outside a momentum’s worktime from its opening', async () => {
    // Monday 16 March 2026, 07:00 in São Paulo; the worktime opens at 09:00 (12:00 UTC).
    t.clock.set('2026-03-16T10:00:00Z');
    const target = await site('Loja Vazao Manha');
    const offer = {
      type: 'trigger',
      regex: false,
      values: [{ filter: 'pageview', comparation: 'contain', value: ['/oferta'], dischargeIn: [] }],
    };
    const uuid = await create(target, {
      type: 'momentum',
      momentums: [everyone, offer, pushBlock('Bom dia')],
      throttle_per_minute: 6,
      worktime: { weekdays: [1, 2, 3, 4, 5], start_at: '09:00', stop_at: '18:00' },
    });
    const people: { vid: string; endpoint: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const p = await subscriber(target);
      await collect(target, p.vid, [{ t: 'pv', u: `${target.root}/oferta` }]);
      people.push(p);
    }
    expect((await deliveriesOf(uuid)).map((d) => iso(d.due_at))).toEqual([
      '2026-03-16T12:00:00.000Z',
      '2026-03-16T12:00:10.000Z',
      '2026-03-16T12:00:20.000Z',
      '2026-03-16T12:00:30.000Z',
    ]);
    const sent = () => people.reduce((n, p) => n + received(p.endpoint), 0);
    await moveTo('2026-03-16T11:59:00Z');
    expect(sent()).toBe(0);
    await moveTo('2026-03-16T12:00:15Z');
    expect(sent()).toBe(2);
    await moveTo('2026-03-16T12:00:30Z');
    expect(sent()).toBe(4);
  });
});

describe('the throttle on a momentum', () => {
  it('spreads the sends page views start at its rate, batch after batch, each person once, across a restart', async () => {
    t.clock.set('2026-03-16T15:00:00Z');
    const target = await site('Loja Vazao Momento');
    const people: { vid: string; endpoint: string }[] = [];
    for (let i = 0; i < 8; i++) people.push(await subscriber(target));
    const offer = {
      type: 'trigger',
      regex: false,
      values: [{ filter: 'pageview', comparation: 'contain', value: ['/oferta'], dischargeIn: [] }],
    };
    const uuid = await create(target, {
      type: 'momentum',
      momentums: [everyone, offer, pushBlock('Só hoje')],
      throttle_per_minute: 6,
    });
    // Eight views, each its own collect (its own matched batch), within a few seconds.
    for (const p of people) await collect(target, p.vid, [{ t: 'pv', u: `${target.root}/oferta` }]);
    // Someone already given the momentum views again: no second send, and no slot taken from the others.
    await collect(target, people[0]!.vid, [{ t: 'pv', u: `${target.root}/oferta?de-novo` }]);
    const dues = (await deliveriesOf(uuid)).map((d) => new Date(d.due_at).getTime());
    const start = dues[0]!;
    expect(dues.map((d) => (d - start) / 1000)).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
    const sent = () => people.reduce((n, p) => n + received(p.endpoint), 0);
    await moveTo(new Date(start + 35_000));
    expect(sent()).toBe(4);
    await restart();
    // A view after the restart waits behind the eight.
    const late = await subscriber(target);
    await collect(target, late.vid, [{ t: 'pv', u: `${target.root}/oferta` }]);
    const lateDue = (await deliveriesOf(uuid)).find((d) => d.visitor_id === late.vid)!;
    expect(new Date(lateDue.due_at).getTime() - start).toBe(80_000);
    await moveTo(new Date(start + 75_000));
    expect(sent()).toBe(8);
    expect(received(late.endpoint)).toBe(0);
    await moveTo(new Date(start + 80_000));
    expect(received(late.endpoint)).toBe(1);
    for (const p of people) expect(received(p.endpoint)).toBe(1);
    // Once the queue is empty, a view is sent at once: the limit spaces sends, it does not delay a lone one.
    await moveTo(new Date(start + 10 * MIN));
    const lone = await subscriber(target);
    await collect(target, lone.vid, [{ t: 'pv', u: `${target.root}/oferta` }]);
    const loneDue = new Date((await deliveriesOf(uuid)).find((d) => d.visitor_id === lone.vid)!.due_at).getTime();
    expect(loneDue).toBeLessThan(start + 10 * MIN + 10_000);
    await moveTo(new Date(loneDue));
    expect(received(lone.endpoint)).toBe(1);
    expect((await deliveriesOf(uuid)).map((d) => d.status)).toEqual(Array(10).fill('sent'));
  });
});

describe('holidays', () => {
  it('move a weekly recurrence past Carnaval and the domain’s own holiday; without the option it keeps the day', async () => {
    // Monday 16 February 2026 (Carnaval), 09:00 in São Paulo.
    t.clock.set('2026-02-16T12:00:00Z');
    const target = await site('Loja Feriado');
    await call(
      t.app,
      'PUT',
      `/api/domain/update/${target.uuid}`,
      { domain: { extra_holidays: ['2026-02-18'] } },
      owner.token,
    );
    const someone = await subscriber(target);
    const tuesdays = {
      type: 'trigger',
      regex: false,
      values: [{ filter: 'recurrence', comparation: 'weekly', value: ['tuesday'], hours: '10:00', dischargeIn: [] }],
    };
    const skipping = await create(target, {
      type: 'momentum',
      momentums: [everyone, tuesdays, pushBlock('Terça')],
      skip_holidays: true,
    });
    const plain = await create(target, { type: 'momentum', momentums: [everyone, tuesdays, pushBlock('Terça')] });
    await moveTo('2026-02-17T13:00:00Z');
    expect((await deliveriesOf(plain)).map((d) => [iso(d.due_at), d.status])).toEqual([
      ['2026-02-17T13:00:00.000Z', 'sent'],
    ]);
    // Tuesday is Carnaval, Wednesday the domain's own: Thursday at 10:00.
    expect((await deliveriesOf(skipping)).map((d) => [iso(d.due_at), d.status])).toEqual([
      ['2026-02-19T13:00:00.000Z', 'queued'],
    ]);
    await moveTo('2026-02-19T12:59:00Z');
    expect(received(someone.endpoint)).toBe(1);
    await moveTo('2026-02-19T13:00:00Z');
    expect(received(someone.endpoint)).toBe(2);
    // The next Tuesday is no holiday.
    await moveTo('2026-02-24T13:00:00Z');
    expect((await deliveriesOf(skipping)).map((d) => iso(d.due_at))).toEqual([
      '2026-02-19T13:00:00.000Z',
      '2026-02-24T13:00:00.000Z',
    ]);
    expect(received(someone.endpoint)).toBe(4);
  });
});

describe('best time', () => {
  it('sends to each person at their most active local hour, the domain’s busiest hour without history', async () => {
    // Subscribed long before the 30 days best time reads.
    t.clock.set('2026-01-05T12:00:00Z');
    const target = await site('Loja Melhor Hora');
    const night = await subscriber(target);
    const morning = await subscriber(target, PLACES.manaus);
    const newcomer = await subscriber(target);
    // History: `night` visits at 20:15 in São Paulo on ten days, `morning` at 07:40 in Manaus on eight (and once at 13:10).
    for (let day = 1; day <= 10; day++) {
      const date = `2026-03-${String(day).padStart(2, '0')}`;
      t.clock.set(`${date}T23:15:00Z`);
      await collect(target, night.vid, [{ t: 'pv', u: `${target.root}/noite` }]);
      if (day > 8) continue;
      t.clock.set(`${date}T11:40:00Z`);
      await collect(target, morning.vid, [{ t: 'pv', u: `${target.root}/manha` }], PLACES.manaus);
    }
    t.clock.set('2026-03-11T17:10:00Z');
    await collect(target, morning.vid, [{ t: 'pv', u: `${target.root}/tarde` }], PLACES.manaus);
    // Wednesday 11 March, 15:00 in São Paulo.
    t.clock.set('2026-03-11T18:00:00Z');
    const uuid = await create(target, {
      type: 'campaign',
      momentums: [everyone, pushBlock('Para você')],
      best_time: true,
    });
    await moveTo('2026-03-11T18:00:00Z');
    const dues = Object.fromEntries((await deliveriesOf(uuid)).map((d) => [d.visitor_id, iso(d.due_at)]));
    expect(dues).toEqual({
      [night.vid]: '2026-03-11T23:00:00.000Z',
      [morning.vid]: '2026-03-12T11:00:00.000Z',
      // The domain's busiest hour is 20:00 in São Paulo (night's ten visits): the newcomer's own clock is São Paulo's.
      [newcomer.vid]: '2026-03-11T23:00:00.000Z',
    });
    await moveTo('2026-03-12T12:00:00Z');
    for (const p of [night, morning, newcomer]) expect(received(p.endpoint)).toBe(1);
  });
});
