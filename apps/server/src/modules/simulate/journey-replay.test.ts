import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import {
  agreementDay,
  CHROME,
  everyone,
  HOUR_MS,
  prng,
  type SentRow,
  STEP_MS,
  topbarBlock,
  topbarValues,
  trigger,
} from './agreement-kit.ts';

/*
 * Issue #28's agreement for journey steps (issue #26): a day of a shop replayed live through the collector with the
 * engine running, for a momentum started by product views whose on-site message is followed by three steps (a push an
 * hour later to those who did not buy; two hours later an on-site message to those who saw the bag, else a push; an
 * hour later, in the worktime, an on-site message to those who viewed no product since: conditions on page views only,
 * which the replay's stream carries), exiting on a purchase, under a
 * frequency cap of 4 a day (with the daily recurrence below, it holds the last step of those the pushes reach) and
 * a worktime window; and a daily recurrence with a step. (Nobody opts out: the simulation reads persons as they are
 * now, so an opt-out would remove their first message too; the exit uses the engine's optedOut.) The simulation of
 * each momentum over the day must send the same messages (person, step, instant) as the engine did, and count the
 * journeys' exits, failed conditions and waits as the engine's positions do.
 */

const ROOT = 'https://loja-jornada.com.br';

const day = agreementDay(ROOT);
const { pushValues } = day;
/** A sent message as `person|step|instant`. */
const sendOf = (r: SentRow) => `${r.person_uuid}|${r.step}|${new Date(r.at).toISOString()}`;

