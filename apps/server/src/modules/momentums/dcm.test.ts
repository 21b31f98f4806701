import { dcmMessages as dm, filterMessages as fm, momentumMessages as m } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

// GCD items are momentums of type 'dcm' with a CELL_DCM dispatcher (spec doc 2 §2.6, §3.5, READINGS A-44).

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domainUuid: string;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domainUuid = (await createDomain(t.app, owner, 'Loja GCD', 'https://loja-gcd.com.br')).uuid;
});
afterAll(() => t.close());

/** The instant `ms` from now, moved up to the pickers' 15-minute grid (spec doc 2 §9). */
const onQuarter = (ms: number) => {
  const at = new Date(t.clock.now().getTime() + ms);
  at.setUTCMinutes(Math.ceil(at.getUTCMinutes() / 15) * 15, 0, 0);
  return at.toISOString();
};
const inOneDay = () => onQuarter(86_400_000);

const dcmValues = (over: Record<string, unknown> = {}) => ({
  filter: 'CELL_DCM',
  dispatcher_type: 'custom',
  htmlElement: '#vitrine .produto:first-child',
  tagBehavior: 'afterbegin',
  containHtmlElement: '.preco',
  containText: 'R$',
  customHtml: '<div class="selo">Frete grátis</div>',
  customCss: '.selo{background:#0a0;color:#fff}',
  customJs: 'document.querySelector(".selo").dataset.visto = "1";',
  timeout: '30',
  recurrence: '3',
  ...over,
});

const blocks = (over: Record<string, unknown> = {}, trigger?: Record<string, unknown>) => [
  { type: 'filter', values: [{ filter: 'all' }] },
  {
    type: 'trigger',
    values: [{ filter: 'pageview', comparation: 'contain', value: ['/produtos'], dischargeIn: [], ...trigger }],
  },
  { type: 'dispatcher', values: [dcmValues(over)] },
];

const create = (body: Record<string, unknown>, token = owner.token) =>
  call(t.app, 'POST', '/api/momentum/create/', { domain_uuid: domainUuid, type: 'dcm', ...body }, token);
const list = (token = owner.token) => call(t.app, 'GET', `/api/momentum/list/${domainUuid}?type=dcm`, undefined, token);

