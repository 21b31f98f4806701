import { randomUUID } from 'node:crypto';
import { timingMessages as tm } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

/*
 * Issue #27's options beside `momentums`: throttle_per_minute, send_at_local_time, best_time, skip_holidays and
 * worktime_zone, stored and returned; absent, the item is exactly the spec's (no such key); refused in pt-BR.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja Horário', 'https://horario.com.br');
});
afterAll(() => t.close());

const weekly = {
  type: 'trigger',
  values: [{ filter: 'recurrence', comparation: 'weekly', value: ['tuesday'], hours: '10:00', dischargeIn: [] }],
};
const campaign = (extra: Record<string, unknown> = {}) => ({
  domain_uuid: domain.uuid,
  type: 'campaign',
  momentum_title: `Campanha ${randomUUID()}`,
  momentums: [blocks.everyone, blocks.topbar()],
  ...extra,
});
const momentum = (trigger: object, extra: Record<string, unknown> = {}) => ({
  ...campaign(extra),
  type: 'momentum',
  momentums: [blocks.everyone, trigger, blocks.topbar()],
});
const one = async (uuid: string) =>
  (await call(t.app, 'GET', `/api/momentum/list?id=${uuid}`, undefined, owner.token)).body.data;
const TIMING_KEYS = ['throttle_per_minute', 'send_at_local_time', 'best_time', 'skip_holidays', 'worktime_zone'];

describe('timing options in the momentum body', () => {
  it('are stored and returned by the item and the lists', async () => {
    const options = { throttle_per_minute: 120, send_at_local_time: '10:30', skip_holidays: true };
    const res = await call(t.app, 'POST', '/api/momentum/create', campaign(options), owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject(options);
    expect(await one(res.body.data.uuid)).toMatchObject(options);
    const list = await call(t.app, 'GET', `/api/momentum/list/${domain.uuid}?type=campaign`, undefined, owner.token);
    expect(list.body.data.find((m: { uuid: string }) => m.uuid === res.body.data.uuid)).toMatchObject(options);

    const best = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      campaign({ best_time: true, throttle_per_minute: 1 }),
      owner.token,
    );
    expect(await one(best.body.data.uuid)).toMatchObject({ best_time: true, throttle_per_minute: 1 });

    const recurring = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      momentum(weekly, { skip_holidays: true, worktime_zone: 'visitor', throttle_per_minute: 30 }),
      owner.token,
    );
    expect(recurring.status, JSON.stringify(recurring.body)).toBe(200);
    expect(await one(recurring.body.data.uuid)).toMatchObject({
      skip_holidays: true,
      worktime_zone: 'visitor',
      throttle_per_minute: 30,
    });
  });

  it('absent, false or null: the item carries none of them, as the spec has it', async () => {
    for (const extra of [
      {},
      { best_time: false, skip_holidays: false, throttle_per_minute: null, worktime_zone: 'domain' },
    ]) {
      const res = await call(t.app, 'POST', '/api/momentum/create', campaign(extra), owner.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const item = await one(res.body.data.uuid);
      for (const key of TIMING_KEYS) expect(item, key).not.toHaveProperty(key);
    }
  });

  it('are replaced by an update, and dropped when it leaves them out', async () => {
    const res = await call(t.app, 'POST', '/api/momentum/create', campaign({ status: 'Draft' }), owner.token);
    const { uuid, momentum_title } = res.body.data;
    const upd = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      campaign({ uuid, momentum_title, status: 'Draft', throttle_per_minute: 600 }),
      owner.token,
    );
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect((await one(uuid)).throttle_per_minute).toBe(600);
    await call(t.app, 'PUT', '/api/momentum/update', campaign({ uuid, momentum_title, status: 'Draft' }), owner.token);
    expect(await one(uuid)).not.toHaveProperty('throttle_per_minute');
  });

  it('refuses wrong values and options out of place with a pt-BR 400', async () => {
    const pageview = blocks.pageviewContaining('/produto');
    for (const [body, message] of [
      [campaign({ throttle_per_minute: 0 }), tm.throttleInvalid],
      [campaign({ throttle_per_minute: 2.5 }), tm.throttleInvalid],
      [campaign({ throttle_per_minute: '10' }), tm.throttleInvalid],
      [campaign({ send_at_local_time: '25:00' }), tm.timeInvalid],
      [campaign({ send_at_local_time: '9h' }), tm.timeInvalid],
      [campaign({ worktime_zone: 'browser' }), tm.worktimeZoneInvalid],
      [campaign({ send_at_local_time: '10:00', best_time: true }), tm.localTimeAndBestTime],
      [momentum(pageview, { send_at_local_time: '10:00' }), tm.localTimeCampaignOnly],
      [momentum(pageview, { best_time: true }), tm.bestTimeCampaignOnly],
      [momentum(pageview, { skip_holidays: true }), tm.skipHolidaysScope],
      [{ ...campaign({ throttle_per_minute: 10 }), type: 'dcm' }, tm.dcmNotSupported],
    ] as const) {
      const res = await call(t.app, 'POST', '/api/momentum/create', body, owner.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toContain(message);
    }
  });

  it('are described in the OpenAPI document', async () => {
    const doc = JSON.stringify((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json());
    for (const key of TIMING_KEYS) expect(doc).toContain(`"${key}"`);
  });
});
