import { randomUUID } from 'node:crypto';
import { assignArm, inGlobalControl } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { queryRows } from '../db/client.ts';

/*
 * Experiments (issue #25) through the engine: persons who qualify are split into the control group and the variants
 * by the shared assignment, the control group receives nothing (a `skipped` delivery with its reason, no frequency
 * cap used), each variant receives its own message, the arm is stored on the delivery, conversions land in the
 * person's arm, and the domain's global control group receives nothing from any momentum.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let sites = 0;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
  owner = await signUpAndSignIn(t.app);
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  t.clock.set(new Date());
});

const newDomain = async () => {
  const root = `https://experimento-${++sites}.com.br`;
  return { ...(await createDomain(t.app, owner, `Loja ${sites}`, root)), root };
};
type Site = Awaited<ReturnType<typeof newDomain>>;

/** `n` persons of the domain, written at once (the collector would take a request each). */
const persons = async (d: Site, n: number) =>
  queryRows<{ uuid: string; visitor_id: string }>(
    t.app.ctx.db,
    sql`INSERT INTO persons (uuid, domain_uuid, visitor_id, first_seen, last_seen)
        SELECT gen_random_uuid(), ${d.uuid}::uuid, 'p-' || i, ${t.clock.now()}, ${t.clock.now()}
        FROM generate_series(1, ${n}) AS i
        RETURNING uuid, visitor_id`,
  );

const collect = async (d: Site, vid: string, events: object[]) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: d.root, 'user-agent': CHROME },
    payload: JSON.stringify({ id: d.gero_id, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
};

const topbar = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
});

const createCampaign = async (d: Site, body: Record<string, unknown> = {}, text = 'Frete grátis hoje!') => {
  const res = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    {
      domain_uuid: d.uuid,
      type: 'campaign',
      momentum_title: `Campanha ${randomUUID()}`,
      status: 'Active',
      momentums: [blocks.everyone, { type: 'dispatcher', values: [topbar(text)] }],
      ...body,
    },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { uuid: string; experiment: unknown; momentums: { type: string; values: object[] }[] };
};

const runFanOut = async (uuid: string) => {
  const [job] = (await t.app.engine.jobs.waiting('campaign.fanout')).filter((j) => j.data.uuid === uuid);
  await t.app.engine.jobs.run('campaign.fanout', job!.data);
};
const dispatchAll = async () => {
  while ((await t.app.engine.dispatchDue()) > 0);
};

interface Row {
  person_uuid: string;
  visitor_id: string;
  status: string;
  error: string | null;
  arm: string | null;
  sent_at: string | null;
  content: string | null;
}
const deliveriesOf = (momentumUuid: string) =>
  queryRows<Row>(
    t.app.ctx.db,
    sql`SELECT d.person_uuid, p.visitor_id, d.status, d.error, d.arm, d.sent_at::text,
          q.payload #>> '{props,topbarContent}' AS content
        FROM deliveries d JOIN persons p ON p.uuid = d.person_uuid
        LEFT JOIN onsite_queue q ON q.delivery_id = d.id
        WHERE d.momentum_uuid = ${momentumUuid}::uuid`,
  );

