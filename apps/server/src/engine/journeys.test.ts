import { randomUUID } from 'node:crypto';
import { journeyMessages } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { queryRows } from '../db/client.ts';
import { advancePositions, claimDuePositions } from './journey.queries.ts';
import type { StoredEvent } from './matcher.ts';

/*
 * Journeys (issue #26) through the engine, with the server's clock moved by hand: a three-step cart-abandonment
 * journey (push → 1 day, not converted → on-site → 3 days, not converted → push) over 1,000 persons, some buying after
 * the first message and some after the second: each person gets exactly the steps they should, buyers leave at once,
 * a pause holds everyone where they are and a start continues from there; a split sends its 'otherwise' message.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PERSONS = 1000;

let t: TestApp;
let push: PushService;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  push = await startPushService({ decrypt: 'count-only' });
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
  // 'Manter conectado': the session outlives the days the clock is moved.
  owner = await signUpAndSignIn(t.app, { keep: true });
});
afterAll(async () => {
  await t.close();
  await push.close();
});

type Site = { uuid: string; gero_id: string; root: string };
const site = async () => {
  const root = `https://jornada-${randomUUID().slice(0, 8)}.com.br`;
  return { ...(await createDomain(t.app, owner, `Jornada ${randomUUID().slice(0, 4)}`, root)), root } as Site;
};

/** `n` push subscribers of the domain, written at once. */
const subscribers = async (d: Site, n: number) => {
  const subs = Array.from({ length: n }, (_, i) => ({ vid: `j-${i}`, s: push.newSubscription().subscription }));
  return queryRows<{ uuid: string; visitor_id: string }>(
    t.app.ctx.db,
    sql`INSERT INTO persons (uuid, domain_uuid, visitor_id, push_subscription, push_status, first_seen, last_seen)
        SELECT gen_random_uuid(), ${d.uuid}::uuid, r.vid, r.s, 'subscribed', ${t.clock.now()}, ${t.clock.now()}
        FROM jsonb_to_recordset(${JSON.stringify(subs)}::jsonb) AS r(vid text, s jsonb)
        RETURNING uuid, visitor_id`,
  );
};

const collect = async (d: Site, vid: string, events: object[]) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: d.root, 'user-agent': CHROME },
    payload: JSON.stringify({ id: d.gero_id, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
};

/** The persons' visits to the cart page, as the collector hands stored events to the engine. */
const visitCart = async (d: Site, people: { uuid: string }[]) => {
  const now = t.clock.now();
  const events: StoredEvent[] = people.map((p, i) => ({
    id: i + 1,
    domainUuid: d.uuid,
    personUuid: p.uuid,
    kind: 'pageview',
    url: `${d.root}/carrinho`,
    category: null,
    props: null,
    ts: now,
  }));
  await t.app.engine.onEventsStored(events);
};

const pushMessage = (title: string) => ({
  filter: 'CELL_NOTIFICATION',
  name: title,
  title,
  message: 'Seu carrinho está te esperando.',
  icon_uri: 'https://loja.com.br/icone.png',
  redirect_uri: 'https://loja.com.br/carrinho',
});
const topbar = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
});

const createJourney = async (d: Site, first: object, body: Record<string, unknown>) => {
  const res = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    {
      domain_uuid: d.uuid,
      type: 'momentum',
      momentum_title: `Jornada ${randomUUID()}`,
      status: 'Active',
      momentums: [blocks.everyone, blocks.pageviewContaining('/carrinho'), { type: 'dispatcher', values: [first] }],
      ...body,
    },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { uuid: string };
};

const dispatchAll = async () => {
  while ((await t.app.engine.dispatchDue()) > 0);
};

