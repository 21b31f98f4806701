import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { queryRows } from '../db/client.ts';

/*
 * The engine end to end on a real app and database: visitors post to /collect, momentums are created through
 * the API, the engine sends to a local push service that checks VAPID and decrypts aes128gcm. The clock is
 * the test's: time moves by hand, the engine's send passes and jobs are run when the test says.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let push: PushService;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string; root: string };
let other: { uuid: string; gero_id: string; root: string };

const domainAt = async (name: string, address: string) => ({
  ...(await createDomain(t.app, owner, name, address)),
  root: address,
});

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
  push = await startPushService();
  owner = await signUpAndSignIn(t.app);
  domain = await domainAt('Loja', 'https://loja-motor.com.br');
  other = await domainAt('Outra', 'https://outra-motor.com.br');
});
afterAll(async () => {
  await t.close();
  await push.close();
});
beforeEach(() => {
  t.clock.set(new Date());
});

const collect = async (target: typeof domain, vid: string | undefined, events: object[]) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: target.root, 'user-agent': CHROME },
    payload: JSON.stringify({ id: target.gero_id, ...(vid ? { vid } : {}), e: events }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
  return res.json();
};

const pageview = (target: typeof domain, vid: string, path: string) =>
  collect(target, vid, [{ t: 'pv', u: `${target.root}${path}` }]);

/** A visitor who accepted push: its subscription belongs to the local push service. */
const subscriber = async (target = domain) => {
  const vid = `v-${randomUUID()}`;
  const sub = push.newSubscription();
  await collect(target, vid, [{ t: 'optin', s: sub.subscription }]);
  return { vid, sub };
};

const pushBlock = (over: Record<string, unknown> = {}) => ({
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_NOTIFICATION',
      name: 'Carrinho',
      title: 'Esqueceu algo?',
      message: 'Seu carrinho está te esperando.',
      icon_uri: 'https://loja-motor.com.br/icone.png',
      image: 'https://loja-motor.com.br/banner.png',
      redirect_uri: 'https://loja-motor.com.br/carrinho',
      ...over,
    },
  ],
});

