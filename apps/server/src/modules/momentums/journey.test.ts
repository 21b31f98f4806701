import { randomUUID } from 'node:crypto';
import { DEFAULT_JOURNEY_EXIT, journeyMessages as jm } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

/*
 * The contract of journeys (issue #26): `steps` and `exit` beside `momentums` in /momentum/create and /momentum/update,
 * returned by the lists only when the momentum has steps; refused in pt-BR when wrong; a body without them is the
 * spec's momentum. The journey report route: tenancy 404, bad dates 400, in the OpenAPI document.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja Jornada', 'https://teste-jornada.com.br');
});
afterAll(() => t.close());

const topbar = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
  intervalRecurrency: [],
});
const sms = { filter: 'ZENVIA', body: 'Seu cupom: VOLTA10', intervalRecurrency: [] };
const step = (extra: Record<string, unknown> = {}) => ({
  wait: { amount: 1, unit: 'days' },
  condition: { kind: 'not_converted' },
  values: [topbar('Ainda pensando?')],
  ...extra,
});
const body = (extra: Record<string, unknown> = {}) => ({
  domain_uuid: domain.uuid,
  type: 'momentum',
  momentum_title: `Jornada ${randomUUID()}`,
  momentums: [blocks.everyone, blocks.pageviewContaining('/carrinho'), blocks.topbar()],
  ...extra,
});
const create = (extra: Record<string, unknown>, token = owner.token) =>
  call(t.app, 'POST', '/api/momentum/create', body(extra), token);
const one = async (uuid: string) =>
  (await call(t.app, 'GET', `/api/momentum/list?id=${uuid}`, undefined, owner.token)).body.data;
const listed = async (uuid: string) =>
  (await call(t.app, 'GET', `/api/momentum/list/${domain.uuid}?type=momentum`, undefined, owner.token)).body.data.find(
    (m: { uuid: string }) => m.uuid === uuid,
  );

describe('steps and exit in the momentum body', () => {
  it('are stored and returned by the lists, the exit defaulting to leave on conversion', async () => {
    const steps = [
      step(),
      step({
        wait: { amount: 3, unit: 'hours', worktime: true },
        condition: { kind: 'viewed_page', comparation: 'contain', value: ['/produto'] },
        otherwise: [topbar('Veja as ofertas')],
      }),
    ];
    const res = await create({ steps });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.steps).toHaveLength(2);
    expect(res.body.data.exit).toEqual(DEFAULT_JOURNEY_EXIT);
    for (const item of [await one(res.body.data.uuid), await listed(res.body.data.uuid)]) {
      expect(item.steps[0]).toMatchObject({ wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' } });
      expect(item.steps[1]).toMatchObject({
        wait: { amount: 3, unit: 'hours', worktime: true },
        condition: { kind: 'viewed_page', value: ['/produto'] },
        otherwise: [{ webview_props: { topbarContent: 'Veja as ofertas' } }],
      });
      expect(item.exit).toEqual({ on_conversion: true, on_opt_out: false });
    }

    const exit = { on_conversion: false, on_opt_out: true };
    const withExit = await create({ steps: [step()], exit });
    expect(withExit.status).toBe(200);
    expect((await one(withExit.body.data.uuid)).exit).toEqual(exit);
  });

  it('without steps (absent, null or []) is the spec momentum: no steps nor exit in the answer', async () => {
    for (const extra of [{}, { steps: null }, { steps: [] }, { steps: [], exit: { on_conversion: true } }]) {
      const res = await create(extra);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const item = await one(res.body.data.uuid);
      expect(item).not.toHaveProperty('steps');
      expect(item).not.toHaveProperty('exit');
    }
  });

  it('an update of a paused momentum changes its steps; one without steps removes them', async () => {
    const created = await create({ steps: [step()] });
    const uuid = created.body.data.uuid;
    const update = (extra: Record<string, unknown>) =>
      call(t.app, 'PUT', '/api/momentum/update', { ...body(extra), uuid }, owner.token);
    const res = await update({ steps: [step(), step({ condition: { kind: 'not_clicked' } })] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await one(uuid)).steps.map((s: { condition: { kind: string } }) => s.condition.kind)).toEqual([
      'not_converted',
      'not_clicked',
    ]);
    expect((await update({})).status).toBe(200);
    expect(await one(uuid)).not.toHaveProperty('steps');
  });

  it('refuses wrong steps with pt-BR messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ steps: Array.from({ length: 6 }, () => step()) }, jm.stepsTooMany],
      [{ steps: [step({ wait: { amount: 0, unit: 'days' } })] }, jm.waitInvalid],
      [{ steps: [step({ wait: { amount: 91, unit: 'days' } })] }, jm.waitInvalid],
      [{ steps: [step({ wait: { amount: 2, unit: 'weeks' } })] }, jm.unitInvalid],
      [{ steps: [step({ condition: { kind: 'bought' } })] }, jm.conditionInvalid],
      [{ steps: [step({ condition: { kind: 'viewed_page', value: [] } })] }, jm.pageRequired],
      [{ steps: [step({ condition: { kind: 'event' } })] }, jm.eventRequired],
      [{ steps: [step({ values: [] })] }, jm.valuesRequired],
      [{ type: 'campaign', momentums: [blocks.everyone, blocks.topbar()], steps: [step()] }, jm.campaignNotSupported],
    ];
    for (const [extra, message] of cases) {
      const res = await create(extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.message, JSON.stringify(extra)).toBe(message);
    }
  });

  it('refuses a step whose channel is not integrated in the domain (SMS without Zenvia)', async () => {
    const res = await create({ steps: [step({ values: [sms] })] });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(jm.channelNotIntegrated);
    const otherwise = await create({ steps: [step({ otherwise: [sms] })] });
    expect(otherwise.status).toBe(400);
    expect(otherwise.body.message).toBe(jm.channelNotIntegrated);
  });
});

describe('the journey report route', () => {
  const report = (momentumUuid: string, query: string, domainUuid = domain.uuid, token = owner.token) =>
    call(t.app, 'GET', `/api/analytics/${domainUuid}/momentum/${momentumUuid}/journey?${query}`, undefined, token);
  const today = () => t.clock.now().toISOString().slice(0, 10);

  it('answers a row per step and branch in order, zero before anyone entered', async () => {
    const created = await create({ steps: [step(), step({ otherwise: [topbar('Outra')] })] });
    const res = await report(created.body.data.uuid, `start=${today()}&end=${today()}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(jm.reportLoaded);
    const zero = {
      reached: 0,
      left_by_condition: 0,
      exited_conversion: 0,
      sent: 0,
      viewed: 0,
      clicked: 0,
      conversions: 0,
      revenue: 0,
    };
    expect(res.body.data.steps).toEqual([
      { step: 0, branch: 'main', ...zero },
      { step: 1, branch: 'main', ...zero },
      { step: 2, branch: 'main', ...zero },
      { step: 2, branch: 'otherwise', ...zero },
    ]);
  });

  it("answers 404 for another company's momentum or domain, or a momentum without steps; 400 for bad dates", async () => {
    const created = await create({ steps: [step()] });
    const uuid = created.body.data.uuid;
    const range = `start=${today()}&end=${today()}`;
    expect((await report(uuid, range, domain.uuid, stranger.token)).status).toBe(404);
    const strangerDomain = await createDomain(t.app, stranger, 'Outra', 'https://outra-jornada.com.br');
    expect((await report(uuid, range, strangerDomain.uuid, stranger.token)).status).toBe(404);
    const plain = await create({});
    const none = await report(plain.body.data.uuid, range);
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(jm.noJourney);
    for (const bad of ['start=ontem&end=hoje', `start=${today()}`, 'start=2026-12-31&end=2026-01-01']) {
      const res = await report(uuid, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.message, bad).toMatch(/[ãçéóíáê]|data|Data|período/);
    }
  });

  it("the domain's export lists only momentums with steps, and answers 404 for another company's domain", async () => {
    const range = `start=${today()}&end=${today()}`;
    const withSteps = await create({ steps: [step()] });
    const plain = await create({});
    const res = await call(t.app, 'GET', `/api/analytics/${domain.uuid}/journeys?${range}`, undefined, owner.token);
    expect(res.status).toBe(200);
    const uuids = res.body.data.map((j: { momentum_uuid: string }) => j.momentum_uuid);
    expect(uuids).toContain(withSteps.body.data.uuid);
    expect(uuids).not.toContain(plain.body.data.uuid);
    expect(
      res.body.data.find((j: { momentum_uuid: string }) => j.momentum_uuid === withSteps.body.data.uuid).steps,
    ).toHaveLength(2);
    const other = await call(
      t.app,
      'GET',
      `/api/analytics/${domain.uuid}/journeys?${range}`,
      undefined,
      stranger.token,
    );
    expect(other.status).toBe(404);
    const bad = await call(
      t.app,
      'GET',
      `/api/analytics/${domain.uuid}/journeys?start=x&end=y`,
      undefined,
      owner.token,
    );
    expect(bad.status).toBe(400);
  });

  it('is in the OpenAPI document with the steps of the body', async () => {
    const doc = JSON.stringify((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json());
    expect(doc).toContain('/api/analytics/{domainUuid}/momentum/{momentumUuid}/journey');
    expect(doc).toContain('/api/analytics/{domainUuid}/journeys');
    expect(doc).toContain('on_conversion');
    expect(doc).toContain('not_viewed_page');
  });
});
