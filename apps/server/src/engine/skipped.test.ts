import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { queryRows } from '../db/client.ts';
import * as q from './deliveries.queries.ts';
import { unreachableReason, unreachableReasonSql } from './qualify.ts';

/*
 * The delivery log promises "quem recebeu, quem não recebeu e por quê" (issue #29): a person who qualified and whom
 * the channel cannot reach has a `skipped` delivery with the reason, nothing is sent to them, and it counts neither
 * as sent nor as failed, nor against the frequency cap.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const NO_PUSH = 'Visitante sem inscrição de push.';

let t: TestApp;
let push: PushService;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let sites = 0;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
  push = await startPushService();
  owner = await signUpAndSignIn(t.app);
});
afterAll(async () => {
  await t.close();
  await push.close();
});
beforeEach(() => {
  t.clock.set(new Date());
});

const newDomain = async () => {
  const root = `https://ignorada-${++sites}.com.br`;
  return { ...(await createDomain(t.app, owner, `Loja ${sites}`, root)), root };
};
type Site = Awaited<ReturnType<typeof newDomain>>;

const collect = async (d: Site, vid: string, events: object[]) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: d.root, 'user-agent': CHROME },
    payload: JSON.stringify({ id: d.gero_id, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};
const visitor = async (d: Site) => {
  const vid = `v-${randomUUID()}`;
  await collect(d, vid, [{ t: 'pv', u: `${d.root}/` }]);
  return vid;
};
const subscribe = async (d: Site, vid: string) => {
  const sub = push.newSubscription();
  await collect(d, vid, [{ t: 'optin', s: sub.subscription }]);
  return sub.subscription.endpoint;
};

const pushBlock = (root: string) => ({
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_NOTIFICATION',
      name: 'Ofertas',
      title: 'Ofertas da semana',
      message: 'Até 30% off.',
      icon_uri: `${root}/icone.png`,
      redirect_uri: `${root}/produtos`,
    },
  ],
});
const everyone = { type: 'filter', values: [{ filter: 'all' }] };
const create = async (d: Site, type: 'momentum' | 'campaign', momentums: object[]) => {
  const res = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    { domain_uuid: d.uuid, type, momentum_title: `Item ${randomUUID()}`, status: 'Active', momentums },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.uuid as string;
};

const dispatchAll = async () => {
  while ((await t.app.engine.dispatchDue()) > 0);
};
const rowsOf = (momentumUuid: string) =>
  queryRows<{ visitor_id: string; status: string; error: string | null; sent_at: string | null }>(
    t.app.ctx.db,
    sql`SELECT p.visitor_id, d.status, d.error, d.sent_at::text FROM deliveries d JOIN persons p ON p.uuid = d.person_uuid
        WHERE d.momentum_uuid = ${momentumUuid}::uuid ORDER BY d.created_at, p.visitor_id`,
  );
const byVisitor = async (momentumUuid: string) => {
  const out: Record<string, string[]> = {};
  for (const r of await rowsOf(momentumUuid)) {
    out[r.visitor_id] = [...(out[r.visitor_id] ?? []), `${r.status}: ${r.error ?? ''}`];
  }
  return out;
};
const log = async (momentumUuid: string, status?: string) => {
  const res = await call(
    t.app,
    'GET',
    `/api/momentum/deliveries/${momentumUuid}${status ? `?status=${status}` : ''}`,
    undefined,
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { total: number; items: { recipient: string; status: string; reason: string | null }[] };
};
const runFanOut = async (uuid: string) => {
  const [job] = (await t.app.engine.jobs.waiting('campaign.fanout')).filter((j) => j.data.uuid === uuid);
  await t.app.engine.jobs.run('campaign.fanout', job!.data);
  return job!;
};

describe('a campaign to persons who cannot all be reached', () => {
  it('records the unreachable as skipped with the reason, sends them nothing, and counts them nowhere else', async () => {
    const d = await newDomain();
    const ana = await visitor(d);
    const anaEndpoint = await subscribe(d, ana);
    const bia = await visitor(d); // never accepted notifications
    const caio = await visitor(d);
    const caioEndpoint = await subscribe(d, caio);
    await collect(d, caio, [{ t: 'optout' }]);

    const uuid = await create(d, 'campaign', [everyone, pushBlock(d.root)]);
    const job = await runFanOut(uuid);
    await t.app.engine.jobs.run('campaign.fanout', job.data); // twice: nothing twice
    await dispatchAll();

    expect(await byVisitor(uuid)).toEqual({
      [ana]: ['sent: '],
      [bia]: [`skipped: ${NO_PUSH}`],
      [caio]: [`skipped: ${NO_PUSH}`],
    });
    expect(push.received.filter((r) => r.endpoint === anaEndpoint)).toHaveLength(1);
    expect(push.received.filter((r) => r.endpoint === caioEndpoint)).toHaveLength(0);
    expect((await rowsOf(uuid)).filter((r) => r.status === 'skipped').every((r) => r.sent_at === null)).toBe(true);

    // The delivery log: every person, the skipped ones under their status filter with the reason.
    expect((await log(uuid)).total).toBe(3);
    const skipped = await log(uuid, 'skipped');
    expect(skipped.items.map((i) => [i.recipient, i.status, i.reason]).sort()).toEqual(
      [
        [bia, 'skipped', NO_PUSH],
        [caio, 'skipped', NO_PUSH],
      ].sort(),
    );
    expect((await log(uuid, 'failed')).total).toBe(0);
    expect((await log(uuid, 'sent')).total).toBe(1);

    // The list's figures and the analytics counters: one sent, no failure.
    const list = await call(t.app, 'GET', `/api/momentum/list/${d.uuid}?type=campaign`, undefined, owner.token);
    expect(list.body.data.find((i: { uuid: string }) => i.uuid === uuid)?.deliveries).toMatchObject({
      waiting: 0,
      sent: 1,
      failed: 0,
    });
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(t.clock.now());
    const daily = await call(
      t.app,
      'GET',
      `/api/analytics/${d.uuid}/momentums/daily?start=${day}&end=${day}`,
      undefined,
      owner.token,
    );
    expect(daily.body.data).toEqual([expect.objectContaining({ momentum_uuid: uuid, notifications_sent: 1 })]);

    // Paused and started again after Bia subscribed: she is reached now, Caio is still listed once.
    const biaEndpoint = await subscribe(d, bia);
    expect((await call(t.app, 'PUT', `/api/momentum/status/${uuid}`, { status: 'Paused' }, owner.token)).status).toBe(
      200,
    );
    expect((await call(t.app, 'PUT', `/api/momentum/status/${uuid}`, { status: 'Active' }, owner.token)).status).toBe(
      200,
    );
    const again = (await t.app.engine.jobs.waiting('campaign.fanout')).filter((j) => j.data.uuid === uuid).at(-1);
    await t.app.engine.jobs.run('campaign.fanout', again!.data);
    await dispatchAll();
    expect(await byVisitor(uuid)).toEqual({
      [ana]: ['sent: '],
      [bia]: [`skipped: ${NO_PUSH}`, 'sent: '],
      [caio]: [`skipped: ${NO_PUSH}`],
    });
    expect(push.received.filter((r) => r.endpoint === biaEndpoint)).toHaveLength(1);
  });

  it('a person who opts out after the fan-out is skipped when due, not failed', async () => {
    const d = await newDomain();
    const ana = await visitor(d);
    const endpoint = await subscribe(d, ana);
    const uuid = await create(d, 'campaign', [everyone, pushBlock(d.root)]);
    await runFanOut(uuid);
    await collect(d, ana, [{ t: 'optout' }]);
    await dispatchAll();
    expect(await byVisitor(uuid)).toEqual({ [ana]: [`skipped: ${NO_PUSH}`] });
    expect(push.received.filter((r) => r.endpoint === endpoint)).toHaveLength(0);
  });
});

describe('a triggered momentum', () => {
  it('lists an unsubscribed visitor once, skipped; subscribed later, the visitor receives it under a daily cap of 1', async () => {
    const d = await newDomain();
    const capped = await call(
      t.app,
      'PUT',
      `/api/domain/frequency/${d.uuid}`,
      { domain: { frequency_cap_day: 1, frequency_cap_week: null } },
      owner.token,
    );
    expect(capped.status).toBe(200);
    const uuid = await create(d, 'momentum', [
      everyone,
      { type: 'trigger', regex: false, values: [{ filter: 'pageview', comparation: 'contain', value: ['/oferta'] }] },
      pushBlock(d.root),
    ]);
    const bia = await visitor(d);
    await collect(d, bia, [{ t: 'pv', u: `${d.root}/oferta/1` }]);
    await collect(d, bia, [{ t: 'pv', u: `${d.root}/oferta/2` }]);
    await dispatchAll();
    expect(await byVisitor(uuid)).toEqual({ [bia]: [`skipped: ${NO_PUSH}`] });

    const endpoint = await subscribe(d, bia);
    await collect(d, bia, [{ t: 'pv', u: `${d.root}/oferta/3` }]);
    await dispatchAll();
    expect(await byVisitor(uuid)).toEqual({ [bia]: [`skipped: ${NO_PUSH}`, 'sent: '] });
    expect(push.received.filter((r) => r.endpoint === endpoint)).toHaveLength(1);
  });
});

describe('reachability in SQL and in memory', () => {
  it('gives the same reason for every person, on every channel', async () => {
    const d = await newDomain();
    const subscription = { endpoint: 'https://push.exemplo.com/x', keys: { p256dh: 'p', auth: 'a' } };
    const people: [string, string | null, string | null, string | null, object | null, object][] = [
      ['nada', null, null, null, null, {}],
      ['push', 'subscribed', null, null, subscription, {}],
      ['saiu', 'unsubscribed', null, null, subscription, {}],
      ['fone', null, null, '11987654321', null, {}],
      ['fone-branco', null, ' ', '  ', null, {}],
      ['sms-nao', null, null, '11987654321', null, { 'sms.optout': true }],
      ['sms-nao-texto', null, null, '11987654321', null, { 'identify.sms_optout': '1' }],
      ['sms-sim', null, null, '11987654321', null, { 'sms.optout': false }],
      ['email', null, 'ana@exemplo.com.br', null, null, {}],
      ['email-nao', null, 'ana@exemplo.com.br', null, null, { 'email.optout': 'true' }],
      ['email-um', null, 'ana@exemplo.com.br', null, null, { 'email.optout': 1 }],
    ];
    for (const [vid, status, email, phone, sub, attributes] of people) {
      await t.app.ctx.db.execute(sql`
        INSERT INTO persons (uuid, domain_uuid, visitor_id, push_status, email, phone, push_subscription, attributes)
        VALUES (${randomUUID()}::uuid, ${d.uuid}::uuid, ${vid}, ${status}, ${email}, ${phone},
                ${sub ? JSON.stringify(sub) : null}::jsonb, ${JSON.stringify(attributes)}::jsonb)`);
    }
    const persons = await queryRows<q.DispatchPerson>(
      t.app.ctx.db,
      sql`SELECT uuid, visitor_id, email, phone, push_subscription, push_status, attributes FROM persons
          WHERE domain_uuid = ${d.uuid}::uuid`,
    );
    expect(persons).toHaveLength(people.length);
    const uuids = persons.map((p) => p.uuid);
    for (const channel of ['CELL_NOTIFICATION', 'ZENVIA', 'AWS_SES', 'AKNA', 'SUPERARE_WEBVIEW']) {
      const fromSql = new Map(
        (await q.unreachablePersons(t.app.ctx.db, uuids, unreachableReasonSql(channel))).map((r) => [r.uuid, r.reason]),
      );
      for (const p of persons) {
        expect(fromSql.get(p.uuid) ?? null, `${channel} ${p.visitor_id}`).toBe(unreachableReason(channel, p));
      }
    }
    // Each rule answers something for someone.
    const reasons = persons.flatMap((p) =>
      ['CELL_NOTIFICATION', 'ZENVIA', 'AWS_SES'].map((c) => unreachableReason(c, p)),
    );
    expect(new Set(reasons)).toEqual(
      new Set([
        null,
        NO_PUSH,
        'Visitante sem telefone.',
        'O visitante pediu para não receber SMS.',
        'Visitante sem e-mail.',
        'O visitante cancelou o recebimento de e-mails.',
      ]),
    );
  });
});
