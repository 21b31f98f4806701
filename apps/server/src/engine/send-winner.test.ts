import { randomUUID } from 'node:crypto';
import { assignArm, experimentMessages, inTestShare } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { queryRows } from '../db/client.ts';

/*
 * Send the winner (issue #25) through the engine, the server's clock moved by hand: a campaign goes out to its test
 * share only, split among the variants; `hours` later the decision job picks the variant with the best click rate,
 * stores the decision and sends the winner to everyone else, nobody twice, across a second run of every job; a
 * campaign paused before the decision decides nothing until resumed.
 */

const HOUR = 3_600_000;
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** The test clock runs on from where it is set: an instant it produced is within a minute of the one expected. */
const near = (iso: string | null | undefined, expected: number) =>
  expect(Math.abs(new Date(iso ?? 0).getTime() - expected)).toBeLessThan(60_000);

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

const newDomain = async () => {
  const root = `https://vencedora-${++sites}.com.br`;
  return { ...(await createDomain(t.app, owner, `Loja ${sites}`, root)), root };
};
type Site = Awaited<ReturnType<typeof newDomain>>;

const persons = async (d: Site, n: number) =>
  queryRows<{ uuid: string }>(
    t.app.ctx.db,
    sql`INSERT INTO persons (uuid, domain_uuid, visitor_id, first_seen, last_seen)
        SELECT gen_random_uuid(), ${d.uuid}::uuid, 'p-' || i, ${t.clock.now()}, ${t.clock.now()}
        FROM generate_series(1, ${n}) AS i
        RETURNING uuid`,
  );

const topbar = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
});

const experiment = (control_percent: number) => ({
  control_percent,
  variants: [
    { name: 'A', weight: 50, values: [topbar('Variante A: frete grátis')] },
    { name: 'B', weight: 50, values: [topbar('Variante B: 10% off')] },
  ],
  winner: { test_percent: 20, hours: 4, metric: 'click_rate' },
});

const createCampaign = async (d: Site, control = 10) => {
  const res = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    {
      domain_uuid: d.uuid,
      type: 'campaign',
      momentum_title: `Campanha ${randomUUID()}`,
      status: 'Active',
      momentums: [blocks.everyone, { type: 'dispatcher', values: [topbar('Variante A: frete grátis')] }],
      experiment: experiment(control),
    },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { uuid: string };
};

interface Row {
  id: string;
  person_uuid: string;
  status: string;
  error: string | null;
  arm: string | null;
  content: string | null;
}
const deliveriesOf = (momentumUuid: string) =>
  queryRows<Row>(
    t.app.ctx.db,
    sql`SELECT d.id, d.person_uuid, d.status, d.error, d.arm, q.payload #>> '{props,topbarContent}' AS content
        FROM deliveries d LEFT JOIN onsite_queue q ON q.delivery_id = d.id
        WHERE d.momentum_uuid = ${momentumUuid}::uuid`,
  );

const clicked = async (d: Site, ids: string[]) => {
  for (let i = 0; i < ids.length; i += 20) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain', origin: d.root, 'user-agent': CHROME },
      payload: JSON.stringify({ id: d.gero_id, e: ids.slice(i, i + 20).map((id) => ({ t: 'clicked', d: id })) }),
    });
    expect(res.statusCode).toBe(202);
  }
  await t.app.ingestor.drain();
};

