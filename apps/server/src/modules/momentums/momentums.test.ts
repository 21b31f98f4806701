import { momentumMessages as m } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domainUuid: string;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domainUuid = (await createDomain(t.app, owner, 'Loja', 'https://loja-momentum.com.br')).uuid;
});
afterAll(() => t.close());

/** The instant `ms` from now, moved up to the pickers' 15-minute grid (spec doc 2 §9). */
const onQuarter = (ms: number) => {
  const at = new Date(t.clock.now().getTime() + ms);
  at.setUTCMinutes(Math.ceil(at.getUTCMinutes() / 15) * 15, 0, 0);
  return at.toISOString();
};
const inOneDay = () => onQuarter(86_400_000);

const blocks = (over: { title?: string; finish?: string } = {}) => [
  { type: 'filter', values: [{ filter: 'all' }] },
  {
    type: 'trigger',
    values: [{ filter: 'pageview', comparation: 'contain', value: ['/carrinho'], dischargeIn: [60] }],
  },
  {
    type: 'dispatcher',
    values: [
      {
        filter: 'CELL_NOTIFICATION',
        name: 'Carrinho',
        title: over.title ?? 'Esqueceu algo?',
        message: 'Seu carrinho está te esperando.',
        icon_uri: 'https://loja-momentum.com.br/icone.png',
        redirect_uri: 'https://loja-momentum.com.br/carrinho',
        intervalRecurrency: [],
      },
    ],
  },
  ...(over.finish
    ? [{ type: 'finish', values: [{ type: 'finish', filter: 'stop_momentum', value: over.finish }] }]
    : []),
];

const create = (body: Record<string, unknown>, token = owner.token) =>
  call(t.app, 'POST', '/api/momentum/create', { domain_uuid: domainUuid, type: 'momentum', ...body }, token);