let titles = 0;
const createMomentum = async (
  blocks: object[],
  extra: Record<string, unknown> = {},
  target = domain,
): Promise<{ uuid: string }> => {
  const res = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    {
      domain_uuid: target.uuid,
      type: 'momentum',
      momentum_title: `Momentum ${++titles}`,
      status: 'Active',
      momentums: blocks,
      ...extra,
    },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

const trigger = (values: Record<string, unknown>, regex = false) => ({
  type: 'trigger',
  regex,
  values: [{ dischargeIn: [], ...values }],
});
const everyone = { type: 'filter', values: [{ filter: 'all' }] };

const deliveriesOf = (momentumUuid: string) =>
  queryRows<{ id: string; status: string; error: string | null; person_uuid: string; due_at: string }>(
    t.app.ctx.db,
    sql`SELECT id, status, error, person_uuid, due_at::text FROM deliveries WHERE momentum_uuid = ${momentumUuid}::uuid
        ORDER BY due_at`,
  );

/** Every delivery of the momentum went out; a failure lists each delivery's status, error and due time. */
const expectAllSent = async (momentumUuid: string, count: number) => {
  const rows = await deliveriesOf(momentumUuid);
  expect(
    rows.map((r) => r.status),
    `entregas: ${JSON.stringify(rows)}; relógio do teste: ${t.clock.now().toISOString()}`,
  ).toEqual(Array(count).fill('sent'));
};

const personOf = async (target: typeof domain, vid: string) =>
  (
    await queryRows<{ uuid: string; attributes: Record<string, unknown>; push_status: string | null }>(
      t.app.ctx.db,
      sql`SELECT uuid, attributes, push_status FROM persons WHERE domain_uuid = ${target.uuid}::uuid AND visitor_id = ${vid}`,
    )
  )[0]!;

const receivedBy = (endpoint: string) => push.received.filter((r) => r.endpoint === endpoint);

const dispatchAll = async () => {
  while ((await t.app.engine.dispatchDue()) > 0);
};

const waitingJobs = (name: string, uuid: string) =>
  t.app.engine.jobs.waiting(name).then((jobs) => jobs.filter((j) => j.data.uuid === uuid));

describe('triggers', () => {
  it('a page view sends the push once, with the decrypted payload the service worker reads', async () => {
    const m = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/carrinho'] }),
      pushBlock(),
    ]);
    const { vid, sub } = await subscriber();
    await pageview(domain, vid, '/produto/1');
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(0);

    await pageview(domain, vid, '/CARRINHO?passo=1');
    await dispatchAll();
    const [got] = receivedBy(sub.subscription.endpoint);
    const [delivery] = await deliveriesOf(m.uuid);
    expect(delivery).toMatchObject({ status: 'sent' });
    expect(got!.payload).toEqual({
      title: 'Esqueceu algo?',
      message: 'Seu carrinho está te esperando.',
      icon_uri: 'https://loja-motor.com.br/icone.png',
      image: 'https://loja-motor.com.br/banner.png',
      redirect_uri: 'https://loja-motor.com.br/carrinho',
      delivery_id: delivery!.id,
    });
    const keys = await queryRows<{ vapid_public: string }>(
      t.app.ctx.db,
      sql`SELECT vapid_public FROM domains WHERE uuid = ${domain.uuid}::uuid`,
    );
    expect(got!.vapidPublicKey).toBe(keys[0]!.vapid_public);
    expect(got!.ttl).toBeGreaterThan(0);

    // Once per person without 'Permitir mais de um envio'; another pass sends nothing more.
    await pageview(domain, vid, '/carrinho');
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(1);
    expect(await deliveriesOf(m.uuid)).toHaveLength(1);
    expect((await personOf(domain, vid)).attributes).toMatchObject({
      'notified.viewed': false,
      'notified.clicked': false,
      'notified.momentum_uuid': [m.uuid],
    });
  });

  it('the service worker reports viewed and clicked: the delivery and the person follow', async () => {
    const m = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: '==', value: ['https://loja-motor.com.br/oferta'] }),
      pushBlock(),
    ]);
    const { vid } = await subscriber();
    await pageview(domain, vid, '/oferta/');
    await dispatchAll();
    const [d] = await deliveriesOf(m.uuid);
    expect(d!.status).toBe('sent');

    // Another domain's gero_id cannot touch this delivery.
    await collect(other, undefined, [{ t: 'clicked', d: d!.id }]);
    expect((await deliveriesOf(m.uuid))[0]!.status).toBe('sent');

    await collect(domain, undefined, [{ t: 'viewed', d: d!.id }]);
    expect((await deliveriesOf(m.uuid))[0]!.status).toBe('viewed');
    await collect(domain, undefined, [{ t: 'clicked', d: d!.id }]);
    expect((await deliveriesOf(m.uuid))[0]!.status).toBe('clicked');
    const person = await personOf(domain, vid);
    expect(person.attributes).toMatchObject({ 'notified.viewed': true, 'notified.clicked': true });
    const reports = await queryRows<{ kind: string; person_uuid: string | null }>(
      t.app.ctx.db,
      sql`SELECT kind, person_uuid FROM events WHERE props ->> 'delivery_id' = ${d!.id} AND domain_uuid = ${domain.uuid}::uuid`,
    );
    expect(reports.map((r) => [r.kind, r.person_uuid])).toEqual(
      expect.arrayContaining([
        ['viewed', person.uuid],
        ['clicked', person.uuid],
      ]),
    );
    // The dashboard's list shows what became of the momentum's messages.
    const list = await call(t.app, 'GET', `/api/momentum/list/${domain.uuid}?type=momentum`, undefined, owner.token);
    const item = list.body.data.find((i: { uuid: string }) => i.uuid === m.uuid);
    expect(item.deliveries).toEqual({ waiting: 0, sent: 1, viewed: 1, clicked: 1, failed: 0 });
  });

  it('a report that arrives while the send is being recorded is kept', async () => {
    const m = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/corrida'] }),
      pushBlock(),
    ]);
    const { vid } = await subscriber();
    await pageview(domain, vid, '/corrida');
    const [d] = await deliveriesOf(m.uuid);
    // The service worker's click lands between the push service's answer and the engine's record.
    await t.app.ctx.db.execute(
      sql`UPDATE deliveries SET status = 'sending', locked_at = ${t.clock.now()} WHERE id = ${d!.id}::uuid`,
    );
    await collect(domain, undefined, [{ t: 'clicked', d: d!.id }]);
    await t.app.ctx.db.execute(
      sql`UPDATE deliveries SET status = 'queued', locked_at = NULL WHERE id = ${d!.id}::uuid`,
    );
    await dispatchAll();
    const [after] = await queryRows<{ status: string; sent_at: string | null; clicked_at: string | null }>(
      t.app.ctx.db,
      sql`SELECT status, sent_at::text, clicked_at::text FROM deliveries WHERE id = ${d!.id}::uuid`,
    );
    expect(after).toMatchObject({ status: 'clicked' });
    expect(after!.sent_at).not.toBeNull();
    expect(after!.clicked_at).not.toBeNull();
  });

  it('events trigger on category, key and value; dischargeIn delays the send', async () => {
    const m = await createMomentum([
      everyone,
      trigger({
        filter: 'events',
        parentCategory: 'compra',
        key: 'produto',
        comparation: 'contain',
        value: ['tênis'],
        dischargeIn: [600],
      }),
      pushBlock(),
    ]);
    const { vid, sub } = await subscriber();
    await collect(domain, vid, [{ t: 'ev', c: 'compra', p: { produto: 'Camisa' } }]);
    await collect(domain, vid, [{ t: 'ev', c: 'visita', p: { produto: 'Tênis azul' } }]);
    expect(await deliveriesOf(m.uuid)).toHaveLength(0);
    await collect(domain, vid, [{ t: 'ev', c: 'compra', p: { produto: 'TÊNIS azul' } }]);
    expect(await deliveriesOf(m.uuid)).toHaveLength(1);
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(0);
    t.clock.advance(601_000);
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(1);
  });

  it("an events trigger's second condition: another category compared with comparation2", async () => {
    const m = await createMomentum([
      everyone,
      trigger({
        filter: 'events',
        parentCategory: 'compra',
        key: 'produto',
        comparation: '==',
        value: ['meia'],
        parentCategory2: 'favorito',
        comparation2: 'contain',
      }),
      pushBlock(),
    ]);
    const { vid } = await subscriber();
    // 'contain' only applies to the second category; the first still needs equality.
    await collect(domain, vid, [{ t: 'ev', c: 'compra', p: { produto: 'meia esportiva' } }]);
    await collect(domain, vid, [{ t: 'ev', c: 'visita', p: { produto: 'meia esportiva' } }]);
    expect(await deliveriesOf(m.uuid)).toHaveLength(0);
    await collect(domain, vid, [{ t: 'ev', c: 'favorito', p: { produto: 'meia esportiva' } }]);
    expect(await deliveriesOf(m.uuid)).toHaveLength(1);
  });

  it('abandon: sends after the delay unless the goal page was reached', async () => {
    const m = await createMomentum([
      everyone,
      trigger({
        filter: 'abandon',
        comparation: 'contain',
        comparation2: 'contain',
        value: ['/sacola'],
        value2: ['/obrigado'],
        dischargeIn: [1800],
      }),
      pushBlock(),
    ]);
    const buyer = await subscriber();
    const leaver = await subscriber();
    await pageview(domain, buyer.vid, '/sacola');
    await pageview(domain, leaver.vid, '/sacola');
    t.clock.advance(60_000);
    await pageview(domain, buyer.vid, '/obrigado');
    t.clock.advance(1800_000);
    await dispatchAll();
    expect(receivedBy(buyer.sub.subscription.endpoint)).toHaveLength(0);
    expect(receivedBy(leaver.sub.subscription.endpoint)).toHaveLength(1);
    const statuses = (await deliveriesOf(m.uuid)).map((d) => d.status).sort();
    expect(statuses).toEqual(['cancelled', 'sent']);
  });

  it("'Permitir mais de um envio' repeats at the intervals, never stacking chains", async () => {
    const m = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/promo'] }),
      pushBlock({ intervalRecurrency: [3600, 86400] }),
    ]);
    const { vid, sub } = await subscriber();
    await pageview(domain, vid, '/promo');
    await pageview(domain, vid, '/promo'); // the chain still waits: no second chain
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(1);
    expect(await deliveriesOf(m.uuid)).toHaveLength(3);
    t.clock.advance(3600_000);
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(2);
    t.clock.advance(86_400_000);
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(3);
  });

  it('a momentum whose stored blocks no longer compile does not stop the others', async () => {
    const broken = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/quebrado'] }),
      pushBlock(),
    ]);
    const fine = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/quebrado'] }),
      pushBlock({ title: 'Ainda funciona' }),
    ]);
    await t.app.ctx.db.execute(sql`
      UPDATE momentums SET momentums = jsonb_set(momentums, '{0,values,0,filter}', '"chave.inexistente"')
      WHERE uuid = ${broken.uuid}::uuid`);
    await t.app.engine.momentumChanged(fine.uuid); // refreshes the domain's matchers
    const { vid, sub } = await subscriber();
    await pageview(domain, vid, '/quebrado');
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint).map((r) => (r.payload as { title: string }).title)).toEqual([
      'Ainda funciona',
    ]);
    expect(await deliveriesOf(broken.uuid)).toHaveLength(0);
  });

  it('the audience filter is checked when the message is due', async () => {
    const m = await createMomentum([
      { type: 'filter', values: [{ filter: 'user_stored_data.navigator.mobile', comparation: '==', value: ['Sim'] }] },
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/mobile'] }),
      pushBlock(),
    ]);
    const { vid, sub } = await subscriber();
    await pageview(domain, vid, '/mobile');
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(0);
    expect((await deliveriesOf(m.uuid))[0]).toMatchObject({ status: 'cancelled' });
  });
});