const day = (offset: number) => new Date(t.clock.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);
const report = async (d: Site, uuid: string) => {
  const res = await call(
    t.app,
    'GET',
    `/api/analytics/${d.uuid}/momentum/${uuid}/experiment?start=${day(-2)}&end=${day(1)}`,
    undefined,
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

const decisionJobs = async (uuid: string) =>
  (await t.app.engine.jobs.waiting('experiment.decide')).filter((j) => j.data.uuid === uuid);

describe('a campaign that tests on 20 % of 1,000 persons for 4 hours and sends the winner by click rate', () => {
  it('reaches the test share only, then sends B, which got more clicks, to everyone else, nobody twice', async () => {
    const start = new Date('2026-05-04T13:00:00.000Z');
    t.clock.set(start);
    const d = await newDomain();
    const people = await persons(d, 1000);
    const campaign = await createCampaign(d);
    await t.app.engine.settle();

    // The test share only, split among the variants; its control persons held out as usual.
    const test = await deliveriesOf(campaign.uuid);
    const tested = people.filter((p) => inTestShare(p.uuid, campaign.uuid, 20));
    expect(Math.abs(tested.length - 200)).toBeLessThanOrEqual(50);
    expect(new Set(test.map((r) => r.person_uuid))).toEqual(new Set(tested.map((p) => p.uuid)));
    for (const r of test) {
      expect(r.arm).toBe(assignArm(r.person_uuid, campaign.uuid, experiment(10)));
      if (r.arm === 'control') expect(r).toMatchObject({ status: 'skipped', error: experimentMessages.heldOut });
      else expect(r.status).toBe('sent');
    }
    const jobs = await decisionJobs(campaign.uuid);
    expect(jobs).toHaveLength(1);
    const planned = jobs[0]!.data.at as string;
    near(planned, start.getTime() + 4 * HOUR);
    const before = await report(d, campaign.uuid);
    expect(before.winner).toMatchObject({ test_percent: 20, hours: 4, metric: 'click_rate', planned_at: planned });
    expect(before.winner).toMatchObject({ decided_at: null, winner: null, rest: null });

    // B's message is clicked by half its persons, A's by a tenth.
    const sentTo = (arm: string) => test.filter((r) => r.arm === arm && r.status === 'sent');
    const [a, b] = [sentTo('A'), sentTo('B')];
    await clicked(d, [
      ...a.slice(0, Math.ceil(a.length / 10)).map((r) => r.id),
      ...b.slice(0, Math.ceil(b.length / 2)).map((r) => r.id),
    ]);

    // Nothing more before the decision.
    t.clock.set(new Date(start.getTime() + 3 * HOUR));
    await t.app.engine.settle();
    expect(await deliveriesOf(campaign.uuid)).toHaveLength(test.length);

    const decidedAt = new Date(planned).getTime() + 60_000;
    t.clock.set(new Date(decidedAt));
    await t.app.engine.settle();
    const all = await deliveriesOf(campaign.uuid);
    const byPerson = new Map<string, Row[]>();
    for (const r of all) byPerson.set(r.person_uuid, [...(byPerson.get(r.person_uuid) ?? []), r]);
    expect([...byPerson.values()].every((rows) => rows.length === 1)).toBe(true);
    const rest = people.filter((p) => !inTestShare(p.uuid, campaign.uuid, 20));
    const restNotHeld = rest.filter((p) => assignArm(p.uuid, campaign.uuid, experiment(10)) !== 'control');
    for (const p of restNotHeld) {
      expect(byPerson.get(p.uuid)?.[0]).toMatchObject({ status: 'sent', arm: 'B', content: 'Variante B: 10% off' });
    }
    // The rest's control persons stay held out: nothing is queued for them.
    expect(all).toHaveLength(test.length + restNotHeld.length);
    // The test's persons kept their own variant.
    for (const r of test) expect(byPerson.get(r.person_uuid)?.[0]?.arm).toBe(r.arm);

    const after = await report(d, campaign.uuid);
    expect(after.winner).toMatchObject({
      metric: 'click_rate',
      planned_at: planned,
      winner: 'B',
      rest: restNotHeld.length,
    });
    near(after.winner.decided_at, decidedAt);
    expect(after.winner.rates).toEqual([
      {
        arm: 'A',
        rate: (Math.ceil(a.length / 10) / a.length) * 100,
        successes: Math.ceil(a.length / 10),
        trials: a.length,
      },
      {
        arm: 'B',
        rate: (Math.ceil(b.length / 2) / b.length) * 100,
        successes: Math.ceil(b.length / 2),
        trials: b.length,
      },
    ]);
    // The campaign's item carries the decision (the form's summary reads it).
    const list = await call(t.app, 'GET', `/api/momentum/list/${d.uuid}?type=campaign`, undefined, owner.token);
    const item = (list.body.data as { uuid: string; experiment_decision?: { winner?: string } }[]).find(
      (i) => i.uuid === campaign.uuid,
    );
    expect(item?.experiment_decision?.winner).toBe('B');

    // Every job once more (a worker crash and a retry): nobody receives anything twice, the decision stands.
    const activatedAt = (
      await queryRows<{ at: string }>(
        t.app.ctx.db,
        sql`SELECT to_char(activated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM momentums
            WHERE uuid = ${campaign.uuid}::uuid`,
      )
    )[0]!.at;
    await t.app.engine.jobs.run('experiment.decide', { uuid: campaign.uuid, at: planned });
    await t.app.engine.jobs.run('campaign.fanout', { uuid: campaign.uuid, at: activatedAt });
    await t.app.engine.settle();
    const again = await deliveriesOf(campaign.uuid);
    const sent = (rows: Row[]) => rows.filter((r) => r.status === 'sent' || r.status === 'clicked');
    expect(sent(again)).toHaveLength(sent(all).length);
    expect(new Set(sent(again).map((r) => r.person_uuid)).size).toBe(sent(again).length);
    expect((await report(d, campaign.uuid)).winner).toEqual(after.winner);
  });

  it('decides nothing while paused; resumed, it tests for the hours again and then sends the winner', async () => {
    const start = new Date('2026-05-06T13:00:00.000Z');
    t.clock.set(start);
    const d = await newDomain();
    const people = await persons(d, 300);
    const campaign = await createCampaign(d, 0);
    await t.app.engine.settle();
    const test = await deliveriesOf(campaign.uuid);
    expect(test.length).toBe(people.filter((p) => inTestShare(p.uuid, campaign.uuid, 20)).length);

    t.clock.set(new Date(start.getTime() + HOUR));
    const pause = await call(t.app, 'PUT', `/api/momentum/status/${campaign.uuid}`, { status: 'Paused' }, owner.token);
    expect(pause.status).toBe(200);
    t.clock.set(new Date(start.getTime() + 5 * HOUR));
    await t.app.engine.settle();
    expect(await deliveriesOf(campaign.uuid)).toHaveLength(test.length);
    expect((await report(d, campaign.uuid)).winner.decided_at).toBeNull();

    const resumedAt = new Date(start.getTime() + 6 * HOUR);
    t.clock.set(resumedAt);
    const resume = await call(t.app, 'PUT', `/api/momentum/status/${campaign.uuid}`, { status: 'Active' }, owner.token);
    expect(resume.status).toBe(200);
    await t.app.engine.settle();
    const replanned = (await report(d, campaign.uuid)).winner;
    near(replanned.planned_at, resumedAt.getTime() + 4 * HOUR);
    expect(replanned.decided_at).toBeNull();
    expect(await deliveriesOf(campaign.uuid)).toHaveLength(test.length);

    t.clock.set(new Date(new Date(replanned.planned_at).getTime() + 60_000));
    await t.app.engine.settle();
    const all = await deliveriesOf(campaign.uuid);
    expect(new Set(all.map((r) => r.person_uuid)).size).toBe(300);
    expect(all).toHaveLength(300);
    // No clicks on either: a tie goes to the first variant.
    expect((await report(d, campaign.uuid)).winner).toMatchObject({ winner: 'A', rest: 300 - test.length });
  });
});