describe('GCD items through the momentum service', () => {
  it('creates Active without a schedule and Paused with scheduled_at, lists only dcm items and loads one', async () => {
    const active = await create({ momentum_title: 'Selo de frete', status: 'Active', momentums: blocks() });
    expect(active.status).toBe(200);
    expect(active.body.message).toBe('Seu conteúdo do GCD foi criado. Você será redirecionado em breve...');
    expect(active.body.data).toMatchObject({
      type: 'dcm',
      status: 'Active',
      scheduled_at: null,
      channels: { channel_type: 'CELL_DCM' },
    });
    expect(active.body.data.momentums[2].values[0]).toMatchObject({
      htmlElement: '#vitrine .produto:first-child',
      tagBehavior: 'afterbegin',
      containHtmlElement: '.preco',
      containText: 'R$',
      timeout: 30,
      recurrence: 3,
    });

    const at = inOneDay();
    const scheduled = await create({
      momentum_title: 'Banner da semana',
      status: 'Paused',
      scheduled_at: at,
      momentums: blocks({ dispatcher_type: 'template', template: 'topbar', message: 'Semana do cliente' }),
      worktime: { weekdays: [1, 2, 3, 4, 5], start_at: '08:00', stop_at: '18:00' },
    });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.data).toMatchObject({ status: 'Paused', scheduled_at: at });
    expect(scheduled.body.data.worktime).toMatchObject({ weekdays: [1, 2, 3, 4, 5], start_at: '08:00' });
    expect(scheduled.body.data.momentums[2].values[0]).not.toHaveProperty('customJs');

    await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: domainUuid,
        type: 'momentum',
        momentum_title: 'Um momentum',
        status: 'Draft',
      },
      owner.token,
    );
    const listed = await list();
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((i: { momentum_title: string }) => i.momentum_title).sort()).toEqual([
      'Banner da semana',
      'Selo de frete',
    ]);
    const one = await call(t.app, 'GET', `/api/momentum/list?id=${scheduled.body.data.uuid}`, undefined, owner.token);
    expect(one.body.data).toMatchObject({ type: 'dcm', momentum_title: 'Banner da semana' });
  });

  it('updates a paused item (title and trigger kept, tags changed) and refuses to edit an active one', async () => {
    const paused = (
      await create({ momentum_title: 'Editável', status: 'Paused', scheduled_at: inOneDay(), momentums: blocks() })
    ).body.data;
    const changed = blocks({ htmlElement: 'footer', tagBehavior: 'replace', customHtml: '<p>novo</p>' });
    const upd = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { ...paused, momentum_title: 'Outro nome', momentums: changed },
      owner.token,
    );
    expect(upd.status).toBe(200);
    expect(upd.body.data.momentum_title).toBe('Editável');
    expect(upd.body.data.status).toBe('Paused');
    expect(upd.body.data.momentums[2].values[0]).toMatchObject({
      htmlElement: 'footer',
      tagBehavior: 'replace',
      customHtml: '<p>novo</p>',
    });

    const active = (await create({ momentum_title: 'Rodando', status: 'Active', momentums: blocks() })).body.data;
    const refused = await call(t.app, 'PUT', '/api/momentum/update', { ...active, momentums: changed }, owner.token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Não é permitido editar conteúdos do GCD em andamento.');
  });

  it('pauses, starts and removes through the status and remove routes', async () => {
    const item = (await create({ momentum_title: 'Liga e desliga', status: 'Active', momentums: blocks() })).body.data;
    const status = (s: string) => call(t.app, 'PUT', `/api/momentum/status/${item.uuid}`, { status: s }, owner.token);
    // GCD wording: the item is a "conteúdo do GCD", never a momentum.
    expect((await status('Paused')).body).toMatchObject({
      message: 'Seu conteúdo do GCD foi pausado com sucesso!',
      data: { status: 'Paused' },
    });
    expect((await status('Active')).body).toMatchObject({
      message: 'Seu conteúdo do GCD foi iniciado com sucesso!',
      data: { status: 'Active' },
    });
    expect((await status('Active')).body.message).toBe(dm.statusFailed);
    const removed = await call(t.app, 'DELETE', `/api/momentum/remove/${item.uuid}`, undefined, owner.token);
    expect(removed.body.message).toBe('Seu conteúdo do GCD foi removido com sucesso!');
    const after = (await list()).body.data.find((i: { uuid: string }) => i.uuid === item.uuid);
    expect(after.status).toBe('Deleted');
  });

  it('a push or template needs no selector (its content does not go at an element); custom code does', async () => {
    const push = await create({
      momentum_title: 'Push sem seletor',
      status: 'Active',
      momentums: blocks({
        htmlElement: '',
        dispatcher_type: 'notification',
        title: 'Frete grátis',
        message: 'Hoje, em toda a loja.',
        redirect_uri: 'https://loja-gcd.com.br/ofertas',
      }),
    });
    expect(push.status, push.body.message).toBe(200);
    expect(push.body.data.momentums[2].values[0]).toMatchObject({ dispatcher_type: 'notification', htmlElement: '' });
    const template = await create({
      momentum_title: 'Alerta sem seletor',
      status: 'Active',
      momentums: blocks({ htmlElement: '', dispatcher_type: 'template', template: 'alert', message: 'Oi' }),
    });
    expect(template.status, template.body.message).toBe(200);
    const custom = await create({ momentum_title: 'Código sem seletor', momentums: blocks({ htmlElement: '' }) });
    expect(custom.status).toBe(400);
    expect(custom.body.message).toBe(fm.dcmSelectorRequired);
  });

  it('one item read alone carries its dcm_stats, as the list does', async () => {
    const item = (await create({ momentum_title: 'Contado', status: 'Active', momentums: blocks() })).body.data;
    const one = await call(t.app, 'GET', `/api/momentum/list?id=${item.uuid}`, undefined, owner.token);
    expect(one.body.data.dcm_stats).toEqual({ shown: 0, clicked: 0, missing: null });
  });

  it('refuses bad GCD input with pt-BR messages and a 400', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['a selector querySelector refuses', { momentums: blocks({ htmlElement: 'div >' }) }, fm.dcmSelectorInvalid],
      ['an id starting with a digit', { momentums: blocks({ htmlElement: '#1banner' }) }, fm.dcmSelectorInvalid],
      ['no selector', { momentums: blocks({ htmlElement: '' }) }, fm.dcmSelectorRequired],
      [
        'a bad condition selector',
        { momentums: blocks({ containHtmlElement: 'a[x!=y]' }) },
        fm.dcmContainSelectorInvalid,
      ],
      ['an unknown behaviour', { momentums: blocks({ tagBehavior: 'after' }) }, fm.dcmBehaviorInvalid],
      ['a negative timeout', { momentums: blocks({ timeout: '-1' }) }, fm.dcmNumberInvalid],
      ['a text recurrence', { momentums: blocks({ recurrence: 'sempre' }) }, fm.dcmNumberInvalid],
      ['HTML over 100 KB', { momentums: blocks({ customHtml: 'x'.repeat(102_401) }) }, fm.dcmHtmlTooLarge],
      ['JS over 50 KB', { momentums: blocks({ customJs: 'x'.repeat(51_201) }) }, fm.dcmJsTooLarge],
      ['no content', { momentums: blocks({ customHtml: '', customCss: '', customJs: '' }) }, fm.dcmContentRequired],
      [
        'the Icon opt-in model',
        { momentums: blocks({ dispatcher_type: 'optin', optin: 'icon' }) },
        fm.dcmOptinRequired,
      ],
      [
        'a trigger without values',
        { momentums: blocks({}, { filter: 'events', parentCategory: 'compra', value: [] }) },
        m.dcmTriggerIncomplete,
      ],
      [
        'a recurrence trigger',
        { momentums: blocks({}, { filter: 'recurrence', comparation: 'daily', value: [], hours: '10:00' }) },
        m.dcmTriggerIncomplete,
      ],
      ['no dispatcher', { momentums: blocks().slice(0, 2) }, m.blocksRequired('dcm')],
      ['an incomplete Cronograma', { momentums: blocks(), worktime: { weekdays: [1] } }, m.startRequired],
    ];
    for (const [name, body, message] of cases) {
      const res = await create({ momentum_title: `Inválido ${name}`, status: 'Active', ...body });
      expect(res.status, name).toBe(400);
      expect(res.body.message, name).toBe(message);
    }
    expect(
      (await list()).body.data.some((i: { momentum_title: string }) => i.momentum_title.startsWith('Inválido')),
    ).toBe(false);
  });

  it("another company's GCD items answer 404 on read, update, status and remove, and stay unchanged", async () => {
    const item = (await create({ momentum_title: 'Só nosso', status: 'Paused', momentums: blocks() })).body.data;
    expect((await call(t.app, 'GET', `/api/momentum/list?id=${item.uuid}`, undefined, stranger.token)).status).toBe(
      404,
    );
    expect((await list(stranger.token)).status).toBe(404);
    const update = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { ...item, momentums: blocks({ customJs: 'roubar()' }) },
      stranger.token,
    );
    expect(update.status).toBe(404);
    expect(
      (await call(t.app, 'PUT', `/api/momentum/status/${item.uuid}`, { status: 'Active' }, stranger.token)).status,
    ).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/momentum/remove/${item.uuid}`, undefined, stranger.token)).status).toBe(
      404,
    );
    const still = await call(t.app, 'GET', `/api/momentum/list?id=${item.uuid}`, undefined, owner.token);
    expect(still.body.data).toMatchObject({ momentum_title: 'Só nosso', status: 'Paused' });
    expect(still.body.data.momentums[2].values[0].customJs).toBe(dcmValues().customJs);
  });
});