/** Each person's steps that went out (step:branch, in order), by visitor id. */
const stepsByPerson = async (momentumUuid: string) => {
  const rows = await queryRows<{ visitor_id: string; steps: string[] }>(
    t.app.ctx.db,
    sql`SELECT p.visitor_id,
          array_agg(d.step::text || coalesce(':' || d.branch, '') ORDER BY d.step, d.created_at) AS steps
        FROM deliveries d JOIN persons p ON p.uuid = d.person_uuid
        WHERE d.momentum_uuid = ${momentumUuid}::uuid AND d.status IN ('sent', 'viewed', 'clicked')
        GROUP BY p.visitor_id`,
  );
  return new Map(rows.map((r) => [r.visitor_id, r.steps]));
};

const positions = (momentumUuid: string) =>
  queryRows<{ state: string; step: number; reason: string | null; n: number }>(
    t.app.ctx.db,
    sql`SELECT state, step, reason, count(*)::int AS n FROM journey_positions
        WHERE momentum_uuid = ${momentumUuid}::uuid GROUP BY state, step, reason ORDER BY state, step`,
  );

const setStatus = async (uuid: string, status: 'Active' | 'Paused') => {
  const res = await call(t.app, 'PUT', `/api/momentum/status/${uuid}`, { status }, owner.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

const day = (at: Date, offset: number) => new Date(at.getTime() + offset * DAY).toISOString().slice(0, 10);

describe('a three-step cart-abandonment journey over 1,000 persons', () => {
  it('sends each person exactly their steps, buyers leave at once, a pause holds and a start resumes', async () => {
    const start = new Date();
    t.clock.set(start);
    const d = await site();
    const people = await subscribers(d, PERSONS);
    const journey = await createJourney(d, pushMessage('Esqueceu algo?'), {
      steps: [
        {
          wait: { amount: 1, unit: 'days' },
          condition: { kind: 'not_converted' },
          values: [topbar('Ainda pensando?')],
        },
        {
          wait: { amount: 3, unit: 'days' },
          condition: { kind: 'not_converted' },
          values: [pushMessage('Cupom de 10% para você')],
        },
      ],
    });

    // Step 0: everyone who left the cart gets the push and enters the journey, waiting a day for step 1.
    await visitCart(d, people);
    await dispatchAll();
    expect(push.received).toHaveLength(PERSONS);
    expect(await positions(journey.uuid)).toEqual([{ state: 'waiting', step: 1, reason: null, n: PERSONS }]);

    // 100 buy an hour later: they leave the journey at once (the collector's conversion), not at the next step.
    const afterFirst = people.slice(0, 100);
    t.clock.advance(HOUR);
    for (const p of afterFirst) await collect(d, p.visitor_id, [{ t: 'cv', v: 100, o: `PED-${p.visitor_id}` }]);
    await t.app.ingestor.drain();
    expect(await positions(journey.uuid)).toEqual([
      { state: 'exited', step: 1, reason: journeyMessages.exitedConversion, n: 100 },
      { state: 'waiting', step: 1, reason: null, n: PERSONS - 100 },
    ]);

    // Nothing moves before the day has passed.
    t.clock.advance(DAY - 2 * HOUR);
    await dispatchAll();
    expect((await positions(journey.uuid)).find((p) => p.state === 'waiting')).toMatchObject({ step: 1 });

    // A day after the push: the 900 who did not buy get the on-site message and wait 3 days for step 2.
    t.clock.advance(2 * HOUR);
    await dispatchAll();
    let steps = await stepsByPerson(journey.uuid);
    expect([...steps.values()].filter((s) => s.includes('1'))).toHaveLength(PERSONS - 100);
    expect((await positions(journey.uuid)).find((p) => p.state === 'waiting')).toMatchObject({
      step: 2,
      n: PERSONS - 100,
    });

    // 100 others buy after the on-site message.
    const afterSecond = people.slice(100, 200);
    t.clock.advance(HOUR);
    for (const p of afterSecond) await collect(d, p.visitor_id, [{ t: 'cv', v: 50, o: `PED-${p.visitor_id}` }]);
    await t.app.ingestor.drain();

    // Paused: step 2's time comes and goes, nobody moves and nothing is sent.
    await setStatus(journey.uuid, 'Paused');
    t.clock.advance(4 * DAY);
    await dispatchAll();
    expect(push.received).toHaveLength(PERSONS);
    expect((await positions(journey.uuid)).find((p) => p.state === 'waiting')).toMatchObject({
      step: 2,
      n: PERSONS - 200,
    });

    // Started again: the 800 still waiting get step 2, once.
    await setStatus(journey.uuid, 'Active');
    await dispatchAll();
    await dispatchAll();
    expect(push.received).toHaveLength(PERSONS + PERSONS - 200);
    steps = await stepsByPerson(journey.uuid);
    for (const [i, p] of people.entries()) {
      const expected = i < 100 ? ['0'] : i < 200 ? ['0', '1'] : ['0', '1', '2'];
      expect(steps.get(p.visitor_id), p.visitor_id).toEqual(expected);
    }
    expect(await positions(journey.uuid)).toEqual([
      { state: 'done', step: 2, reason: null, n: PERSONS - 200 },
      { state: 'exited', step: 1, reason: journeyMessages.exitedConversion, n: 100 },
      { state: 'exited', step: 2, reason: journeyMessages.exitedConversion, n: 100 },
    ]);

    // The report's funnel.
    const res = await call(
      t.app,
      'GET',
      `/api/analytics/${d.uuid}/momentum/${journey.uuid}/journey?start=${day(start, -1)}&end=${day(start, 7)}`,
      undefined,
      owner.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.steps).toMatchObject([
      { step: 0, branch: 'main', reached: PERSONS, sent: PERSONS, exited_conversion: 0, left_by_condition: 0 },
      { step: 1, branch: 'main', reached: PERSONS - 100, sent: PERSONS - 100, exited_conversion: 100 },
      { step: 2, branch: 'main', reached: PERSONS - 200, sent: PERSONS - 200, exited_conversion: 100 },
    ]);

    // The same rows in the domain's export of every journey.
    const all = await call(
      t.app,
      'GET',
      `/api/analytics/${d.uuid}/journeys?start=${day(start, -1)}&end=${day(start, 7)}`,
      undefined,
      owner.token,
    );
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { momentum_uuid: journey.uuid, momentum_title: expect.any(String), steps: res.body.data.steps },
    ]);

    // The dashboard's performance table knows which rows to expand.
    const performance = await call(
      t.app,
      'GET',
      `/api/analytics/${d.uuid}/momentums/performance?start=${day(start, -1)}&end=${day(start, 7)}`,
      undefined,
      owner.token,
    );
    expect(performance.body.data).toEqual([expect.objectContaining({ momentum_uuid: journey.uuid, journey: true })]);

    // The delivery log says each delivery's step.
    const log = await call(t.app, 'GET', `/api/momentum/deliveries/${journey.uuid}`, undefined, owner.token);
    expect(log.status).toBe(200);
    expect(log.body.data.total).toBe(PERSONS + PERSONS - 100 + PERSONS - 200);
    expect(new Set(log.body.data.items.map((i: { step: number }) => i.step))).toEqual(new Set([2]));
    expect(log.body.data.items[0]).toMatchObject({ step: 2, branch: 'main' });
  }, 120_000);
});