describe('momentum lifecycle', () => {
  it('creates with Imediato, Agendamento and Rascunho, lists them and loads one', async () => {
    const active = await create({
      momentum_title: 'Carrinho abandonado',
      status: 'Active',
      momentums: blocks({ finish: inOneDay() }),
    });
    expect(active.status).toBe(200);
    expect(active.body.message).toBe('Seu momentum foi criado. Você será redirecionado em breve...');
    expect(active.body.data).toMatchObject({
      status: 'Active',
      active: true,
      channels: { channel_type: 'CELL_NOTIFICATION' },
    });
    expect(active.body.data.worktime.end_date).toBeTruthy();

    const scheduled = await create({
      momentum_title: 'Agendado',
      status: 'Paused',
      scheduled_at: inOneDay(),
      momentums: blocks(),
    });
    expect(scheduled.body.data).toMatchObject({ status: 'Paused', scheduled_at: expect.stringMatching(/\.000Z$/) });

    const draft = await create({ momentum_title: 'Rascunho', status: 'Draft', momentums: [] });
    expect(draft.body.message).toBe('Rascunho salvo com sucesso!');

    const noStatus = await create({ momentum_title: 'Sem status', momentums: blocks() });
    expect(noStatus.body.data.status).toBe('Paused');

    const list = await call(t.app, 'GET', `/api/momentum/list/${domainUuid}?type=momentum`, undefined, owner.token);
    expect(list.body.data.map((i: { momentum_title: string }) => i.momentum_title).sort()).toEqual(
      ['Agendado', 'Carrinho abandonado', 'Rascunho', 'Sem status'].sort(),
    );
    const campaigns = await call(
      t.app,
      'GET',
      `/api/momentum/list/${domainUuid}?type=campaign`,
      undefined,
      owner.token,
    );
    expect(campaigns.body.data).toEqual([]);
    const one = await call(t.app, 'GET', `/api/momentum/list?id=${active.body.data.uuid}`, undefined, owner.token);
    expect(one.body.data.momentum_title).toBe('Carrinho abandonado');
  });

  it('refuses a missing title, a duplicate title, incomplete blocks and past dates', async () => {
    const noTitle = await create({ momentum_title: '  ', status: 'Draft' });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body.message).toBe('O momentum não pode ser salvo sem um título.');
    const noTitleCampaign = await create({ type: 'campaign', status: 'Draft' });
    expect(noTitleCampaign.body.message).toBe('A campanha não pode ser salvo sem um título.');

    await create({ momentum_title: 'Único', status: 'Draft' });
    const dup = await create({ momentum_title: 'único', status: 'Draft' });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(m.titleDuplicate);

    const incomplete = await create({
      momentum_title: 'Incompleto',
      status: 'Active',
      momentums: blocks().slice(0, 2),
    });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.message).toBe(m.blocksRequired('momentum'));

    const past = onQuarter(-7_200_000);
    expect(
      (await create({ momentum_title: 'Passado', status: 'Active', momentums: blocks({ finish: past }) })).body.message,
    ).toBe(m.finishPast);
    expect(
      (await create({ momentum_title: 'Agenda passada', status: 'Paused', scheduled_at: past, momentums: blocks() }))
        .body.message,
    ).toBe(m.schedulePast);

    const badBlock = await create({
      momentum_title: 'Bloco ruim',
      status: 'Active',
      momentums: [
        { type: 'filter', values: [{ filter: 'user_stored_data.navigator.browser', comparation: '<', value: ['x'] }] },
      ],
    });
    expect(badBlock.status).toBe(400);

    const longTitle = await create({
      momentum_title: 'Título longo',
      status: 'Active',
      momentums: blocks({ title: 'x'.repeat(50) }),
    });
    expect(longTitle.status).toBe(400);

    const worktime = await create({ momentum_title: 'Cronograma', status: 'Draft', worktime: { weekdays: [1, 2] } });
    expect(worktime.status).toBe(400);
    expect(worktime.body.fields).toMatchObject({
      'worktime.start_at': '* O horário de início é obrigatório.',
      'worktime.stop_at': '* O horário de fim é obrigatório.',
    });
  });

  it('enforces the edit rules: Active refused, Paused keeps title, filter, trigger and status, Draft fully editable', async () => {
    const active = (await create({ momentum_title: 'Ativo', status: 'Active', momentums: blocks() })).body.data;
    const refused = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { ...active, momentum_title: 'Outro' },
      owner.token,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Não é permitido editar Momentums em andamento.');

    const paused = (await create({ momentum_title: 'Pausado', status: 'Paused', momentums: blocks() })).body.data;
    const changed = blocks({ title: 'Novo título push' });
    (changed[1] as { values: { value: string[] }[] }).values[0]!.value = ['/outra'];
    const upd = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { ...paused, momentum_title: 'Renomeado', status: 'Active', momentums: changed },
      owner.token,
    );
    expect(upd.status).toBe(200);
    expect(upd.body.data.momentum_title).toBe('Pausado');
    expect(upd.body.data.status).toBe('Paused');
    expect(upd.body.data.momentums[1].values[0].value).toEqual(['/carrinho']);
    expect(upd.body.data.momentums[2].values[0].title).toBe('Novo título push');

    const draft = (await create({ momentum_title: 'Esboço', status: 'Draft' })).body.data;
    const updDraft = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { ...draft, momentum_title: 'Esboço 2', status: 'Draft' },
      owner.token,
    );
    expect(updDraft.body).toMatchObject({
      message: 'Rascunho atualizado com sucesso!',
      data: { momentum_title: 'Esboço 2' },
    });
    const launched = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { ...draft, momentum_title: 'Esboço 2', status: 'Active', momentums: blocks() },
      owner.token,
    );
    expect(launched.body.data.status).toBe('Active');
  });

  it('starts and pauses by the status rules, and removes softly', async () => {
    const paused = (
      await create({ momentum_title: 'Liga desliga', status: 'Paused', scheduled_at: inOneDay(), momentums: blocks() })
    ).body.data;
    const status = (uuid: string, s: string) =>
      call(t.app, 'PUT', `/api/momentum/status/${uuid}`, { status: s }, owner.token);
    expect((await status(paused.uuid, 'Paused')).status).toBe(409);
    const started = await status(paused.uuid, 'Active');
    expect(started.body).toMatchObject({
      message: 'Seu momentum foi iniciado com sucesso!',
      data: { status: 'Active', scheduled_at: null },
    });
    const pausedAgain = await status(paused.uuid, 'Paused');
    expect(pausedAgain.body.message).toBe('Seu momentum foi pausado com sucesso!');

    const draft = (await create({ momentum_title: 'Rascunho parado', status: 'Draft' })).body.data;
    const refused = await status(draft.uuid, 'Active');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(m.statusFailed);

    const removed = await call(t.app, 'DELETE', `/api/momentum/remove/${paused.uuid}`, undefined, owner.token);
    expect(removed.body.message).toBe('Seu momentum foi removido com sucesso!');
    const list = await call(t.app, 'GET', `/api/momentum/list/${domainUuid}?type=momentum`, undefined, owner.token);
    expect(list.body.data.find((i: { uuid: string }) => i.uuid === paused.uuid).status).toBe('Deleted');
    expect((await status(paused.uuid, 'Active')).status).toBe(409);
    expect((await call(t.app, 'PUT', '/api/momentum/update', { ...paused, status: 'Draft' }, owner.token)).status).toBe(
      404,
    );
    expect((await call(t.app, 'DELETE', `/api/momentum/remove/${paused.uuid}`, undefined, owner.token)).status).toBe(
      404,
    );
    expect((await create({ momentum_title: 'Liga desliga', status: 'Draft' })).status).toBe(200);
  });

  it('a Done item whose finish date has passed cannot be started again', async () => {
    const soon = onQuarter(60_000);
    const item = (await create({ momentum_title: 'Acaba logo', status: 'Paused', momentums: blocks({ finish: soon }) }))
      .body.data;
    t.clock.advance(17 * 60_000);
    try {
      const res = await call(t.app, 'PUT', `/api/momentum/status/${item.uuid}`, { status: 'Active' }, owner.token);
      expect(res.status).toBe(409);
    } finally {
      t.clock.advance(-17 * 60_000);
    }
  });

  it("another company's momentums answer 404 and stay unchanged", async () => {
    const item = (await create({ momentum_title: 'Privado', status: 'Paused', momentums: blocks() })).body.data;
    expect((await call(t.app, 'GET', `/api/momentum/list?id=${item.uuid}`, undefined, stranger.token)).status).toBe(
      404,
    );
    expect(
      (await call(t.app, 'GET', `/api/momentum/list/${domainUuid}?type=momentum`, undefined, stranger.token)).status,
    ).toBe(404);
    expect(
      (await call(t.app, 'PUT', `/api/momentum/status/${item.uuid}`, { status: 'Active' }, stranger.token)).status,
    ).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/momentum/remove/${item.uuid}`, undefined, stranger.token)).status).toBe(
      404,
    );
    expect(
      (await call(t.app, 'PUT', '/api/momentum/update', { ...item, momentum_title: 'X' }, stranger.token)).status,
    ).toBe(404);
    expect((await create({ momentum_title: 'Invasor', status: 'Draft' }, stranger.token)).status).toBe(404);
    const still = await call(t.app, 'GET', `/api/momentum/list?id=${item.uuid}`, undefined, owner.token);
    expect(still.body.data).toMatchObject({ momentum_title: 'Privado', status: 'Paused' });
  });
});

describe('momentum form details (issue #14)', () => {
  const trigger = (values: Record<string, unknown>, regex = false) => ({ type: 'trigger', regex, values: [values] });
  const withTrigger = (t: unknown) => [blocks()[0], t, blocks()[2]];

  it('takes company and user from the token: its own are accepted, anyone else is refused in pt-BR', async () => {
    const mine = await create({
      momentum_title: 'Com identidade',
      status: 'Draft',
      company_uuid: owner.company.uuid,
      user_uuid: owner.signin.body.data.user_uuid,
    });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toMatchObject({
      company_uuid: owner.company.uuid,
      user_uuid: owner.signin.body.data.user_uuid,
    });

    const otherCompany = await create({ momentum_title: 'Outra empresa', company_uuid: stranger.company.uuid });
    expect(otherCompany.status).toBe(403);
    expect(otherCompany.body.message).toBe(m.identityMismatch);
    const otherUser = await create({ momentum_title: 'Outro usuário', user_uuid: stranger.signin.body.data.user_uuid });
    expect(otherUser.status).toBe(403);
    expect(otherUser.body.message).toBe(m.identityMismatch);

    const update = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { ...mine.body.data, momentum_title: 'Trocado', user_uuid: stranger.signin.body.data.user_uuid },
      owner.token,
    );
    expect(update.status).toBe(403);
    expect(update.body.message).toBe(m.identityMismatch);
    const kept = await call(t.app, 'GET', `/api/momentum/list?id=${mine.body.data.uuid}`, undefined, owner.token);
    expect(kept.body.data.momentum_title).toBe('Com identidade');
  });

  it('uses the first item when a dispatcher or finish block carries two', async () => {
    const [filter, pageview, dispatcher] = blocks();
    const first = (dispatcher as { values: Record<string, unknown>[] }).values[0]!;
    const finish = inOneDay();
    const res = await create({
      momentum_title: 'Dois itens',
      status: 'Active',
      momentums: [
        filter,
        pageview,
        { type: 'dispatcher', values: [first, { ...first, title: 'Segundo item' }] },
        {
          type: 'finish',
          values: [
            { type: 'finish', filter: 'stop_momentum', value: finish },
            { type: 'finish', filter: 'stop_momentum', value: onQuarter(2 * 86_400_000) },
          ],
        },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const saved = res.body.data.momentums as { type: string; values: Record<string, unknown>[] }[];
    expect(saved[2]!.values).toHaveLength(1);
    expect(saved[2]!.values[0]!.title).toBe('Esqueceu algo?');
    expect(saved[3]!.values).toEqual([{ type: 'finish', filter: 'stop_momentum', value: finish }]);
  });

  it("refuses a page that is not a URL with 'Igual a' or 'Diferente de', with the pt-BR hint", async () => {
    for (const comparation of ['==', '!=']) {
      const res = await create({
        momentum_title: `Carrinho ${comparation}`,
        status: 'Active',
        momentums: withTrigger(trigger({ filter: 'pageview', comparation, value: ['carrinho'] })),
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Informe uma URL válida. (Ex.: www.seusite.com.br)');
    }
    const ok = await create({
      momentum_title: 'Carrinho URL',
      status: 'Active',
      momentums: withTrigger(trigger({ filter: 'pageview', comparation: '==', value: ['loja.com.br/carrinho'] })),
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.momentums[1].values[0].value).toEqual(['https://loja.com.br/carrinho']);
  });

  it('splits page and event values written with commas into a list, but not regular expressions', async () => {
    const pages = await create({
      momentum_title: 'Várias páginas',
      status: 'Active',
      momentums: withTrigger(trigger({ filter: 'pageview', comparation: 'contain', value: ['/carrinho, /checkout,'] })),
    });
    expect(pages.status).toBe(200);
    expect(pages.body.data.momentums[1].values[0].value).toEqual(['/carrinho', '/checkout']);

    const events = await create({
      momentum_title: 'Vários valores',
      status: 'Active',
      momentums: withTrigger(
        trigger({ filter: 'events', parentCategory: 'compra', key: 'produto', comparation: '==', value: 'tenis,meia' }),
      ),
    });
    expect(events.status).toBe(200);
    expect(events.body.data.momentums[1].values[0].value).toEqual(['tenis', 'meia']);

    const regex = await create({
      momentum_title: 'Regex com vírgula',
      status: 'Active',
      momentums: withTrigger(trigger({ filter: 'pageview', comparation: 'contain', value: ['^/p/\\d{2,4}$'] }, true)),
    });
    expect(regex.status).toBe(200);
    expect(regex.body.data.momentums[1].values[0].value).toEqual(['^/p/\\d{2,4}$']);
  });

  it("keeps an event trigger's second condition (parentCategory2 with comparation2)", async () => {
    const second = {
      filter: 'events',
      parentCategory: 'compra',
      key: 'produto',
      comparation: '==',
      value: ['tenis'],
      parentCategory2: 'carrinho',
      comparation2: 'contain',
    };
    const res = await create({
      momentum_title: 'Duas categorias',
      status: 'Active',
      momentums: withTrigger(trigger(second)),
    });
    expect(res.status).toBe(200);
    expect(res.body.data.momentums[1].values[0]).toMatchObject({
      parentCategory2: 'carrinho',
      comparation2: 'contain',
    });

    const missing = await create({
      momentum_title: 'Sem comparação 2',
      status: 'Active',
      momentums: withTrigger(trigger({ ...second, comparation2: undefined })),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(
      'Escolha uma comparação para a segunda condição: igual, diferente, contém ou não contém.',
    );
  });

  it('keeps schedule and finish on the 15-minute grid', async () => {
    const offGrid = new Date(onQuarter(86_400_000));
    offGrid.setUTCMinutes(offGrid.getUTCMinutes() + 7);
    const scheduled = await create({
      momentum_title: 'Agenda 07',
      status: 'Paused',
      scheduled_at: offGrid.toISOString(),
      momentums: blocks(),
    });
    expect(scheduled.status).toBe(400);
    expect(scheduled.body.message).toBe(m.scheduleGrid);

    const finish = await create({
      momentum_title: 'Fim 07',
      status: 'Active',
      momentums: blocks({ finish: offGrid.toISOString() }),
    });
    expect(finish.status).toBe(400);
    expect(finish.body.message).toBe(
      'A data de finalização deve usar horários em passos de 15 minutos (ex.: 14:00, 14:15, 14:30 ou 14:45).',
    );
  });
});

describe('an item made through the API (issue #29: the demo)', () => {
  it("takes the domain's channel of its dispatcher's type when no channel_uuid is sent, as the editors read it", async () => {
    const push = await call(
      t.app,
      'POST',
      '/api/channel/create',
      { channel: { domain_uuid: domainUuid, channel_type: 'CELL_NOTIFICATION', properties: {} } },
      owner.token,
    );
    expect(push.status).toBe(200);
    // The spec's create body has no channel_uuid (doc 2 §7); the demo's seed sends none.
    const made = await create({ momentum_title: 'Sem canal no corpo', status: 'Paused', momentums: blocks() });
    expect(made.status).toBe(200);
    expect(made.body.data.channel_uuid).toBe(push.body.data.uuid);
    const read = await call(t.app, 'GET', `/api/momentum/list?id=${made.body.data.uuid}`, undefined, owner.token);
    expect(read.body.data.channel_uuid).toBe(push.body.data.uuid);

    // A draft without a dispatcher has no channel; an update that adds one finds it.
    const draft = await create({
      momentum_title: 'Rascunho sem canal',
      status: 'Draft',
      momentums: blocks().slice(0, 1),
    });
    expect(draft.body.data.channel_uuid).toBeNull();
    const updated = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { ...draft.body.data, momentums: blocks(), channel_uuid: null },
      owner.token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data.channel_uuid).toBe(push.body.data.uuid);
  });
});
