import { dcmMessages as dm, filterMessages as fm, momentumMessages as mm } from '@impeto/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, type FetchCall, type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';
import { previewDocument } from './components/sandbox-preview.tsx';

const future = new Date(Date.now() + 2 * 86400_000).toISOString();
const dcmBlocks = [
  { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] },
  {
    type: 'trigger',
    regex: false,
    values: [{ filter: 'pageview', comparation: 'contain', value: ['/produtos'], dischargeIn: [] }],
  },
  {
    type: 'dispatcher',
    values: [
      {
        filter: 'CELL_DCM',
        dispatcher_type: 'custom',
        htmlElement: '#vitrine .produto',
        tagBehavior: 'afterbegin',
        containHtmlElement: '',
        containText: '',
        customHtml: '<div class="selo">Frete grátis</div>',
        customCss: '.selo{color:green}',
        customJs: '',
        timeout: 30,
        intervalRecurrency: [],
      },
    ],
  },
];
let n = 0;
const item = (momentum_title: string, status: string, scheduled_at: string | null = null, extra = {}) => ({
  uuid: `bbbbbbbb-bbbb-4bbb-8bbb-${String(++n).padStart(12, '0')}`,
  company_uuid: COMPANY,
  domain_uuid: DOMAIN,
  user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  type: 'dcm',
  momentum_title,
  momentum_description: null,
  status,
  active: status === 'Active',
  scheduled_at,
  channel_uuid: null,
  channels: { channel_type: 'CELL_DCM' },
  momentums: dcmBlocks,
  worktime: null,
  created_at: '2026-03-10T12:00:00.000Z',
  updated_at: '2026-03-11T12:00:00.000Z',
  ...extra,
});
const items = [
  item('Selo na vitrine', 'Active', null, {
    dcm_stats: {
      shown: 1520,
      clicked: 48,
      missing: { page: 'https://loja.example.com/produtos/tenis', last_seen: '2026-03-12T18:30:00.000Z' },
    },
  }),
  item('Banner agendado', 'Paused', future, { dcm_stats: { shown: 0, clicked: 0, missing: null } }),
  item('Convite pausado', 'Paused'),
];

function serve(extra?: FetchHandler): FetchHandler {
  return (url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url === `/api/momentum/list/${DOMAIN}?type=dcm`) return ok(items);
    if (url.startsWith('/api/momentum/list?id=')) {
      const found = items.find((i) => url.endsWith(i.uuid));
      return found ? ok(found) : undefined;
    }
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    return undefined;
  };
}

const rowOf = (title: string) => screen.getByText(title).closest('tr') as HTMLElement;