describe('timing', () => {
  it('a message due outside the worktime waits across the weekend for Monday 09:00 in São Paulo', async () => {
    t.clock.set('2026-11-20T21:30:00.000Z'); // Friday 18:30 local
    const m = await createMomentum(
      [everyone, trigger({ filter: 'pageview', comparation: 'contain', value: ['/sexta'] }), pushBlock()],
      { worktime: { weekdays: [1, 2, 3, 4, 5], start_at: '09:00', stop_at: '18:00' } },
    );
    const { vid, sub } = await subscriber();
    await pageview(domain, vid, '/sexta');
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(0);
    const [d] = await deliveriesOf(m.uuid);
    expect(d!.status).toBe('queued');
    expect(new Date(d!.due_at).toISOString()).toBe('2026-11-23T12:00:00.000Z');
    t.clock.set('2026-11-22T15:00:00.000Z'); // Sunday
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(0);
    t.clock.set('2026-11-23T12:00:30.000Z'); // Monday 09:00 local
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(1);
  });

  it('the finish date makes the momentum Done and cancels what still waits', async () => {
    const finish = new Date(t.clock.now().getTime() + 3_600_000);
    // On the pickers' 15-minute grid, as the API requires (spec doc 2 §9).
    finish.setUTCMinutes(Math.ceil(finish.getUTCMinutes() / 15) * 15, 0, 0);
    const m = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/fim'], dischargeIn: [7200] }),
      pushBlock(),
      { type: 'finish', values: [{ type: 'finish', filter: 'stop_momentum', value: finish.toISOString() }] },
    ]);
    const [job] = await waitingJobs('momentum.finish', m.uuid);
    expect(job!.startAfter.toISOString()).toBe(finish.toISOString());
    const { vid } = await subscriber();
    await pageview(domain, vid, '/fim');
    expect((await deliveriesOf(m.uuid))[0]!.status).toBe('queued');

    await t.app.engine.jobs.run('momentum.finish', job!.data); // too early: nothing happens
    expect((await call(t.app, 'GET', `/api/momentum/list?id=${m.uuid}`, undefined, owner.token)).body.data.status).toBe(
      'Active',
    );
    t.clock.set(new Date(finish.getTime() + 1000));
    await t.app.engine.jobs.run('momentum.finish', job!.data);
    const after = await call(t.app, 'GET', `/api/momentum/list?id=${m.uuid}`, undefined, owner.token);
    expect(after.body.data.status).toBe('Done');
    expect((await deliveriesOf(m.uuid))[0]).toMatchObject({ status: 'cancelled' });
  });

  it('a scheduled momentum (Paused with scheduled_at) becomes Active at that time', async () => {
    const at = new Date(t.clock.now().getTime() + 2 * 3_600_000);
    at.setUTCMinutes(0, 0, 0);
    const m = await createMomentum(
      [everyone, trigger({ filter: 'pageview', comparation: 'contain', value: ['/agendado'] }), pushBlock()],
      { status: 'Paused', scheduled_at: at.toISOString() },
    );
    const [job] = await waitingJobs('momentum.activate', m.uuid);
    expect(job!.startAfter.toISOString()).toBe(at.toISOString());
    t.clock.set(new Date(at.getTime() + 500));
    await t.app.engine.jobs.run('momentum.activate', job!.data);
    await t.app.engine.jobs.run('momentum.activate', job!.data); // twice: still one activation
    const item = (await call(t.app, 'GET', `/api/momentum/list?id=${m.uuid}`, undefined, owner.token)).body.data;
    expect(item).toMatchObject({ status: 'Active', scheduled_at: null });
  });

  it('a daily recurrence runs at HH:mm in São Paulo for the filtered audience, then schedules the next', async () => {
    const target = await domainAt('Recorrente', 'https://recorrente-motor.com.br');
    const a = await subscriber(target);
    const b = await subscriber(target);
    const m = await createMomentum(
      [everyone, trigger({ filter: 'recurrence', comparation: 'daily', value: [], hours: '10:30' }), pushBlock()],
      {},
      target,
    );
    const [job] = await waitingJobs('recurrence.tick', m.uuid);
    const at = new Date(job!.data.at as string);
    const local = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', timeStyle: 'short' });
    expect(local.format(at)).toBe('10:30');
    expect(at.getTime() - t.clock.now().getTime()).toBeGreaterThan(0);
    expect(at.getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(86_400_000);
    t.clock.set(new Date(at.getTime() + 5000));
    await t.app.engine.jobs.run('recurrence.tick', job!.data);
    await t.app.engine.jobs.run('recurrence.tick', job!.data); // a retried tick creates nothing new
    await dispatchAll();
    await expectAllSent(m.uuid, 2);
    expect(receivedBy(a.sub.subscription.endpoint)).toHaveLength(1);
    expect(receivedBy(b.sub.subscription.endpoint)).toHaveLength(1);
    const next = (await waitingJobs('recurrence.tick', m.uuid)).map((j) => j.data.at);
    expect(next).toContain(new Date(at.getTime() + 86_400_000).toISOString());
  });
});

