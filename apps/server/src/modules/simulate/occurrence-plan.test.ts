import { randomUUID } from 'node:crypto';
import { experimentMessages, inTestShare, simulateMessages } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { type PushService, startPushService } from '../../../test/push-service.ts';
import { queryRows } from '../../db/client.ts';
import type { Principal } from '../../lib/auth-guard.ts';
import { simulate } from './simulate.service.ts';

/*
 * The occurrence replay plans like the fan-out (issues #25, #27, #28): a day of a shop's push subscribers (in São Paulo
 * and in Manaus, an hour behind, some joining during the day) lived through the collector with the engine running on
 * a clock the test moves, for a daily recurrence on each visitor's clock inside a worktime window on that clock, and
 * for a campaign that tests two variants on 20 % of its audience and sends the winner to the rest 4 hours later. Each
 * simulation must name the people the engine sent to, at the instants it sent, and count the rows it wrote; a
 * simulation taken before the decision counts the rest as waiting for it.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ROOT = 'https://loja-recorrente.com.br';
const STEP_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;

let t: TestApp;
let push: PushService;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: Awaited<ReturnType<typeof createDomain>>;
let frozen = 0;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
  push = await startPushService();
  owner = await signUpAndSignIn(t.app);
  t.clock.now = () => new Date(frozen);
});
afterAll(async () => {
  await t.close();
  await push.close();
});

const principal = (): Principal => ({
  token: owner.token,
  sessionId: '',
  userUuid: owner.signin.body.data.user_uuid,
  companyUuid: owner.company.uuid,
  username: owner.user.username,
  role: 'admin',
});

const collect = async (vid: string, events: object[], tz?: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: ROOT, 'user-agent': CHROME },
    payload: JSON.stringify({ id: domain.gero_id, vid, e: events, ...(tz ? { tz } : {}) }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};

/** The zones of the visitors: most in São Paulo, a third in Manaus, a few in Tokyo. */
const zoneOf = (i: number) => (i % 7 === 6 ? 'Asia/Tokyo' : i % 3 === 1 ? 'America/Manaus' : 'America/Sao_Paulo');

/** A visitor's first visit, subscribed to push unless told otherwise. */
const arrive = async (i: number, subscribed = i % 5 !== 4) => {
  const vid = `v-${i}-${randomUUID()}`;
  await collect(vid, [{ t: 'pv', u: `${ROOT}/` }], zoneOf(i));
  if (subscribed) await collect(vid, [{ t: 'optin', s: push.newSubscription().subscription }]);
};

const pushValues = (title: string) => ({
  filter: 'CELL_NOTIFICATION',
  name: title,
  title,
  message: 'Aproveite hoje.',
  icon_uri: `${ROOT}/icone.png`,
  redirect_uri: `${ROOT}/ofertas`,
});
const everyone = { type: 'filter', values: [{ filter: 'all' }] };

