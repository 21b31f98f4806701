import { randomUUID } from 'node:crypto';
import { experimentMessages as em } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

/*
 * The contract of experiments (issue #25): `experiment` beside `momentums` in /momentum/create and /momentum/update,
 * returned by the lists; the domain's global control group by PUT /api/domain/update/:uuid; both refused in pt-BR
 * when wrong, and in the OpenAPI document.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja Teste', 'https://teste-ab.com.br');
});
afterAll(() => t.close());

const topbar = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
  intervalRecurrency: [],
});
const experiment = {
  control_percent: 20,
  variants: [
    { name: 'A', weight: 60, values: [topbar('Frete grátis')] },
    { name: 'B', weight: 40, values: [topbar('10% off')] },
  ],
};
const body = (extra: Record<string, unknown> = {}) => ({
  domain_uuid: domain.uuid,
  type: 'campaign',
  momentum_title: `Campanha ${randomUUID()}`,
  momentums: [blocks.everyone, { type: 'dispatcher', values: [topbar('Texto antigo')] }],
  ...extra,
});
const listed = async (uuid: string, type = 'campaign') =>
  (await call(t.app, 'GET', `/api/momentum/list/${domain.uuid}?type=${type}`, undefined, owner.token)).body.data.find(
    (m: { uuid: string }) => m.uuid === uuid,
  );

describe('experiment in the momentum body', () => {
  it('is stored and returned, and the dispatcher block carries the first variant', async () => {
    const res = await call(t.app, 'POST', '/api/momentum/create', body({ experiment }), owner.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.experiment).toEqual(experiment);
    const item = await listed(res.body.data.uuid);
    expect(item.experiment).toEqual(experiment);
    expect(item.momentums[1].values[0].webview_props.topbarContent).toBe('Frete grátis');
    const one = await call(t.app, 'GET', `/api/momentum/list?id=${res.body.data.uuid}`, undefined, owner.token);
    expect(one.body.data.experiment).toEqual(experiment);
  });

  it('is null without it, with a control group of 0 and no variants, and when an update leaves it out', async () => {
    const plain = await call(t.app, 'POST', '/api/momentum/create', body(), owner.token);
    expect(plain.body.data.experiment).toBeNull();
    expect(plain.body.data.momentums[1].values[0].webview_props.topbarContent).toBe('Texto antigo');
    const empty = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      body({ experiment: { control_percent: 0 } }),
      owner.token,
    );
    expect(empty.body.data.experiment).toBeNull();

    const res = await call(t.app, 'POST', '/api/momentum/create', body({ experiment }), owner.token);
    const { uuid, momentum_title } = res.body.data;
    const controlOnly = { control_percent: 30, variants: [] };
    const upd = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      body({ uuid, momentum_title, experiment: controlOnly }),
      owner.token,
    );
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.data.experiment).toEqual(controlOnly);
    const off = await call(t.app, 'PUT', '/api/momentum/update', body({ uuid, momentum_title }), owner.token);
    expect(off.body.data.experiment).toBeNull();
    expect((await listed(uuid)).experiment).toBeNull();
  });

  it('refuses a wrong experiment with a pt-BR 400', async () => {
    const cases: [unknown, string][] = [
      [{ control_percent: 60 }, em.controlInvalid],
      [
        {
          variants: [
            { ...experiment.variants[0], weight: 50 },
            { ...experiment.variants[1], weight: 40 },
          ],
        },
        em.weightsSum,
      ],
      [{ variants: [experiment.variants[0]] }, em.variantsCount],
      [
        { variants: [experiment.variants[0], { name: 'B', weight: 40, values: [{ filter: 'ZENVIA', body: 'Oi' }] }] },
        em.variantChannel,
      ],
    ];
    for (const [bad, message] of cases) {
      const res = await call(t.app, 'POST', '/api/momentum/create', body({ experiment: bad }), owner.token);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(res.body), message).toContain(message);
    }
  });

  it("is taken by a GCD item, whose arm the tag's injector draws (modules/dcm/dcm-experiment.test.ts)", async () => {
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: domain.uuid,
        type: 'dcm',
        momentum_title: `GCD ${randomUUID()}`,
        status: 'Draft',
        momentums: [],
        experiment: { control_percent: 10 },
      },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.experiment).toMatchObject({ control_percent: 10 });
  });

  it('is in the OpenAPI document', async () => {
    const doc = JSON.stringify((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json());
    expect(doc).toContain('control_percent');
    expect(doc).toContain('control_group_percent');
    expect(doc).toContain('/api/analytics/{domainUuid}/momentum/{momentumUuid}/experiment');
  });
});

describe("the domain's global control group", () => {
  const put = (uuid: string, domainBody: object, token = owner.token) =>
    call(t.app, 'PUT', `/api/domain/update/${uuid}`, { domain: domainBody }, token);
  const inList = async () =>
    (await call(t.app, 'GET', `/api/domain/list/${owner.company.uuid}`, undefined, owner.token)).body.data.find(
      (d: { uuid: string }) => d.uuid === domain.uuid,
    );

  it('is 0 by default, set alone or with the edit, and returned in the domain list', async () => {
    expect((await inList()).control_group_percent).toBe(0);
    const res = await put(domain.uuid, { control_group_percent: 15 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.control_group_percent).toBe(15);
    expect(await inList()).toMatchObject({ control_group_percent: 15, name: 'Loja Teste' });
    const edit = await put(domain.uuid, {
      name: 'Loja Teste',
      address: 'https://teste-ab.com.br',
      control_group_percent: 5,
    });
    expect(edit.status).toBe(200);
    expect((await inList()).control_group_percent).toBe(5);
  });

  it('refuses more than 20 % or a fraction with a pt-BR 400, and another company’s domain with a 404', async () => {
    for (const bad of [21, -1]) {
      const res = await put(domain.uuid, { control_group_percent: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.message, String(bad)).toBe(em.globalControlInvalid);
    }
    // Not a whole number: the domain body's forms cannot tell which one was meant; still a pt-BR 400.
    for (const bad of [2.5, '10']) {
      const res = await put(domain.uuid, { control_group_percent: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.message).toBe('Os dados enviados são inválidos. Verifique os campos e tente novamente.');
    }
    expect((await put(domain.uuid, { control_group_percent: 10 }, stranger.token)).status).toBe(404);
    expect((await inList()).control_group_percent).toBe(5);
  });
});
