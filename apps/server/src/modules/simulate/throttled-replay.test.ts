import { randomUUID } from 'node:crypto';
import { inGlobalControl } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { call } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import { agreementDay, CHROME, chromeOnly, countRows, FIREFOX, trigger } from './agreement-kit.ts';

/*
 * Issue #28's agreement for 'Limite de envios por minuto' on a momentum that page views start (issue #27): the
 * engine's slots link persons in trigger order, so a burst of forty visitors within four minutes is spread at 2 a
 * minute, each chain (a send, then another an hour later) kept 30 s from every send the momentum planned, Firefox
 * visitors' rows too (cancelled by the filter when due: their slots stay taken), the unsubscribed's skipped rows not.
 * A delayed chain keeps its person's later views out; views late in the afternoon have their second send deferred
 * past the worktime, to the next opening, where the night's views are slotted after them; a skipped row (the control
 * group) gives its slot back; persons the replay let go (never sent a message) view again. The day is replayed live
 * through the collector, the engine sending at each due instant on a clock that stands still between steps; the
 * simulation of the same momentum must name the same people at the same instants, and count the engine's rows.
 */

const ROOT = 'https://loja-vazao.com.br';
const MIN = 60_000;
const HOUR = 60 * MIN;

const day = agreementDay(ROOT);

/** The engine sends whatever falls due before `until`, each at its own instant. */
async function sendDueBefore(until: number) {
  const { t, domain } = day;
  let settled = false;
  for (;;) {
    const [next] = await queryRows<{ due: number | null }>(
      t.app.ctx.db,
      sql`SELECT floor(extract(epoch FROM min(due_at)) * 1000)::float8 AS due FROM deliveries
          WHERE domain_uuid = ${domain.uuid}::uuid AND status = 'queued' AND due_at < ${new Date(until)}`,
    );
    if (next?.due === null || next?.due === undefined) return;
    // What was due by now went out at the last settle: a row left behind would loop here.
    if (settled) expect(Number(next.due)).toBeGreaterThan(day.frozen);
    day.frozen = Number(next.due);
    await t.app.engine.settle();
    settled = true;
  }
}