const create = async (body: Record<string, unknown>) => {
  const res = await call(
    t.app,
    'POST',
    '/api/momentum/create',
    { domain_uuid: domain.uuid, status: 'Active', ...body },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.uuid as string;
};

/** What the engine sent for a momentum: `person@instant`, sorted. */
const sentBy = async (momentumUuid: string) =>
  (
    await queryRows<{ person_uuid: string; sent_at: Date | string }>(
      t.app.ctx.db,
      sql`SELECT person_uuid, sent_at FROM deliveries
          WHERE momentum_uuid = ${momentumUuid}::uuid AND status IN ('sent', 'viewed', 'clicked')`,
    )
  )
    .map((r) => `${r.person_uuid}@${new Date(r.sent_at).toISOString()}`)
    .sort();

const rowsBy = (momentumUuid: string) =>
  queryRows<{ status: string; error: string | null; trigger_at: Date | string; n: number }>(
    t.app.ctx.db,
    sql`SELECT status, error, trigger_at, count(*)::int AS n FROM deliveries WHERE momentum_uuid = ${momentumUuid}::uuid
        GROUP BY status, error, trigger_at`,
  );

/** The simulation of a momentum over the day before the clock, with what it sent as `person@instant`, sorted. */
const simulateDay = async (uuid: string, body: Record<string, unknown>) => {
  const sent: string[] = [];
  const result = await simulate(
    t.app.ctx,
    principal(),
    { momentum: { domain_uuid: domain.uuid, momentum_title: 'Simulado', uuid, ...body } as never, days: 1 },
    new AbortController().signal,
    { onSent: (p, at) => sent.push(`${p}@${at.toISOString()}`) },
  );
  const removed = (stage: string) => result.stages.find((s) => s.stage === stage)!.removed;
  return { result, sent: sent.sort(), removed, planned: result.stages[0]!.entered - removed('filter') };
};

describe('the occurrence replay plans each person as the fan-out does', () => {
  it('on the visitor’s clock and for a campaign that sends the winner, names whom the engine sent to and when', async () => {
    // 08:30 in São Paulo, two days ago: the day replayed runs from here.
    const start = new Date(Date.now() - 2 * 86_400_000);
    start.setUTCHours(11, 30, 0, 0);
    frozen = start.getTime();
    const end = start.getTime() + 24 * HOUR_MS;
    domain = await createDomain(t.app, owner, 'Loja recorrente', ROOT);
    for (let i = 0; i < 60; i++) await arrive(i);

    // (a) Every day at 12:30 on each visitor's clock, inside its 12:00–18:00 window: São Paulo's at 15:30 UTC,
    // Manaus' at 16:30 UTC (on the domain's clock Manaus' would wait for 12:00 there, 16:00 UTC); the day's
    // occurrence ticked (in UTC+14) before the momentum started. Tokyo's clock had read it already (03:30 UTC):
    // they are left out of it (no row) and get the next day's at 03:30 UTC. Each send is repeated an hour later; one
    // who cannot receive push gets one skipped row per occurrence.
    const recurrence: Record<string, unknown> = {
      type: 'momentum',
      momentum_title: 'Ofertas do dia',
      momentums: [
        everyone,
        {
          type: 'trigger',
          regex: false,
          values: [{ dischargeIn: [], filter: 'recurrence', comparation: 'daily', value: [], hours: '12:30' }],
        },
        { type: 'dispatcher', values: [{ ...pushValues('Ofertas do dia'), intervalRecurrency: [3600] }] },
      ],
      worktime: { weekdays: [0, 1, 2, 3, 4, 5, 6], start_at: '12:00', stop_at: '18:00' },
      worktime_zone: 'visitor',
    };
    const recurrenceUuid = await create(recurrence);

    // (b) At 10:00 in São Paulo: variants A and B on 20 % of the audience, the winner to the rest at 14:00.
    const campaignAt = start.getTime() + 6 * STEP_MS;
    const decisionAt = campaignAt + 4 * HOUR_MS;
    const campaign: Record<string, unknown> = {
      type: 'campaign',
      momentum_title: 'Campanha vencedora',
      momentums: [everyone, { type: 'dispatcher', values: [pushValues('Variante A')] }],
      experiment: {
        control_percent: 10,
        variants: [
          { name: 'A', weight: 50, values: [pushValues('Variante A')] },
          { name: 'B', weight: 50, values: [pushValues('Variante B')] },
        ],
        winner: { test_percent: 20, hours: 4, metric: 'click_rate' },
      },
    };
    let campaignUuid = '';
    let beforeDecision: Awaited<ReturnType<typeof simulateDay>> | null = null;
    let sentBeforeDecision: string[] = [];
    // Visitors who come later: after the campaign went out (the rest's fan-out reads them), then after each fan-out.
    const joining = new Map([
      [campaignAt + HOUR_MS, [60, 61, 62]],
      [start.getTime() + 6 * HOUR_MS, [63, 64]],
      [start.getTime() + 14 * HOUR_MS, [65]],
    ]);
    for (let at = start.getTime() + STEP_MS; at <= end; at += STEP_MS) {
      frozen = at;
      if (at === campaignAt) {
        campaignUuid = await create(campaign);
        campaign.scheduled_at = new Date(at).toISOString();
      }
      for (const i of joining.get(at) ?? []) await arrive(i);
      await t.app.engine.settle();
      if (at === campaignAt + 2 * HOUR_MS) {
        beforeDecision = await simulateDay(campaignUuid, campaign);
        sentBeforeDecision = await sentBy(campaignUuid);
      }
    }

    // (a) The same people at the same instants, in both zones; the next day's sends still wait (their rows exist).
    const daily = await simulateDay(recurrenceUuid, recurrence);
    const dailySent = await sentBy(recurrenceUuid);
    expect(daily.sent, JSON.stringify(daily.result.stages)).toEqual(dailySent);
    expect(new Set(dailySent.map((s) => s.split('@')[1]))).toEqual(
      new Set([
        new Date(start.getTime() + 4 * HOUR_MS).toISOString(),
        new Date(start.getTime() + 5 * HOUR_MS).toISOString(),
        new Date(start.getTime() + 6 * HOUR_MS).toISOString(),
        new Date(start.getTime() + 16 * HOUR_MS).toISOString(),
        new Date(start.getTime() + 17 * HOUR_MS).toISOString(),
      ]),
    );
    const dailyRows = await rowsBy(recurrenceUuid);
    const count = (rows: typeof dailyRows, where: (r: (typeof rows)[number]) => boolean = () => true) =>
      rows.filter(where).reduce((s, r) => s + r.n, 0);
    expect(daily.planned, JSON.stringify(dailyRows)).toBe(count(dailyRows));
    expect(daily.removed('channel')).toBe(count(dailyRows, (r) => r.status === 'skipped'));
    expect(daily.removed('channel')).toBeGreaterThan(0);
    expect(daily.removed('schedule')).toBe(count(dailyRows, (r) => r.status === 'queued'));
    expect(daily.removed('schedule')).toBeGreaterThan(0);

    // (b) Before the decision: the test share only went out; the rest waits for the winner.
    const campaignRows = await rowsBy(campaignUuid);
    const restRows = campaignRows.filter((r) => new Date(r.trigger_at).getTime() === decisionAt);
    expect(beforeDecision!.sent).toEqual(sentBeforeDecision);
    expect(sentBeforeDecision.length).toBeGreaterThan(0);
    expect(beforeDecision!.removed('schedule')).toBe(count(restRows, (r) => r.status !== 'skipped'));
    expect(beforeDecision!.removed('schedule')).toBeGreaterThan(0);
    expect(beforeDecision!.result.sample.some((s) => s.reason === simulateMessages.waitingWinner)).toBe(true);
    // The rows it expects are those the engine wrote then and at the decision (none for the rest's held-out persons).
    expect(beforeDecision!.planned).toBe(count(campaignRows));

    // After it: the test share at the occurrence, the rest (those who came in between too) at the decision.
    const winner = await simulateDay(campaignUuid, campaign);
    const campaignSent = await sentBy(campaignUuid);
    expect(winner.sent, JSON.stringify(winner.result.stages)).toEqual(campaignSent);
    const at = (s: string) => new Date(s.split('@')[1]!).getTime();
    const tested = campaignSent.filter((s) => at(s) === campaignAt);
    const rest = campaignSent.filter((s) => at(s) === decisionAt);
    expect(tested.length + rest.length).toBe(campaignSent.length);
    for (const s of tested) expect(inTestShare(s.split('@')[0]!, campaignUuid, 20)).toBe(true);
    for (const s of rest) expect(inTestShare(s.split('@')[0]!, campaignUuid, 20)).toBe(false);
    expect(rest.length).toBeGreaterThan(tested.length);
    expect(winner.planned, JSON.stringify(campaignRows)).toBe(count(campaignRows));
    expect(winner.removed('channel') + winner.removed('control_group')).toBe(
      count(campaignRows, (r) => r.status === 'skipped'),
    );
    expect(winner.removed('control_group')).toBe(count(campaignRows, (r) => r.error === experimentMessages.heldOut));
  }, 180_000);
});