describe('a split', () => {
  it("sends the 'otherwise' message to those whose condition failed, the main one to the others", async () => {
    t.clock.set(new Date());
    const d = await site();
    const people = await subscribers(d, 10);
    const journey = await createJourney(d, topbar('Seu carrinho'), {
      steps: [
        {
          wait: { amount: 2, unit: 'hours' },
          condition: { kind: 'viewed_page', comparation: 'contain', value: ['/produto'] },
          values: [topbar('Gostou do produto?')],
          otherwise: [topbar('Veja nossas ofertas')],
        },
      ],
    });
    await visitCart(d, people);
    await dispatchAll();
    t.clock.advance(HOUR);
    for (const p of people.slice(0, 4)) await collect(d, p.visitor_id, [{ t: 'pv', u: `${d.root}/produto/42` }]);
    await t.app.ingestor.drain();
    t.clock.advance(2 * HOUR);
    await dispatchAll();

    const steps = await stepsByPerson(journey.uuid);
    for (const [i, p] of people.entries())
      expect(steps.get(p.visitor_id), p.visitor_id).toEqual(i < 4 ? ['0', '1'] : ['0', '1:otherwise']);
    expect(await positions(journey.uuid)).toEqual([{ state: 'done', step: 1, reason: null, n: 10 }]);
  });

  it("a failed condition without 'otherwise' leaves the journey", async () => {
    t.clock.set(new Date());
    const d = await site();
    const people = await subscribers(d, 6);
    const journey = await createJourney(d, topbar('Seu carrinho'), {
      steps: [
        {
          wait: { amount: 30, unit: 'minutes' },
          condition: { kind: 'not_clicked' },
          values: [topbar('Não viu nossa mensagem?')],
        },
      ],
    });
    await visitCart(d, people);
    await dispatchAll();
    // Two click the first message.
    const clicked = await queryRows<{ id: string }>(
      t.app.ctx.db,
      sql`SELECT d.id FROM deliveries d WHERE d.momentum_uuid = ${journey.uuid}::uuid
          AND d.person_uuid IN (${people[0]!.uuid}::uuid, ${people[1]!.uuid}::uuid)`,
    );
    for (const [i, c] of clicked.entries()) await collect(d, people[i]!.visitor_id, [{ t: 'clicked', d: c.id }]);
    await t.app.ingestor.drain();
    t.clock.advance(31 * 60_000);
    await dispatchAll();

    const steps = await stepsByPerson(journey.uuid);
    for (const [i, p] of people.entries()) expect(steps.get(p.visitor_id)).toEqual(i < 2 ? ['0'] : ['0', '1']);
    expect(await positions(journey.uuid)).toEqual([
      { state: 'done', step: 1, reason: null, n: 4 },
      { state: 'left', step: 1, reason: journeyMessages.leftByCondition, n: 2 },
    ]);
  });
});