describe('a simulation of a throttled momentum started by page views', () => {
  it('names the people the engine sent to, at the instants it sent, and counts its rows', async () => {
    // 12:30 in São Paulo two days ago: the day replayed runs from here (the range of a one-day simulation).
    const from = new Date(Date.now() - 2 * 86_400_000);
    from.setUTCHours(15, 30, 0, 0);
    const base = from.getTime();
    const end = base + 24 * HOUR;
    day.frozen = base - 30 * MIN;
    const { t, push, owner } = day;
    const domain = await day.openShop('Loja vazão', 3);

    const visitors = Array.from({ length: 44 }, (_, i) => ({
      vid: `v-${i}-${randomUUID()}`,
      ua: i % 7 === 3 ? FIREFOX : CHROME,
      subscribed: i % 9 !== 4,
    }));
    // Twenty more, never subscribed, and one more on Firefox.
    for (let i = 0; i < 21; i++)
      visitors.push({
        vid: `v-${visitors.length}-${randomUUID()}`,
        ua: i < 20 ? CHROME : FIREFOX,
        subscribed: i === 20,
      });
    const firefox = visitors.length - 1;
    for (const v of visitors) {
      day.frozen += 1000;
      await day.collect(v.vid, v.ua, [{ t: 'pv', u: `${ROOT}/` }]);
      if (v.subscribed) await day.collect(v.vid, v.ua, [{ t: 'optin', s: push.newSubscription().subscription }]);
    }
    const body = {
      type: 'momentum',
      momentums: [
        chromeOnly,
        trigger({ filter: 'pageview', comparation: 'contain', value: ['/oferta'] }),
        day.pushBlock('Oferta relâmpago', {
          message: 'Só hoje.',
          redirect_uri: `${ROOT}/oferta`,
          intervalRecurrency: [3600],
        }),
      ],
      throttle_per_minute: 2,
      worktime: { weekdays: [0, 1, 2, 3, 4, 5, 6], start_at: '09:00', stop_at: '18:00' },
    };
    const uuid = await day.createMomentum({ momentum_title: 'Oferta com vazão', ...body });
    // The domain's global control group: those in it are skipped when due, and their slots are given back.
    const group = await call(
      t.app,
      'PUT',
      `/api/domain/update/${domain.uuid}`,
      { domain: { control_group_percent: 20 } },
      owner.token,
    );
    expect(group.status, JSON.stringify(group.body)).toBe(200);
    /** A new subscribed Chrome visitor, in the control group or out of it as asked (the shared rule decides). */
    const newcomer = async (heldOut: boolean) => {
      for (;;) {
        const v = { vid: `v-${visitors.length}-${randomUUID()}`, ua: CHROME, subscribed: true };
        day.frozen += 1000;
        await day.collect(v.vid, v.ua, [{ t: 'pv', u: `${ROOT}/` }]);
        await day.collect(v.vid, v.ua, [{ t: 'optin', s: push.newSubscription().subscription }]);
        visitors.push(v);
        const [person] = await queryRows<{ uuid: string }>(
          t.app.ctx.db,
          sql`SELECT uuid::text FROM persons WHERE visitor_id = ${v.vid}`,
        );
        if (inGlobalControl(person!.uuid, domain.uuid, 20) === heldOut)
          return { index: visitors.length - 1, ...person! };
      }
    };
    const held = await newcomer(true);
    const after = await newcomer(false);
    const behind = await newcomer(false);

    // The day's views of the offer (local times in São Paulo, 3 hours behind UTC).
    const views: { at: number; v: number; page: string }[] = [];
    const view = (at: number, v: number, page = '/oferta') => views.push({ at, v, page });
    // 12:40: the twenty never subscribed (their skipped rows take no slot; the sample's stopped people are theirs).
    for (let v = 44; v < 64; v++) view(base + 10 * MIN + (v - 44) * 20_000, v);
    // 13:00: forty visitors within four minutes.
    for (let v = 0; v < 40; v++) view(base + 30 * MIN + v * 6000, v);
    // 13:40: the first eight view again while their chains wait: kept out.
    for (let v = 0; v < 8; v++) view(base + 70 * MIN + v * 5000, v, '/oferta?de-novo');
    // 14:06–14:11: every other one of the burst views again; whether their chain still waits depends on its slot.
    for (let v = 10; v < 40; v += 2) view(base + 96 * MIN + 40_000 + (v - 10) * 10_000, v, '/oferta?outra-vez');
    // 17:50–17:57: the second send an hour later falls after 18:00 and waits for tomorrow's opening.
    for (let v = 30; v < 38; v++) view(base + 320 * MIN + (v - 30) * MIN, v);
    // 06:00–08:00 tomorrow: outside the worktime, slotted from 09:00, after the sends deferred there.
    for (let v = 38; v < 44; v++) view(base + 17.5 * HOUR + (v - 38) * 20 * MIN, v);
    for (let v = 0; v < 4; v++) view(base + 19 * HOUR + v * 7 * MIN, v);
    // 16:00: the queue is empty; one in the control group views, then another 10 s later: the first's row is
    // skipped when due, its slot given back, and the second goes at once.
    view(base + 3.5 * HOUR, held.index);
    view(base + 3.5 * HOUR + 10_000, after.index);
    // 09:04:40 tomorrow: 10 s after the last of the morning's sends, a Firefox visitor's (cancelled by the filter,
    // its slot still taken): 30 s from it.
    view(base + 20 * HOUR + 34 * MIN + 40_000, behind.index);
    // 16:01 and 10:30 tomorrow: the Firefox visitor's row is cancelled when due each time; at 10:30 the one in the
    // control group and an unsubscribed one view again (the latter's skipped row is not written twice).
    view(base + 3.5 * HOUR + MIN, firefox);
    view(base + 22 * HOUR, held.index);
    view(base + 22 * HOUR + MIN, 40);
    view(base + 22 * HOUR + 2 * MIN, firefox);
    // 11:00 a lone view goes at once; 12:20 one whose second send falls after the range.
    view(base + 22.5 * HOUR, 9);
    view(base + 23 * HOUR + 50 * MIN, 27);
    views.sort((a, b) => a.at - b.at);

    for (const { at, v, page } of views) {
      await sendDueBefore(at);
      day.frozen = at;
      await day.collect(visitors[v]!.vid, visitors[v]!.ua, [{ t: 'pv', u: `${ROOT}${page}` }]);
    }
    await sendDueBefore(end);
    day.frozen = end;

    const live = await day.sentBy(uuid);
    const firstSent = (person: string) =>
      Math.min(...live.filter((s) => s.person_uuid === person).map((s) => Number(s.at)));
    expect(firstSent(after.uuid) - base).toBe(3.5 * HOUR + 10_000);
    const [cancelled] = await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM deliveries WHERE momentum_uuid = ${uuid}::uuid AND status = 'cancelled'
            AND due_at = ${new Date(base + 20 * HOUR + 34 * MIN + 30_000)}`,
    );
    expect(cancelled!.n).toBe(1);
    expect(firstSent(behind.uuid) - base).toBe(20 * HOUR + 35 * MIN);
    const sends = (list: { person_uuid: string; at: number }[]) =>
      list.map((s) => `${new Date(Number(s.at)).toISOString()} ${s.person_uuid}`).sort();
    // The throttle did spread the burst: the first sends of the forty views (within four minutes) went out at least
    // 30 s apart, however many the control group (drawn from random ids) held out.
    const burst = live
      .map((s) => Number(s.at))
      .filter((at) => at < base + 80 * MIN)
      .sort((a, b) => a - b);
    expect(burst.length).toBeGreaterThan(15);
    for (let i = 1; i < burst.length; i++) expect(burst[i]! - burst[i - 1]!).toBeGreaterThanOrEqual(30_000);

    const simulated: { person_uuid: string; at: number }[] = [];
    const result = await day.simulateDay(uuid, { momentum_title: 'Oferta com vazão', ...body }, (p, at) =>
      simulated.push({ person_uuid: p, at: at.getTime() }),
    );
    expect(sends(simulated), JSON.stringify(result.stages)).toEqual(sends(live));
    expect(result.messages).toBe(live.length);
    expect(result.persons).toBe(new Set(live.map((s) => s.person_uuid)).size);

    // The funnel counts the engine's rows: every row planned, the filter's cancellations and the unsubscribed's
    // skipped rows, and the one still waiting when the range ends.
    const rows = await day.rowsBy(uuid);
    const count = (status: string) => countRows(rows, (r) => r.status === status);
    const removed = (stage: string) => result.stages.find((s) => s.stage === stage)!.removed;
    expect(result.stages[0]!.entered, JSON.stringify(rows)).toBe(countRows(rows));
    expect(removed('filter') + removed('channel') + removed('control_group')).toBe(
      count('cancelled') + count('skipped'),
    );
    expect(removed('control_group')).toBeGreaterThan(0);
    expect(count('cancelled')).toBeGreaterThan(0);
    expect(count('skipped')).toBeGreaterThan(0);
    expect(removed('schedule') + removed('frequency_cap')).toBe(count('queued'));
    expect(removed('schedule')).toBe(1);
    expect(removed('frequency_cap')).toBeGreaterThan(0);
    const last = result.stages[result.stages.length - 1]!;
    expect(last.entered - last.removed).toBe(live.length);
  }, 180_000);
});
