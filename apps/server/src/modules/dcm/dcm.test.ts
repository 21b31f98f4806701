import { randomUUID } from 'node:crypto';
import { type DcmRule, serviceWorkerFile, trackingSnippet } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { type PushService, startPushService } from '../../../test/push-service.ts';
import { startTestSite } from '../../../test/test-site.ts';

/*
 * GCD (spec doc 2 §2.6, §3.5; READINGS A-44) on the server: the rules the tag receives (/t/config's revision,
 * /t/dcm/<gero_id>, /collect/dcm), customJs only for a verified domain, the tag's reports counted in dcm_stats and
 * shown by the list API, tenancy, and the manager's notification dispatcher sent by the engine as a web push.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let push: PushService;
let site: Awaited<ReturnType<typeof startTestSite>>;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
  push = await startPushService();
  site = await startTestSite();
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
});
afterAll(async () => {
  await t.close();
  await push.close();
  await site.close();
});

type Domain = Awaited<ReturnType<typeof createDomain>> & { root: string };
let seq = 0;
const newDomain = async (who = owner, root = `https://loja-gcd-${++seq}.com.br`): Promise<Domain> => ({
  ...(await createDomain(t.app, who, `Loja ${seq}`, root)),
  root,
});

const htmlBlock = (over: Record<string, unknown> = {}) => ({
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_DCM',
      dispatcher_type: 'custom',
      htmlElement: '#promo',
      tagBehavior: 'afterbegin',
      containHtmlElement: '',
      containText: 'Ofertas',
      customHtml: '<a href="/cupom">Cupom VOLTA10</a>',
      customCss: '#promo a{color:red}',
      customJs: 'window.__cupom = true;',
      timeout: '30',
      recurrence: '2',
      ...over,
    },
  ],
});

const createItem = async (
  d: Domain,
  title: string,
  momentums: object[],
  extra: Record<string, unknown> = {},
  who = owner,
) =>
  call(
    t.app,
    'POST',
    '/api/momentum/create',
    { domain_uuid: d.uuid, type: 'dcm', momentum_title: title, status: 'Active', momentums, ...extra },
    who.token,
  );

const tagConfig = async (d: Domain) => (await t.app.inject({ method: 'GET', url: `/t/config/${d.gero_id}` })).json();
const rulesOf = async (d: Domain, r?: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/t/dcm/${d.gero_id}${r ? `?r=${r}` : ''}` });
  return {
    status: res.statusCode,
    cache: res.headers['cache-control'],
    ...(res.json() as { rev: string | null; rules: DcmRule[] }),
  };
};

const collect = async (d: Domain, vid: string, events: object[], origin = d.root) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin, 'user-agent': CHROME },
    payload: JSON.stringify({ id: d.gero_id, vid, e: events }),
  });
  await t.app.ingestor.drain();
  return res;
};

const listDcm = async (d: Domain, who = owner) =>
  call(t.app, 'GET', `/api/momentum/list/${d.uuid}?type=dcm`, undefined, who.token);

describe('rules to the tag', () => {
  it('a domain without GCD items loads no injector; an active item gives a revision and its rule', async () => {
    const d = await newDomain();
    expect((await tagConfig(d)).dcm).toBeUndefined();
    expect(await rulesOf(d)).toMatchObject({ status: 200, rev: null, rules: [] });

    const res = await createItem(d, 'Cupom no topo', [
      {
        type: 'filter',
        values: [{ filter: 'user_stored_data.navigator.language', comparation: '==', value: ['pt-BR'] }],
      },
      blocks.pageviewContaining('/produtos'),
      htmlBlock(),
    ]);
    expect(res.status).toBe(200);
    const cfg = await tagConfig(d);
    expect(cfg.version).toBe('1.7.0');
    expect(cfg.dcm).toMatch(/^[0-9a-f]{16}$/);

    const { rules, rev, cache } = await rulesOf(d, cfg.dcm);
    expect(rev).toBe(cfg.dcm);
    expect(cache).toBe('public, max-age=31536000, immutable');
    expect(rules).toEqual([
      {
        id: res.body.data.uuid,
        f: [{ k: 'navigator.language', kind: 'string', op: '==', v: ['pt-BR'] }],
        g: { k: 'pageview', op: 'contain', v: ['/produtos'], d: 0 },
        kind: 'html',
        sel: '#promo',
        at: 'afterbegin',
        ct: 'Ofertas',
        html: '<a href="/cupom">Cupom VOLTA10</a>',
        css: '#promo a{color:red}',
        safe: true,
        to: 30,
        n: 2,
      },
    ]);
    // Asked without the revision (or with an old one), the answer is not kept.
    expect((await rulesOf(d)).cache).toBe('no-cache');
    expect((await rulesOf(d, 'antiga')).cache).toBe('no-cache');
    const chunk = await t.app.inject({ method: 'GET', url: '/t/gero/1.5.0/dcm.min.js' });
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('a paused, draft or notification item is not the tag’s; pausing changes the revision', async () => {
    const d = await newDomain();
    const active = (await createItem(d, 'Ativo', [blocks.pageviewContaining('/'), htmlBlock()])).body.data;
    await createItem(d, 'Rascunho', [blocks.pageviewContaining('/'), htmlBlock()], { status: 'Draft' });
    await createItem(d, 'Notificação', [
      blocks.pageviewContaining('/'),
      {
        type: 'dispatcher',
        values: [
          {
            filter: 'CELL_DCM',
            dispatcher_type: 'notification',
            name: 'n',
            title: 'Oi',
            message: 'Olá',
            redirect_uri: `${d.root}/`,
          },
        ],
      },
    ]);
    const before = await tagConfig(d);
    expect((await rulesOf(d)).rules.map((r) => r.id)).toEqual([active.uuid]);
    const paused = await call(t.app, 'PUT', `/api/momentum/status/${active.uuid}`, { status: 'Paused' }, owner.token);
    expect(paused.status).toBe(200);
    const after = await tagConfig(d);
    expect(after.dcm).toBeUndefined();
    expect(before.dcm).toBeDefined();
    expect((await rulesOf(d)).rules).toEqual([]);
  });

  it('opt-in and template items become rules for the tag’s own renderers, drawn as the manager previews them', async () => {
    const d = await newDomain();
    const dispatcher = (values: Record<string, unknown>) => ({
      type: 'dispatcher',
      values: [{ filter: 'CELL_DCM', htmlElement: 'body', tagBehavior: 'beforeend', ...values }],
    });
    const made = async (title: string, values: Record<string, unknown>) =>
      (await createItem(d, title, [blocks.pageviewContaining('/'), dispatcher(values)])).body.data.uuid as string;
    const optin = await made('Opt-in', {
      dispatcher_type: 'optin',
      optin: 'topbox',
      title: 'Fique por dentro',
      message: 'Avisamos das ofertas.',
    });
    const alert = await made('Alerta', {
      dispatcher_type: 'template',
      template: 'alert',
      title: 'Só hoje',
      message: 'Frete grátis',
    });
    const topbar = await made('Barra', {
      dispatcher_type: 'template',
      template: 'topbar',
      message: 'Black Friday',
      redirect_uri: `${d.root}/ofertas`,
    });
    const image = await made('Imagem', {
      dispatcher_type: 'template',
      template: 'image',
      title: 'Coleção',
      image: `${d.root}/banner.png`,
    });
    const rules = new Map((await rulesOf(d)).rules.map((r) => [r.id, r]));
    expect(rules.get(optin)).toMatchObject({
      kind: 'optin',
      optin: 'topbox',
      sel: 'body',
      texts: { title: 'Fique por dentro', message: 'Avisamos das ofertas.' },
    });
    expect(rules.get(alert)?.tpl).toEqual({
      type: 'alert_box',
      props: { alertContent: 'Só hoje — Frete grátis', alertPosition: 'topRight' },
    });
    expect(rules.get(topbar)?.tpl).toEqual({
      type: 'topbar',
      props: { topbarContent: 'Black Friday', topbarBtnText: 'Saiba mais', topbarBtnUrl: `${d.root}/ofertas` },
    });
    expect(rules.get(image)?.tpl).toMatchObject({
      type: 'notification_box',
      props: { notificationImage: `${d.root}/banner.png`, notificationTitle: 'Coleção', notificationButtonText: '' },
    });
  });

  it('customJs reaches only the company’s verified domain', async () => {
    const d = await newDomain(owner, site.url);
    await createItem(d, 'Com JS', [blocks.pageviewContaining('/'), htmlBlock()]);
    const unverified = await rulesOf(d);
    expect(unverified.rules[0]).toMatchObject({ safe: true });
    expect(unverified.rules[0]?.js).toBeUndefined();

    const publicUrl = t.app.ctx.config.publicUrl;
    site.set(
      '/',
      `<html><head>${trackingSnippet({ publicUrl, root: d.domain_root as string, geroId: d.gero_id })}</head></html>`,
    );
    site.set('/cn_sw.min.js', serviceWorkerFile({ publicUrl, geroId: d.gero_id }));
    expect(
      (await call(t.app, 'POST', '/api/gero/validate', { gero: { domain_uuid: d.uuid } }, owner.token)).status,
    ).toBe(200);

    const verified = await rulesOf(d);
    expect(verified.rev).not.toBe(unverified.rev);
    expect(verified.rules[0]?.js).toBe('window.__cupom = true;');
    expect(verified.rules[0]?.safe).toBeUndefined();
  });

  it('the visitor profile holds only what the filters read, this request’s device included, for the domain’s pages', async () => {
    const d = await newDomain();
    await createItem(d, 'Filtro', [
      {
        type: 'filter',
        values: [
          { filter: 'user_stored_data.navigator.browser', comparation: '==', value: ['Chrome'] },
          { filter: 'user_stored_data.origin', comparation: 'contain', value: ['google'], logical: 'or' },
        ],
      },
      blocks.pageviewContaining('/'),
      htmlBlock(),
    ]);
    const vid = `v-${randomUUID()}`;
    const profile = (origin: string, visitor = vid) =>
      t.app.inject({
        method: 'GET',
        url: `/collect/dcm?id=${d.gero_id}&vid=${visitor}&l=pt-BR`,
        headers: { origin, 'user-agent': CHROME },
      });
    // Not stored yet: judged on the request alone.
    expect((await profile(d.root)).json()).toEqual({ a: { 'navigator.browser': 'Chrome' } });
    await collect(d, vid, [{ t: 'pv', u: `${d.root}/`, r: 'https://www.google.com/' }]);
    const res = await profile(d.root);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual({ a: { 'navigator.browser': 'Chrome', origin: 'www.google.com' } });
    expect((await profile('https://outro-site.com.br')).statusCode).toBe(403);
    expect((await profile(d.root, '')).statusCode).toBe(400);
  });
});

describe('reports from the tag', () => {
  it('count showings and clicks, keep the broken selector’s page and time until a later showing', async () => {
    const d = await newDomain();
    const item = (await createItem(d, 'Banner', [blocks.pageviewContaining('/'), htmlBlock()])).body.data;
    const quiet = (await createItem(d, 'Sem relatos', [blocks.pageviewContaining('/'), htmlBlock()])).body.data;
    const vid = `v-${randomUUID()}`;
    const report = (k: string, u?: string) => ({ t: 'dcm', m: item.uuid, k, ...(u && { u }) });

    const res = await collect(d, vid, [report('viewed'), report('viewed'), report('clicked')]);
    expect(res.json()).toMatchObject({ accepted: 3, rejected: [] });
    t.clock.advance(60_000);
    await collect(d, vid, [report('missing', `${d.root}/produtos`)]);
    const stats = async () => {
      const list = (await listDcm(d)).body.data as { uuid: string; dcm_stats: unknown }[];
      return Object.fromEntries(list.map((i) => [i.uuid, i.dcm_stats]));
    };
    const seen = await stats();
    expect(seen[item.uuid]).toEqual({
      shown: 2,
      clicked: 1,
      missing: {
        page: `${d.root}/produtos`,
        last_seen: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
    });
    expect(
      Math.abs(
        new Date((seen[item.uuid] as { missing: { last_seen: string } }).missing.last_seen).getTime() -
          t.clock.now().getTime(),
      ),
    ).toBeLessThan(5000);
    expect(seen[quiet.uuid]).toEqual({ shown: 0, clicked: 0, missing: null });

    t.clock.advance(60_000);
    await collect(d, vid, [report('viewed')]);
    expect((await stats())[item.uuid]).toEqual({ shown: 3, clicked: 1, missing: null });
    // Reports are not stored as events: the person API's event list stays empty.
    expect((await call(t.app, 'GET', `/api/person/event/${d.uuid}`, undefined, owner.token)).body.data).toEqual([]);
  });

  it('a malformed report is refused by index; the rest of the batch is kept', async () => {
    const d = await newDomain();
    const res = await collect(d, `v-${randomUUID()}`, [
      { t: 'dcm', m: 'não-uuid', k: 'viewed' },
      { t: 'dcm', m: randomUUID(), k: 'talvez' },
      { t: 'pv', u: `${d.root}/` },
    ]);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ accepted: 1, rejected: [{ index: 0 }, { index: 1 }] });
  });
});

describe('tenancy', () => {
  it('another company neither lists, reads nor changes a company’s GCD items, and cannot count for them', async () => {
    const mine = await newDomain(owner);
    const theirs = await newDomain(stranger);
    const item = (await createItem(mine, 'Meu banner', [blocks.pageviewContaining('/'), htmlBlock()])).body.data;

    expect((await listDcm(mine, stranger)).status).toBe(404);
    expect((await call(t.app, 'GET', `/api/momentum/list?id=${item.uuid}`, undefined, stranger.token)).status).toBe(
      404,
    );
    expect(
      (await call(t.app, 'PUT', `/api/momentum/status/${item.uuid}`, { status: 'Paused' }, stranger.token)).status,
    ).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/momentum/remove/${item.uuid}`, undefined, stranger.token)).status).toBe(
      404,
    );
    expect(
      (await createItem(mine, 'Invasor', [blocks.pageviewContaining('/'), htmlBlock()], {}, stranger)).status,
    ).toBe(404);

    // Their site reports about my item: accepted on the wire, counted nowhere.
    await collect(theirs, `v-${randomUUID()}`, [
      { t: 'dcm', m: item.uuid, k: 'viewed' },
      { t: 'dcm', m: item.uuid, k: 'missing', u: `${theirs.root}/` },
    ]);
    const mineList = (await listDcm(mine)).body.data as { uuid: string; dcm_stats: unknown }[];
    expect(mineList.find((i) => i.uuid === item.uuid)?.dcm_stats).toEqual({ shown: 0, clicked: 0, missing: null });
    expect((await listDcm(theirs, stranger)).body.data).toEqual([]);
    // Their domain's tag never receives my rules.
    expect((await rulesOf(theirs)).rules).toEqual([]);
  });
});

describe('the notification dispatcher', () => {
  it('a GCD item that carries a notification sends it as a web push when its trigger fires', async () => {
    const d = await newDomain();
    const vid = `v-${randomUUID()}`;
    const sub = push.newSubscription();
    await collect(d, vid, [{ t: 'optin', s: sub.subscription }]);
    const item = await createItem(d, 'Aviso de frete', [
      blocks.everyone,
      blocks.pageviewContaining('/carrinho'),
      {
        type: 'dispatcher',
        values: [
          {
            filter: 'CELL_DCM',
            dispatcher_type: 'notification',
            htmlElement: 'body',
            tagBehavior: 'beforeend',
            name: 'Frete',
            title: 'Frete grátis',
            message: 'Só hoje, no carrinho todo.',
            redirect_uri: `${d.root}/carrinho`,
          },
        ],
      },
    ]);
    expect(item.status).toBe(200);
    await collect(d, vid, [{ t: 'pv', u: `${d.root}/produtos` }]);
    while ((await t.app.engine.dispatchDue()) > 0);
    expect(push.received.filter((r) => r.endpoint === sub.subscription.endpoint)).toHaveLength(0);

    await collect(d, vid, [{ t: 'pv', u: `${d.root}/carrinho` }]);
    while ((await t.app.engine.dispatchDue()) > 0);
    const got = push.received.filter((r) => r.endpoint === sub.subscription.endpoint);
    expect(got).toHaveLength(1);
    expect(got[0]!.payload).toMatchObject({
      title: 'Frete grátis',
      message: 'Só hoje, no carrinho todo.',
      redirect_uri: `${d.root}/carrinho`,
    });
    const list = (await listDcm(d)).body.data as { uuid: string; deliveries: { sent: number } }[];
    expect(list.find((i) => i.uuid === item.body.data.uuid)?.deliveries.sent).toBe(1);
  });

  it('an HTML item never becomes a delivery', async () => {
    const d = await newDomain();
    const vid = `v-${randomUUID()}`;
    await collect(d, vid, [{ t: 'optin', s: push.newSubscription().subscription }]);
    const item = (await createItem(d, 'Só HTML', [blocks.pageviewContaining('/'), htmlBlock()])).body.data;
    await collect(d, vid, [{ t: 'pv', u: `${d.root}/` }]);
    const list = (await listDcm(d)).body.data as { uuid: string; deliveries: { waiting: number; sent: number } }[];
    expect(list.find((i) => i.uuid === item.uuid)?.deliveries).toMatchObject({ waiting: 0, sent: 0 });
  });
});