describe('positions', () => {
  const oneStep = (extra: Record<string, unknown> = {}) => ({
    steps: [{ wait: { amount: 1, unit: 'hours' }, condition: { kind: 'not_converted' }, values: [topbar('Volte!')] }],
    ...extra,
  });

  it('a position a dead worker claimed is handed back after the lease and runs once', async () => {
    t.clock.set(new Date());
    const d = await site();
    const people = await subscribers(d, 5);
    const journey = await createJourney(d, topbar('Seu carrinho'), oneStep());
    await visitCart(d, people);
    await dispatchAll();
    t.clock.advance(HOUR + 60_000);
    // A worker claims the due positions and dies before writing anything.
    const claimed = await claimDuePositions(t.app.ctx.db, t.clock.now(), 100);
    expect(claimed).toHaveLength(5);
    await dispatchAll();
    expect((await positions(journey.uuid)).map((p) => p.state)).toEqual(['running']);
    // Past the lease the sweeper hands them back; the next pass runs them.
    t.clock.advance((t.app.ctx.config.deliveryLeaseSeconds + 1) * 1000);
    await t.app.engine.sweep();
    await dispatchAll();
    expect(await positions(journey.uuid)).toEqual([{ state: 'done', step: 1, reason: null, n: 5 }]);
    // The dead worker's late write changes nothing: its lease is gone and the step's key is taken.
    const late = claimed.map((c) => ({
      domainUuid: c.domain_uuid,
      momentumUuid: c.momentum_uuid,
      personUuid: c.person_uuid,
      channelType: 'SUPERARE_WEBVIEW',
      dedupeKey: `${c.momentum_uuid}:${c.person_uuid}:j:${c.id}:${c.step}`,
      step: 1,
      branch: null,
    }));
    const moves = claimed.map((c) => ({
      id: c.id,
      lockedAt: c.locked_at,
      state: 'waiting' as const,
      step: 1,
      dueAt: t.clock.now(),
      sinceAt: null,
      reason: null,
    }));
    expect(await advancePositions(t.app.ctx.db, late, moves, t.clock.now())).toBe(0);
    expect(await positions(journey.uuid)).toEqual([{ state: 'done', step: 1, reason: null, n: 5 }]);
    const steps = await stepsByPerson(journey.uuid);
    for (const p of people) expect(steps.get(p.visitor_id)).toEqual(['0', '1']);
  });

  it('removing the momentum ends its journeys; opting out of the step channel exits when the rule says so', async () => {
    t.clock.set(new Date());
    const d = await site();
    const people = await subscribers(d, 4);
    const removed = await createJourney(d, topbar('Seu carrinho'), oneStep());
    const optOut = await createJourney(d, topbar('Seu carrinho'), {
      steps: [
        {
          wait: { amount: 1, unit: 'hours' },
          condition: { kind: 'not_converted' },
          values: [pushMessage('Cupom')],
        },
      ],
      exit: { on_conversion: true, on_opt_out: true },
    });
    await visitCart(d, people);
    await dispatchAll();
    const res = await call(t.app, 'DELETE', `/api/momentum/remove/${removed.uuid}`, undefined, owner.token);
    expect(res.status).toBe(200);
    expect(await positions(removed.uuid)).toEqual([
      { state: 'exited', step: 1, reason: journeyMessages.exitedRemoved, n: 4 },
    ]);

    await t.app.ctx.db.execute(
      sql`UPDATE persons SET push_status = 'unsubscribed' WHERE uuid IN (${people[0]!.uuid}::uuid, ${people[1]!.uuid}::uuid)`,
    );
    t.clock.advance(HOUR + 60_000);
    await dispatchAll();
    expect(await positions(optOut.uuid)).toEqual([
      { state: 'done', step: 1, reason: null, n: 2 },
      { state: 'exited', step: 1, reason: journeyMessages.exitedOptOut, n: 2 },
    ]);
  });

  it("a wait 'no horário de funcionamento' that ends outside the worktime moves to its next opening", async () => {
    t.clock.set('2026-11-20T20:00:00.000Z'); // Friday 17:00 in São Paulo
    const d = await site();
    const people = await subscribers(d, 2);
    const journey = await createJourney(d, topbar('Seu carrinho'), {
      worktime: { weekdays: [1, 2, 3, 4, 5], start_at: '09:00', stop_at: '18:00' },
      steps: [
        {
          wait: { amount: 2, unit: 'hours', worktime: true },
          condition: { kind: 'not_converted' },
          values: [topbar('Volte!')],
        },
      ],
    });
    await visitCart(d, people);
    await dispatchAll();
    t.clock.set('2026-11-21T15:00:00.000Z'); // Saturday
    await dispatchAll();
    // The wait ended Friday 19:00, after closing: the step waits for Monday 09:00, nothing inserted meanwhile.
    const waiting = await queryRows<{ due_at: string }>(
      t.app.ctx.db,
      sql`SELECT due_at::text FROM journey_positions WHERE momentum_uuid = ${journey.uuid}::uuid`,
    );
    expect(waiting.map((w) => new Date(w.due_at).toISOString())).toEqual([
      '2026-11-23T12:00:00.000Z',
      '2026-11-23T12:00:00.000Z',
    ]);
    expect((await stepsByPerson(journey.uuid)).get(people[0]!.visitor_id)).toEqual(['0']);
    t.clock.set('2026-11-23T12:00:30.000Z'); // Monday 09:00
    await dispatchAll();
    for (const p of people) expect((await stepsByPerson(journey.uuid)).get(p.visitor_id)).toEqual(['0', '1']);
  });

  it('a paused journey edited to have no steps finishes its persons without another message', async () => {
    t.clock.set(new Date());
    const d = await site();
    const people = await subscribers(d, 2);
    const journey = await createJourney(d, topbar('Seu carrinho'), oneStep());
    await visitCart(d, people);
    await dispatchAll();
    await setStatus(journey.uuid, 'Paused');
    const edited = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      {
        uuid: journey.uuid,
        domain_uuid: d.uuid,
        type: 'momentum',
        momentum_title: 'Sem etapas',
        momentums: [
          blocks.everyone,
          blocks.pageviewContaining('/carrinho'),
          { type: 'dispatcher', values: [topbar('x')] },
        ],
      },
      owner.token,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await setStatus(journey.uuid, 'Active');
    t.clock.advance(HOUR + 60_000);
    await dispatchAll();
    expect(await positions(journey.uuid)).toEqual([{ state: 'done', step: 1, reason: null, n: 2 }]);
    for (const p of people) expect((await stepsByPerson(journey.uuid)).get(p.visitor_id)).toEqual(['0']);
  });

  it('a step message still waiting when the journey is paused goes out once after the start, not skipped', async () => {
    t.clock.set(new Date());
    const d = await site();
    const people = await subscribers(d, 3);
    const journey = await createJourney(d, pushMessage('Seu carrinho'), {
      steps: [
        { wait: { amount: 1, unit: 'hours' }, condition: { kind: 'not_converted' }, values: [pushMessage('Volte!')] },
      ],
    });
    await visitCart(d, people);
    await dispatchAll();
    // Step 1 comes due while the push service is down: its messages wait for their retry when the pause comes.
    push.respondWith('*', 503, { 'retry-after': '600' });
    t.clock.advance(HOUR + 60_000);
    await dispatchAll();
    push.respondWith('*', null);
    const waiting = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM deliveries WHERE momentum_uuid = ${journey.uuid}::uuid AND step = 1
          AND status = 'queued'`,
    );
    expect(waiting[0]!.n).toBe(3);
    await setStatus(journey.uuid, 'Paused');
    expect(await positions(journey.uuid)).toEqual([{ state: 'waiting', step: 1, reason: null, n: 3 }]);

    await setStatus(journey.uuid, 'Active');
    t.clock.advance(HOUR);
    await dispatchAll();
    const steps = await stepsByPerson(journey.uuid);
    for (const p of people) expect(steps.get(p.visitor_id), p.visitor_id).toEqual(['0', '1']);
    expect(await positions(journey.uuid)).toEqual([{ state: 'done', step: 1, reason: null, n: 3 }]);
  });

  it('editing a paused journey keeps the persons at their step number', async () => {
    t.clock.set(new Date());
    const d = await site();
    const people = await subscribers(d, 3);
    const journey = await createJourney(d, topbar('Seu carrinho'), oneStep());
    await visitCart(d, people);
    await dispatchAll();
    await setStatus(journey.uuid, 'Paused');
    const edited = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      {
        uuid: journey.uuid,
        domain_uuid: d.uuid,
        type: 'momentum',
        momentum_title: 'Editada',
        momentums: [
          blocks.everyone,
          blocks.pageviewContaining('/carrinho'),
          { type: 'dispatcher', values: [topbar('Seu carrinho')] },
        ],
        steps: [
          { wait: { amount: 1, unit: 'hours' }, condition: { kind: 'not_converted' }, values: [topbar('Texto novo')] },
          { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [topbar('Último')] },
        ],
      },
      owner.token,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await setStatus(journey.uuid, 'Active');
    t.clock.advance(HOUR + 60_000);
    await dispatchAll();
    // Step 1 ran with the edited message, and they now wait for the new step 2.
    expect(await positions(journey.uuid)).toEqual([{ state: 'waiting', step: 2, reason: null, n: 3 }]);
    const texts = await queryRows<{ text: string }>(
      t.app.ctx.db,
      sql`SELECT q.payload #>> '{props,topbarContent}' AS text FROM deliveries d JOIN onsite_queue q ON q.delivery_id = d.id
          WHERE d.momentum_uuid = ${journey.uuid}::uuid AND d.step = 1`,
    );
    expect(texts.map((x) => x.text)).toEqual(['Texto novo', 'Texto novo', 'Texto novo']);
  });
});