describe('campaigns and delivery guarantees', () => {
  it('a campaign fans out to the whole filtered audience on activation, once', async () => {
    const target = await domainAt('Campanha', 'https://campanha-motor.com.br');
    const subs = [];
    for (let i = 0; i < 12; i++) subs.push(await subscriber(target));
    await collect(target, `sem-push-${randomUUID()}`, [{ t: 'pv', u: `${target.root}/` }]);
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: target.uuid,
        type: 'campaign',
        momentum_title: 'Black Friday',
        status: 'Active',
        momentums: [everyone, pushBlock({ title: 'Black Friday' })],
      },
      owner.token,
    );
    expect(res.status).toBe(200);
    const uuid = res.body.data.uuid;
    const [job] = await waitingJobs('campaign.fanout', uuid);
    await t.app.engine.jobs.run('campaign.fanout', job!.data);
    await t.app.engine.jobs.run('campaign.fanout', job!.data);
    await dispatchAll();
    // The visitor without push is listed once, not sent to (skipped.test.ts).
    const rows = await deliveriesOf(uuid);
    expect(rows.filter((r) => r.status === 'skipped').map((r) => r.error)).toEqual([
      'Visitante sem inscrição de push.',
    ]);
    expect(rows.filter((r) => r.status !== 'skipped').map((r) => r.status)).toEqual(Array(12).fill('sent'));
    for (const s of subs) expect(receivedBy(s.sub.subscription.endpoint)).toHaveLength(1);

    // Paused and started again: a new fan-out reaches only those not reached yet (here: a new subscriber).
    expect((await call(t.app, 'PUT', `/api/momentum/status/${uuid}`, { status: 'Paused' }, owner.token)).status).toBe(
      200,
    );
    const late = await subscriber(target);
    expect((await call(t.app, 'PUT', `/api/momentum/status/${uuid}`, { status: 'Active' }, owner.token)).status).toBe(
      200,
    );
    const again = (await waitingJobs('campaign.fanout', uuid)).at(-1);
    expect(again!.data.at).not.toBe(job!.data.at);
    await t.app.engine.jobs.run('campaign.fanout', again!.data);
    await dispatchAll();
    for (const s of subs) expect(receivedBy(s.sub.subscription.endpoint)).toHaveLength(1);
    expect(receivedBy(late.sub.subscription.endpoint)).toHaveLength(1);
  });

  it('a worker that died between send and record: the sweeper hands the delivery back, sent once', async () => {
    const m = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/queda'] }),
      pushBlock(),
    ]);
    const { vid, sub } = await subscriber();
    await pageview(domain, vid, '/queda');
    // A worker claims it and dies before sending anything.
    await t.app.ctx.db.execute(sql`
      UPDATE deliveries SET status = 'sending', locked_at = ${t.clock.now()}, attempts = 1
      WHERE momentum_uuid = ${m.uuid}::uuid`);
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(0);
    expect(await t.app.engine.sweep()).toBe(0); // within the lease: left alone
    t.clock.advance((t.app.ctx.config.deliveryLeaseSeconds + 1) * 1000);
    expect(await t.app.engine.sweep()).toBe(1);
    await dispatchAll();
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(1);
    expect((await deliveriesOf(m.uuid))[0]!.status).toBe('sent');
  });

  it('a gone subscription (410) opts the person out; 429 retries later', async () => {
    const m = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/status'] }),
      pushBlock(),
    ]);
    const gone = await subscriber();
    const busy = await subscriber();
    push.respondWith(gone.sub.subscription.endpoint, 410);
    push.respondWith(busy.sub.subscription.endpoint, 429, { 'retry-after': '120' }, 1);
    await pageview(domain, gone.vid, '/status');
    await pageview(domain, busy.vid, '/status');
    await dispatchAll();
    const person = await personOf(domain, gone.vid);
    expect(person.push_status).toBe('unsubscribed');
    const byPerson = new Map((await deliveriesOf(m.uuid)).map((d) => [d.person_uuid, d]));
    expect(byPerson.get(person.uuid)).toMatchObject({ status: 'failed' });
    const busyPerson = await personOf(domain, busy.vid);
    expect(byPerson.get(busyPerson.uuid)).toMatchObject({ status: 'queued' });
    t.clock.advance(121_000);
    await dispatchAll();
    expect(receivedBy(busy.sub.subscription.endpoint)).toHaveLength(1);
    const optouts = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM events WHERE person_uuid = ${person.uuid}::uuid AND kind = 'optout'`,
    );
    expect(Number(optouts[0]!.n)).toBe(1);
  });

  it('pausing a momentum cancels what still waits', async () => {
    const m = await createMomentum([
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/pausa'], dischargeIn: [600] }),
      pushBlock(),
    ]);
    const { vid, sub } = await subscriber();
    await pageview(domain, vid, '/pausa');
    const res = await call(t.app, 'PUT', `/api/momentum/status/${m.uuid}`, { status: 'Paused' }, owner.token);
    expect(res.status).toBe(200);
    t.clock.advance(601_000);
    await dispatchAll();
    expect(receivedBy(sub.subscription.endpoint)).toHaveLength(0);
    expect((await deliveriesOf(m.uuid))[0]!.status).toBe('cancelled');
  });
});

describe('on-site messages', () => {
  it('are handed to the tag once, by poll or on the next collect, and report viewed and clicked', async () => {
    const target = await domainAt('Onsite', 'https://onsite-motor.com.br');
    const m = await createMomentum(
      [everyone, trigger({ filter: 'pageview', comparation: 'contain', value: ['/boas-vindas'] }), blocks.topbar()],
      {},
      target,
    );
    const vid = `v-${randomUUID()}`;
    await pageview(target, vid, '/boas-vindas');
    await dispatchAll();
    const [d] = await deliveriesOf(m.uuid);
    expect(d!.status).toBe('sent');
    // The next collect carries it (this process queued it), and it is not handed out twice.
    const answer = await collect(target, vid, [{ t: 'pv', u: `${target.root}/outra` }]);
    expect(answer.onsite).toEqual([
      {
        d: d!.id,
        type: 'topbar',
        mode: 'devices_all',
        props: { topbarContent: 'Frete grátis hoje!', topbarBtnText: 'Ver ofertas' },
      },
    ]);
    const poll = await t.app.inject({ method: 'GET', url: `/collect/pending?id=${target.gero_id}&vid=${vid}` });
    expect(poll.json()).toEqual({ onsite: [] });
    await collect(target, vid, [
      { t: 'viewed', d: d!.id },
      { t: 'clicked', d: d!.id },
    ]);
    expect((await deliveriesOf(m.uuid))[0]!.status).toBe('clicked');
  });

  it('the poll answers 4xx to bad input and nothing for another visitor', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/collect/pending?id=G-000' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/collect/pending?id=G-000000000000&vid=x' })).statusCode).toBe(
      404,
    );
    const ok = await t.app.inject({ method: 'GET', url: `/collect/pending?id=${domain.gero_id}&vid=ninguem` });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ onsite: [] });
  });
});
