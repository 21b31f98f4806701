import { randomUUID } from 'node:crypto';
import { experimentMessages, inTestShare, simulateMessages } from '@impeto/shared';
import { describe, expect, it } from 'vitest';
import { agreementDay, CHROME, countRows as count, everyone, HOUR_MS, STEP_MS, trigger } from './agreement-kit.ts';

/*
 * The occurrence replay plans like the fan-out (issues #25, #27, #28): a day of a shop's push subscribers (in São Paulo
 * and in Manaus, an hour behind, some joining during the day) lived through the collector with the engine running on
 * a clock the test moves, for a daily recurrence on each visitor's clock inside a worktime window on that clock, and
 * for a campaign that tests two variants on 20 % of its audience and sends the winner to the rest 4 hours later. Each
 * simulation must name the people the engine sent to, at the instants it sent, and count the rows it wrote; a
 * simulation taken before the decision counts the rest as waiting for it.
 */

const ROOT = 'https://loja-recorrente.com.br';

const day = agreementDay(ROOT);
const { pushBlock, pushValues } = day;

/** The zones of the visitors: most in São Paulo, a third in Manaus, a few in Tokyo. */
const zoneOf = (i: number) => (i % 7 === 6 ? 'Asia/Tokyo' : i % 3 === 1 ? 'America/Manaus' : 'America/Sao_Paulo');

/** A visitor's first visit, subscribed to push unless told otherwise. */
const arrive = async (i: number, subscribed = i % 5 !== 4) => {
  const vid = `v-${i}-${randomUUID()}`;
  await day.collect(vid, CHROME, [{ t: 'pv', u: `${ROOT}/` }], zoneOf(i));
  if (subscribed) await day.collect(vid, CHROME, [{ t: 'optin', s: day.push.newSubscription().subscription }]);
};

/** What the engine sent for a momentum: `person@instant`, sorted. */
const sentBy = async (momentumUuid: string) =>
  (await day.sentBy(momentumUuid)).map((r) => `${r.person_uuid}@${new Date(r.at).toISOString()}`).sort();

/** The simulation of a momentum over the day before the clock, with what it sent as `person@instant`, sorted. */
const simulateDay = async (uuid: string, body: Record<string, unknown>) => {
  const sent: string[] = [];
  const result = await day.simulateDay(uuid, body, (p, at) => sent.push(`${p}@${at.toISOString()}`));
  const removed = (stage: string) => result.stages.find((s) => s.stage === stage)!.removed;
  return { result, sent: sent.sort(), removed, planned: result.stages[0]!.entered - removed('filter') };
};

describe('the occurrence replay plans each person as the fan-out does', () => {
  it('on the visitor’s clock and for a campaign that sends the winner, names whom the engine sent to and when', async () => {
    // 08:30 in São Paulo, two days ago: the day replayed runs from here.
    const start = new Date(Date.now() - 2 * 86_400_000);
    start.setUTCHours(11, 30, 0, 0);
    day.frozen = start.getTime();
    const end = start.getTime() + 24 * HOUR_MS;
    await day.openShop('Loja recorrente');
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
        trigger({ filter: 'recurrence', comparation: 'daily', value: [], hours: '12:30' }),
        pushBlock('Ofertas do dia', { intervalRecurrency: [3600] }),
      ],
      worktime: { weekdays: [0, 1, 2, 3, 4, 5, 6], start_at: '12:00', stop_at: '18:00' },
      worktime_zone: 'visitor',
    };
    const recurrenceUuid = await day.createMomentum(recurrence);

    // (b) At 10:00 in São Paulo: variants A and B on 20 % of the audience, the winner to the rest at 14:00.
    const campaignAt = start.getTime() + 6 * STEP_MS;
    const decisionAt = campaignAt + 4 * HOUR_MS;
    const campaign: Record<string, unknown> = {
      type: 'campaign',
      momentum_title: 'Campanha vencedora',
      momentums: [everyone, pushBlock('Variante A')],
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
      day.frozen = at;
      if (at === campaignAt) {
        campaignUuid = await day.createMomentum(campaign);
        campaign.scheduled_at = new Date(at).toISOString();
      }
      for (const i of joining.get(at) ?? []) await arrive(i);
      await day.t.app.engine.settle();
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
    const dailyRows = await day.rowsBy(recurrenceUuid);
    expect(daily.planned, JSON.stringify(dailyRows)).toBe(count(dailyRows));
    expect(daily.removed('channel')).toBe(count(dailyRows, (r) => r.status === 'skipped'));
    expect(daily.removed('channel')).toBeGreaterThan(0);
    expect(daily.removed('schedule')).toBe(count(dailyRows, (r) => r.status === 'queued'));
    expect(daily.removed('schedule')).toBeGreaterThan(0);

    // (b) Before the decision: the test share only went out; the rest waits for the winner.
    const campaignRows = await day.rowsBy(campaignUuid);
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