describe('/dcm', { timeout: 30_000 }, () => {
  it("lists the domain's GCD items with the spec's columns, statuses, views · clicks and the selector alert", async () => {
    renderPage(`/dcm?domain=${DOMAIN}`, { session: true, fetch: serve() });
    expect(await screen.findByText('Selo na vitrine', {}, { timeout: 15000 })).toBeTruthy();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['#', 'Título', 'Status', 'Data de Agendamento', 'Criado em', 'Atualizado em', 'Opções']);
    expect(within(rowOf('Selo na vitrine')).getByText('Ativo')).toBeTruthy();
    expect(within(rowOf('Banner agendado')).getByText('Agendado')).toBeTruthy();
    expect(within(rowOf('Convite pausado')).getByText('Pausado')).toBeTruthy();
    expect(within(rowOf('Banner agendado')).getByText('2d')).toBeTruthy();

    const active = rowOf('Selo na vitrine');
    expect(within(active).getByLabelText('1.520 exibições · 48 cliques')).toBeTruthy();
    expect(within(active).getByText('seletor não encontrado')).toBeTruthy();
    expect(within(active).getByText('/produtos/tenis · 12/03/2026 15:30')).toBeTruthy();
    expect(within(active).getByTitle('https://loja.example.com/produtos/tenis')).toBeTruthy();
    expect(within(rowOf('Banner agendado')).getByLabelText('0 exibições · 0 cliques')).toBeTruthy();
    expect(within(rowOf('Banner agendado')).queryByText('seletor não encontrado')).toBeNull();
    // Without dcm_stats (before the tag reports anything), nothing is drawn under the title.
    expect(within(rowOf('Convite pausado')).queryByLabelText(/exibições/)).toBeNull();

    expect(screen.getByRole('link', { name: 'Criar conteúdo' }).getAttribute('href')).toBe(
      `/dcm/manager?domain=${DOMAIN}`,
    );
    const gcd = screen.getByRole('navigation', { name: 'Menu principal' }).querySelector('a[href^="/dcm"]');
    expect(gcd?.getAttribute('data-active')).toBe('true');
  });

  it('views, refuses to edit a running item, pauses and removes after confirming', async () => {
    const { router, calls } = renderPage(`/dcm?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url, init) => {
        if (init.method === 'PUT' && url.startsWith('/api/momentum/status/'))
          return { body: { message: dm.paused, data: { ...items[0], status: 'Paused' } } };
        if (init.method === 'DELETE') return { body: { message: dm.removed, data: null } };
        return undefined;
      }),
    });
    await screen.findByText('Selo na vitrine', {}, { timeout: 15000 });
    await userEvent.click(screen.getByRole('button', { name: 'Editar Selo na vitrine' }));
    // The row speaks of the GCD item, as the server does.
    expect(await screen.findByText(dm.editActive)).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Pausar Selo na vitrine' }));
    expect(await screen.findByText(dm.paused)).toBeTruthy();
    const status = calls.find((c) => c.method === 'PUT');
    expect(status?.url).toBe(`/api/momentum/status/${items[0]!.uuid}`);
    expect(status?.json).toEqual({ status: 'Paused' });

    await userEvent.click(screen.getByRole('button', { name: 'Remover Convite pausado' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Convite pausado')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText(dm.removed)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === `/api/momentum/remove/${items[2]!.uuid}`)).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Visualizar Banner agendado' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dcm/manager'));
    expect(router.state.location.search).toBe(`?uuid=${items[1]!.uuid}&viewonly=&domain=${DOMAIN}`);
  });
});

async function pick(label: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }, { timeout: 5000 }));
}

/** Sets a text field's value at once (typing letter by letter only slows the test down). */
const fill = (name: string, value: string, scope: HTMLElement = document.body) =>
  fireEvent.change(within(scope).getByRole('textbox', { name }), { target: { value } });

const opened = () => screen.findByRole('textbox', { name: 'Título' }, { timeout: 30000 });

/** The shortest valid item: a title, a page-view trigger and the selector. */
async function fillRequired(title: string) {
  await opened();
  fill('Título', title);
  await pick('Comparação', 'Contém');
  await userEvent.type(screen.getByRole('combobox', { name: 'Páginas' }), '/produtos{enter}');
  fill('Seletor CSS do elemento', '#vitrine');
}

const creates = (calls: FetchCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.url.startsWith('/api/momentum/create'));

describe('/dcm/manager', { timeout: 120_000 }, () => {
  it('creates an Active item with a template through Últimos passos', async () => {
    const { router, calls } = renderPage(`/dcm/manager?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url, init) =>
        url === '/api/momentum/create' && init.method === 'POST'
          ? { body: { message: mm.created('dcm'), data: items[0] } }
          : undefined,
      ),
    });
    await fillRequired('Aviso de frete');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' });
    await userEvent.click(within(dialog).getByText('Template'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    // The alert template needs its message: shown, and nothing sent.
    expect(await within(dialog).findByText(fm.dcmMessageRequired)).toBeTruthy();
    expect(creates(calls)).toHaveLength(0);
    fill('Mensagem', 'Frete grátis hoje', dialog);
    expect(
      within(within(dialog).getByRole('img', { name: 'Pré-visualização da mensagem' })).getByText('Frete grátis hoje'),
    ).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(mm.created('dcm'))).toBeTruthy();
    const body = creates(calls)[0]?.json as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'dcm',
      domain_uuid: DOMAIN,
      momentum_title: 'Aviso de frete',
      status: 'Active',
      scheduled_at: null,
      worktime: null,
      channel_uuid: null,
    });
    const momentums = body.momentums as { type: string; values: Record<string, unknown>[] }[];
    expect(momentums.map((b) => b.type)).toEqual(['filter', 'trigger', 'dispatcher']);
    expect(momentums[1]!.values[0]).toMatchObject({ filter: 'pageview', comparation: 'contain', value: ['/produtos'] });
    expect(momentums[2]!.values[0]).toMatchObject({
      filter: 'CELL_DCM',
      dispatcher_type: 'template',
      template: 'alert',
      message: 'Frete grátis hoje',
      htmlElement: '#vitrine',
      tagBehavior: 'beforeend',
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dcm'), { timeout: 4000 });
  });

  it('sends nothing while the trigger lacks its comparison or a value', async () => {
    const { calls } = renderPage(`/dcm/manager?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await opened();
    fill('Título', 'Sem gatilho');
    fill('Seletor CSS do elemento', '#vitrine');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(mm.incomplete)).toBeTruthy();
    expect(screen.getByText(fm.pageviewComparation)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Últimos passos' })).toBeNull();

    await pick('Comparação', 'Contém');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(fm.valueRequired)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Últimos passos' })).toBeNull();
    expect(creates(calls)).toHaveLength(0);
  });

  it('shows the pt-BR messages of a bad selector, a bad count and a partial Cronograma', async () => {
    const { calls } = renderPage(`/dcm/manager?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await fillRequired('Inválido');
    fill('Seletor CSS do elemento', 'div >');
    fill('A página contém o elemento', '.1x');
    fill('Tempo de exibição (segundos)', '-5');
    fill('Exibições por visitante', 'duas');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Segunda' }));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(mm.incomplete)).toBeTruthy();
    expect(screen.getByText(fm.dcmSelectorInvalid)).toBeTruthy();
    expect(screen.getByText(fm.dcmContainSelectorInvalid)).toBeTruthy();
    expect(screen.getAllByText(fm.dcmNumberInvalid)).toHaveLength(2);
    expect(screen.getByText(mm.startRequired)).toBeTruthy();
    expect(screen.getByText(mm.stopRequired)).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Últimos passos' })).toBeNull();
    expect(creates(calls)).toHaveLength(0);
  });

  it('schedules: Paused with scheduled_at, and a complete Cronograma goes with it', async () => {
    const { calls } = renderPage(`/dcm/manager?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url, init) =>
        url === '/api/momentum/create' && init.method === 'POST'
          ? { body: { message: mm.created('dcm'), data: items[1] } }
          : undefined,
      ),
    });
    await fillRequired('Agendado');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Sábado' }));
    await pick('Início', '08:00');
    await pick('Fim', '18:00');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' });
    // Custom content needs code: the HTML, CSS and JavaScript editors are empty.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText(fm.dcmContentRequired)).toBeTruthy();
    await userEvent.click(within(dialog).getByText('Opt-in de push'));
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Agendamento' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(mm.created('dcm'))).toBeTruthy();
    const body = creates(calls)[0]?.json as Record<string, unknown>;
    expect(body.status).toBe('Paused');
    expect(typeof body.scheduled_at).toBe('string');
    expect(new Date(body.scheduled_at as string).getTime()).toBeGreaterThan(Date.now());
    expect(body.worktime).toEqual({ weekdays: [6], start_at: '08:00', stop_at: '18:00' });
    const dispatcher = (body.momentums as { values: Record<string, unknown>[] }[])[2]!.values[0];
    expect(dispatcher).toMatchObject({ dispatcher_type: 'optin', optin: 'topbox' });
  });

  it('edits a paused item: loaded, title and trigger locked, status kept', async () => {
    const paused = items[2]!;
    const { calls } = renderPage(`/dcm/manager?domain=${DOMAIN}&uuid=${paused.uuid}`, {
      session: true,
      fetch: serve((url, init) =>
        url === '/api/momentum/update' && init.method === 'PUT'
          ? { body: { message: mm.updated('dcm'), data: paused } }
          : undefined,
      ),
    });
    expect(await screen.findByRole('heading', { name: 'Editar conteúdo' }, { timeout: 15000 })).toBeTruthy();
    const title = screen.getByRole('textbox', { name: 'Título' }) as HTMLInputElement;
    expect(title.value).toBe('Convite pausado');
    expect(title.disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Seletor CSS do elemento' }) as HTMLInputElement).value).toBe(
      '#vitrine .produto',
    );
    expect((screen.getByRole('textbox', { name: 'Tempo de exibição (segundos)' }) as HTMLInputElement).value).toBe(
      '30',
    );
    fill('Seletor CSS do elemento', 'footer');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' });
    expect(within(dialog).getByText(/o status atual é mantido/)).toBeTruthy();
    expect(within(dialog).getByText(/HTML \(.+\), CSS \(.+\) em footer · afterbegin\./)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(mm.updated('dcm'))).toBeTruthy();
    const body = calls.find((c) => c.url === '/api/momentum/update')?.json as Record<string, unknown>;
    expect(body).toMatchObject({ uuid: paused.uuid, type: 'dcm' });
    expect(body.status).toBeUndefined();
    expect((body.momentums as { values: Record<string, unknown>[] }[])[2]!.values[0]).toMatchObject({
      htmlElement: 'footer',
      customHtml: '<div class="selo">Frete grátis</div>',
      timeout: 30,
    });
  });

  it('view-only shows the item with nothing editable and no Salvar', async () => {
    renderPage(`/dcm/manager?domain=${DOMAIN}&uuid=${items[0]!.uuid}&viewonly`, { session: true, fetch: serve() });
    expect(await screen.findByRole('heading', { name: 'Visualizar conteúdo' }, { timeout: 15000 })).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Seletor CSS do elemento' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Título' }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Salvar' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Voltar' })).toBeTruthy();
    const shown = screen.getByRole('region', { name: 'O que exibir' });
    expect(within(shown).getByText('Tags customizadas')).toBeTruthy();
    expect(within(shown).getByText(/HTML \(.+\), CSS \(.+\) em #vitrine \.produto · afterbegin\./)).toBeTruthy();
  });

  it('previews the custom HTML and CSS in a sandbox that runs no script and has no origin', async () => {
    renderPage(`/dcm/manager?domain=${DOMAIN}&uuid=${items[2]!.uuid}`, { session: true, fetch: serve() });
    const frame = (await screen.findByTitle(
      'Pré-visualização das tags customizadas',
      {},
      { timeout: 15000 },
    )) as HTMLIFrameElement;
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('sandbox')).not.toMatch(/allow-scripts|allow-same-origin/);
    const doc = frame.getAttribute('srcdoc') ?? '';
    expect(doc).toContain('<div class="selo">Frete grátis</div>');
    expect(doc).toContain('.selo{color:green}');
    expect(doc).toContain("default-src 'none'");
    // afterbegin puts the content before what the element already holds.
    expect(doc.indexOf('class="selo"')).toBeLessThan(doc.indexOf('gcd-existing">'));
    // A style that tries to close its tag cannot break out into the page.
    expect(previewDocument('', '</style><script>x()</script>', 'beforeend', '#a')).not.toContain('</style><script>');
  });
});