/** Yesterday to tomorrow: the counters' day is the domain's (America/Sao_Paulo), not UTC's. */
const day = (offset: number) => new Date(t.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
const report = (d: Site, momentumUuid: string) =>
  call(
    t.app,
    'GET',
    `/api/analytics/${d.uuid}/momentum/${momentumUuid}/experiment?start=${day(-1)}&end=${day(1)}`,
    undefined,
    owner.token,
  );

const experiment = {
  control_percent: 20,
  variants: [
    { name: 'A', weight: 50, values: [topbar('Variante A: frete grátis')] },
    { name: 'B', weight: 50, values: [topbar('Variante B: 10% off')] },
  ],
};

describe('a campaign with a 20 % control group and an A/B test 50/50, to 1,000 persons', () => {
  it('splits them by the shared assignment, sends each variant its message and holds the control out', async () => {
    const d = await newDomain();
    const people = await persons(d, 1000);
    const campaign = await createCampaign(d, { experiment });
    // The dispatcher block carries the first variant's message.
    expect(campaign.momentums.find((b) => b.type === 'dispatcher')?.values[0]).toMatchObject(
      topbar('Variante A: frete grátis'),
    );
    await runFanOut(campaign.uuid);
    await dispatchAll();

    const rows = await deliveriesOf(campaign.uuid);
    expect(rows).toHaveLength(1000);
    const count = (arm: string) => rows.filter((r) => r.arm === arm).length;
    // The persons' ids are random: each share within 4 standard deviations of 1,000 draws.
    expect(Math.abs(count('control') / 1000 - 0.2)).toBeLessThanOrEqual(0.05);
    expect(Math.abs(count('A') / 1000 - 0.4)).toBeLessThanOrEqual(0.065);
    expect(Math.abs(count('B') / 1000 - 0.4)).toBeLessThanOrEqual(0.065);
    expect(count('control') + count('A') + count('B')).toBe(1000);

    for (const r of rows) {
      // The engine's arm is the shared function's: the simulator and a restart agree.
      expect(r.arm).toBe(assignArm(r.person_uuid, campaign.uuid, experiment));
      if (r.arm === 'control') {
        expect(r).toMatchObject({ status: 'skipped', error: 'grupo de controle', sent_at: null, content: null });
      } else {
        expect(r.status).toBe('sent');
        expect(r.content).toBe(r.arm === 'A' ? 'Variante A: frete grátis' : 'Variante B: 10% off');
      }
    }
    expect(people).toHaveLength(1000);

    // The delivery log explains it.
    const log = await call(
      t.app,
      'GET',
      `/api/momentum/deliveries/${campaign.uuid}?status=skipped`,
      undefined,
      owner.token,
    );
    expect(log.status).toBe(200);
    expect(log.body.data.total).toBe(count('control'));
    expect(new Set(log.body.data.items.map((i: { reason: string }) => i.reason))).toEqual(
      new Set(['grupo de controle']),
    );

    // Conversions land in the buyer's arm: three of the control, four of A, five of B, one buying twice.
    const pick = (arm: string, n: number) => rows.filter((r) => r.arm === arm).slice(0, n);
    const buyers = [...pick('control', 3), ...pick('A', 4), ...pick('B', 5)];
    for (const b of buyers) await collect(d, b.visitor_id, [{ t: 'cv', v: 100, o: `PED-${b.visitor_id}` }]);
    await collect(d, pick('B', 1)[0]!.visitor_id, [{ t: 'cv', v: 50, o: 'PED-SEGUNDO' }]);
    await t.app.ingestor.drain();

    const res = await report(d, campaign.uuid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const arms = Object.fromEntries(
      (res.body.data.arms as { arm: string }[]).map(({ arm, ...rest }) => [arm, rest]),
    ) as Record<string, Record<string, number | string>>;
    expect(Object.keys(arms)).toEqual(['control', 'A', 'B']);
    expect(arms.control).toMatchObject({
      assigned: count('control'),
      sent: 0,
      converted: 3,
      conversions: 3,
      revenue: 300,
    });
    expect(arms.A).toMatchObject({
      assigned: count('A'),
      sent: count('A'),
      converted: 4,
      conversions: 4,
      revenue: 400,
    });
    expect(arms.B).toMatchObject({
      assigned: count('B'),
      sent: count('B'),
      converted: 5,
      conversions: 6,
      revenue: 550,
    });
    expect(arms.control?.label).toBe('Grupo de controle');
    expect(arms.B?.share).toBe(40);
    const vsControl = res.body.data.against_control as { arm: string; lift_pp: number; verdict: string }[];
    expect(vsControl.map((c) => c.arm)).toEqual(['A', 'B']);
    expect(vsControl[1]?.lift_pp).toBeCloseTo((5 / count('B') - 3 / count('control')) * 100, 9);
    expect(vsControl[1]?.verdict).toMatch(
      /^Ainda sem diferença significativa: faltam cerca de [\d.]+ pessoas por grupo$/,
    );
    expect(res.body.data.by_click_rate).toHaveLength(1);

    // The performance table marks the item, so it can link to the report.
    const perf = await call(
      t.app,
      'GET',
      `/api/analytics/${d.uuid}/momentums/performance?start=${day(-1)}&end=${day(1)}`,
      undefined,
      owner.token,
    );
    expect(perf.body.data).toEqual([expect.objectContaining({ momentum_uuid: campaign.uuid, has_experiment: true })]);

    // The dashboard's export reads every experiment of the domain at once; another company reads none of it.
    const all = await call(
      t.app,
      'GET',
      `/api/analytics/${d.uuid}/experiments?start=${day(-1)}&end=${day(1)}`,
      undefined,
      owner.token,
    );
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([res.body.data]);
    const stranger = await signUpAndSignIn(t.app);
    for (const url of [
      `/api/analytics/${d.uuid}/experiments?start=${day(-1)}&end=${day(1)}`,
      `/api/analytics/${d.uuid}/momentum/${campaign.uuid}/experiment?start=${day(-1)}&end=${day(1)}`,
    ]) {
      expect((await call(t.app, 'GET', url, undefined, stranger.token)).status).toBe(404);
    }
    const badRange = await call(
      t.app,
      'GET',
      `/api/analytics/${d.uuid}/momentum/${campaign.uuid}/experiment?start=${day(1)}&end=${day(-1)}`,
      undefined,
      owner.token,
    );
    expect(badRange.status).toBe(400);
    expect(badRange.body.message).toMatch(/data/i);
  });

  it('uses no frequency cap for the control group: they still receive the next campaign', async () => {
    const d = await newDomain();
    await persons(d, 200);
    const cap = await call(
      t.app,
      'PUT',
      `/api/domain/frequency/${d.uuid}`,
      { domain: { frequency_cap_day: 1, frequency_cap_week: null } },
      owner.token,
    );
    expect(cap.status).toBe(200);
    const first = await createCampaign(d, { experiment });
    await runFanOut(first.uuid);
    await dispatchAll();
    const second = await createCampaign(d, {}, 'Segunda campanha');
    await runFanOut(second.uuid);
    await dispatchAll();

    const armOf = new Map((await deliveriesOf(first.uuid)).map((r) => [r.person_uuid, r.arm]));
    const next = await deliveriesOf(second.uuid);
    expect(next).toHaveLength(200);
    for (const r of next) {
      if (armOf.get(r.person_uuid) === 'control') expect(r).toMatchObject({ status: 'sent', arm: null });
      else expect(r).toMatchObject({ status: 'skipped', error: 'limite de frequência' });
    }
  });
});

describe("the domain's global control group", () => {
  it('receives nothing from two different momentums, and is the same persons in both', async () => {
    const d = await newDomain();
    await persons(d, 400);
    const set = await call(
      t.app,
      'PUT',
      `/api/domain/update/${d.uuid}`,
      { domain: { control_group_percent: 10 } },
      owner.token,
    );
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.control_group_percent).toBe(10);

    const one = await createCampaign(d, {}, 'Primeira');
    const two = await createCampaign(d, { experiment }, 'Segunda');
    for (const c of [one, two]) await runFanOut(c.uuid);
    await dispatchAll();

    const held = new Map<string, string[]>();
    for (const c of [one, two]) {
      for (const r of await deliveriesOf(c.uuid)) {
        const inGlobal = inGlobalControl(r.person_uuid, d.uuid, 10);
        if (inGlobal) {
          expect(r).toMatchObject({
            status: 'skipped',
            error: 'grupo de controle global',
            arm: 'global',
            content: null,
          });
          held.set(r.person_uuid, [...(held.get(r.person_uuid) ?? []), c.uuid]);
        } else {
          expect(r.error).not.toBe('grupo de controle global');
        }
      }
    }
    expect(held.size).toBeGreaterThan(20);
    expect(held.size).toBeLessThan(60);
    for (const momentums of held.values()) expect(momentums).toEqual([one.uuid, two.uuid]);

    // Global persons are not counted in the momentum's experiment.
    const res = await report(d, two.uuid);
    const assigned = (res.body.data.arms as { assigned: number }[]).reduce((s, a) => s + a.assigned, 0);
    expect(assigned).toBe(400 - held.size);
  });
});

describe('a momentum without experiment in a domain without global group', () => {
  it('sends everyone the message and records no arm, exactly as before', async () => {
    const d = await newDomain();
    await persons(d, 50);
    const c = await createCampaign(d);
    expect(c.experiment).toBeNull();
    await runFanOut(c.uuid);
    await dispatchAll();
    const rows = await deliveriesOf(c.uuid);
    expect(rows.every((r) => r.status === 'sent' && r.arm === null && r.content === 'Frete grátis hoje!')).toBe(true);
    const perf = await call(
      t.app,
      'GET',
      `/api/analytics/${d.uuid}/momentums/performance?start=${day(-1)}&end=${day(1)}`,
      undefined,
      owner.token,
    );
    expect(perf.body.data[0]).not.toHaveProperty('has_experiment');
    const res = await report(d, c.uuid);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Este momentum não tem teste A/B nem grupo de controle.');
  });
});