describe('a simulation of a journey agrees with what the engine sent', () => {
  it('sends the same steps to the same people at the same instants, and counts the same exits and waits', async () => {
    // 08:30 in São Paulo, two days ago: the day replayed runs from here.
    const start = new Date(Date.now() - 2 * 86_400_000);
    start.setUTCHours(11, 30, 0, 0);
    day.frozen = start.getTime();
    const { t, push } = day;
    await day.openShop('Loja com jornada', 4);
    const collect = (vid: string, events: object[]) => day.collect(vid, CHROME, events);

    const random = prng(26);
    // Four of them come back only in the afternoon: their journeys are still under way when the day ends.
    const visitors = Array.from({ length: 24 }, (_, i) => ({
      vid: `v-${i}-${randomUUID()}`,
      subscribed: i % 3 !== 2,
      from: start.getTime() + (i >= 20 ? 14 * HOUR_MS : 0),
    }));
    for (const v of visitors) {
      await collect(v.vid, [{ t: 'pv', u: `${ROOT}/` }]);
      if (v.subscribed) await collect(v.vid, [{ t: 'optin', s: push.newSubscription().subscription }]);
    }

    const body = {
      type: 'momentum',
      momentums: [
        everyone,
        trigger({ filter: 'pageview', comparation: 'contain', value: ['/produto'] }),
        topbarBlock('Gostou deste produto?'),
      ],
      worktime: { weekdays: [0, 1, 2, 3, 4, 5, 6], start_at: '09:00', stop_at: '20:00' },
      steps: [
        {
          wait: { amount: 1, unit: 'hours' },
          condition: { kind: 'not_converted' },
          values: [pushValues('Ainda pensando?')],
        },
        {
          wait: { amount: 2, unit: 'hours' },
          condition: { kind: 'viewed_page', comparation: 'contain', value: ['/sacola'] },
          values: [topbarValues('Sua sacola espera')],
          otherwise: [pushValues('Veja outras ofertas')],
        },
        {
          wait: { amount: 1, unit: 'hours', worktime: true },
          condition: { kind: 'not_viewed_page', comparation: 'contain', value: ['/produto'] },
          values: [topbarValues('Frete grátis hoje')],
        },
      ],
      exit: { on_conversion: true, on_opt_out: true },
    };
    const uuid = await day.createMomentum({ momentum_title: 'Jornada simulada', ...body });
    // A daily recurrence at 10:00 whose push is followed two hours later by an on-site message to those who added to
    // the cart: its persons enter from the occurrence's fan-out (occurrence-replay.ts hands each page over), and the
    // condition reads their events (a read per batch).
    const recurrence = {
      type: 'momentum',
      momentums: [
        everyone,
        trigger({ filter: 'recurrence', comparation: 'daily', value: [], hours: '10:00' }),
        day.pushBlock('Ofertas do dia'),
      ],
      steps: [
        {
          wait: { amount: 2, unit: 'hours' },
          condition: { kind: 'event', category: 'adicionar_ao_carrinho' },
          values: [topbarValues('Ainda dá tempo')],
        },
      ],
    };
    const dailyUuid = await day.createMomentum({ momentum_title: 'Jornada diária', ...recurrence });

    const end = start.getTime() + 24 * HOUR_MS;
    const pages = ['/', '/produto/tenis-azul', '/produto/meia', '/sacola', '/blog/corrida'];
    let order = 0;
    for (let at = start.getTime() + STEP_MS; at <= end; at += STEP_MS) {
      day.frozen = at;
      // Visits stop six hours before the end; the steps go on.
      if (at < end - 6 * HOUR_MS) {
        for (const v of visitors) {
          const r = random();
          if (r > 0.25 || at < v.from) continue;
          const events =
            r < 0.012
              ? [{ t: 'cv', v: 129.9, o: `pedido-${++order}` }]
              : r < 0.13
                ? [{ t: 'ev', c: 'adicionar_ao_carrinho', p: { produto: 'Tênis azul' } }]
                : [{ t: 'pv', u: `${ROOT}${pages[Math.floor(random() * pages.length)]}` }];
          await collect(v.vid, events);
        }
      }
      await t.app.engine.settle();
    }

    const sentLive = await day.sentBy(uuid);
    const live = sentLive.map(sendOf).sort();

    const simulated: string[] = [];
    const result = await day.simulateDay(uuid, { momentum_title: 'Jornada simulada', ...body }, (p, at, step) =>
      simulated.push(`${p}|${step}|${at.toISOString()}`),
    );
    expect(simulated.sort(), JSON.stringify(result.journey)).toEqual(live);
    expect(result.messages).toBe(live.length);
    expect(result.persons).toBe(new Set(sentLive.map((r) => r.person_uuid)).size);
    // Messages per channel: the momentum's own (on-site) first, then the steps' push.
    const sentOn = (channel: string) => sentLive.filter((r) => r.channel_type === channel).length;
    expect(result.by_channel).toEqual([
      { channel: 'SUPERARE_WEBVIEW', messages: sentOn('SUPERARE_WEBVIEW') },
      { channel: 'CELL_NOTIFICATION', messages: sentOn('CELL_NOTIFICATION') },
    ]);
    const last = result.stages[result.stages.length - 1]!;
    expect(last.entered - last.removed).toBe(result.messages);
    expect(result.stages.map((s) => s.stage)).toContain('journey');

    // The journeys' ends and waits, as the engine's positions hold them.
    const positions = await queryRows<{ state: string; step: number; n: number }>(
      t.app.ctx.db,
      sql`SELECT state, step, count(*)::int AS n FROM journey_positions WHERE momentum_uuid = ${uuid}::uuid
          GROUP BY state, step`,
    );
    const count = (state: string, step?: number) =>
      positions
        .filter((p) => p.state === state && (step === undefined || p.step === step))
        .reduce((s, p) => s + p.n, 0);
    const rows = result.journey!;
    const row = (step: number, branch = 'main') => rows.find((r) => r.step === step && r.branch === branch)!;
    expect(row(0, 'main').reached).toBe(positions.reduce((s, p) => s + p.n, 0));
    expect(row(0, 'main').sent).toBe(sentLive.filter((r) => r.step === 0).length);
    for (const step of [1, 2, 3]) {
      expect(row(step).exited, `etapa ${step}: ${JSON.stringify(positions)}`).toBe(count('exited', step));
      expect(row(step).left_by_condition, `etapa ${step}`).toBe(count('left', step));
      expect(row(step).waiting, `etapa ${step}`).toBe(count('waiting', step));
    }
    const journeyStage = result.stages.find((s) => s.stage === 'journey')!;
    expect(journeyStage.removed).toBe(count('exited') + count('left'));
    // Each row's messages are the engine's deliveries of that step and branch.
    const branches = await queryRows<{ step: number; branch: string | null; n: number }>(
      t.app.ctx.db,
      sql`SELECT step, branch, count(*)::int AS n FROM deliveries
          WHERE momentum_uuid = ${uuid}::uuid AND status IN ('sent', 'viewed', 'clicked') AND step > 0
          GROUP BY step, branch`,
    );
    for (const b of branches) expect(row(b.step, b.branch ?? 'main').sent, `${b.step}:${b.branch}`).toBe(b.n);
    // The day exercises what the agreement is about: exits by purchase, a failed condition, the 'otherwise'
    // branch, a step held by the cap or the worktime, and persons still waiting when the day ends.
    expect(count('exited')).toBeGreaterThan(0);
    expect(count('left')).toBeGreaterThan(0);
    // Both branches of step 2 taken (what each then sends depends on the cap, which two messages due at the same
    // instant race for: the simulation reads who won from the other momentum's real messages).
    expect(row(2, 'otherwise').reached).toBeGreaterThan(0);
    expect(row(2).reached - row(2, 'otherwise').reached).toBeGreaterThan(0);
    expect(row(2).sent + row(2, 'otherwise').sent).toBeGreaterThan(0);
    expect(row(3).sent).toBeGreaterThan(0);
    expect(row(3).waiting).toBeGreaterThan(0);
    const removedAt = (stage: string) => result.stages.find((s) => s.stage === stage)!.removed;
    expect(removedAt('frequency_cap') + removedAt('schedule')).toBeGreaterThan(0);

    // The recurrence: the same messages, steps and instants as the engine's.
    const dailyLive = (await day.sentBy(dailyUuid)).map(sendOf);
    const dailySimulated: string[] = [];
    const dailyResult = await day.simulateDay(
      dailyUuid,
      { momentum_title: 'Jornada diária', ...recurrence },
      (p, at, step) => dailySimulated.push(`${p}|${step}|${at.toISOString()}`),
    );
    expect(dailySimulated.sort(), JSON.stringify(dailyResult.journey)).toEqual(dailyLive.sort());
    expect(dailyLive.filter((l) => l.includes('|1|')).length).toBeGreaterThan(0);
    expect(dailyResult.journey!.find((r) => r.step === 1)!.sent).toBe(
      dailyLive.filter((l) => l.includes('|1|')).length,
    );
  }, 240_000);
});
