import { dcmMessages as dm, filterMessages as fm, momentumMessages as mm } from '@impeto/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COMPANY, DOMAIN, type FetchCall, type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';

// Issue #29: what a marketer still tripped over in GCD.

const blocks = (dispatcher: Record<string, unknown> = {}) => [
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
        htmlElement: '#vitrine',
        tagBehavior: 'afterbegin',
        customHtml: '<div class="selo">Frete grátis</div>',
        intervalRecurrency: [],
        ...dispatcher,
      },
    ],
  },
];
const item = (uuid: string, status: string, extra: Record<string, unknown> = {}) => ({
  uuid,
  company_uuid: COMPANY,
  domain_uuid: DOMAIN,
  user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  type: 'dcm',
  momentum_title: 'Selo na vitrine',
  momentum_description: null,
  status,
  active: status === 'Active',
  scheduled_at: null,
  channel_uuid: null,
  channels: { channel_type: 'CELL_DCM' },
  momentums: blocks(),
  worktime: null,
  created_at: '2026-03-10T12:00:00.000Z',
  updated_at: '2026-03-11T12:00:00.000Z',
  ...extra,
});
const ACTIVE = 'cccccccc-cccc-4ccc-8ccc-000000000001';

const serve =
  (extra?: FetchHandler): FetchHandler =>
  (url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url === `/api/momentum/list/${DOMAIN}?type=dcm`) return ok([item(ACTIVE, 'Active')]);
    if (url === `/api/momentum/list?id=${ACTIVE}`) return ok(item(ACTIVE, 'Active'));
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    return undefined;
  };
const created: FetchHandler = (url, init) =>
  url === '/api/momentum/create' && init.method === 'POST'
    ? { body: { message: mm.created('dcm'), data: item(ACTIVE, 'Active') } }
    : undefined;
const creates = (calls: FetchCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/api/momentum/create');

const fill = (name: string, value: string, scope: HTMLElement = document.body) =>
  fireEvent.change(within(scope).getByRole('textbox', { name }), { target: { value } });

/** A title and a page-view trigger: what every GCD item needs before 'Últimos passos'. */
async function fillRule(title: string) {
  await screen.findByRole('textbox', { name: 'Título' }, { timeout: 30_000 });
  fill('Título', title);
  await userEvent.click(screen.getByRole('combobox', { name: 'Comparação' }));
  await userEvent.click(await screen.findByRole('option', { name: 'Contém' }));
  await userEvent.type(screen.getByRole('combobox', { name: 'Páginas' }), '/produtos{enter}');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('GCD manager, issue #29', { timeout: 120_000 }, () => {
  it("'Notificação push' previews a push, not the opt-in box", async () => {
    renderPage(`/dcm/manager?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await fillRule('Push de frete');
    fill('Seletor CSS do elemento', '#vitrine');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' });
    await userEvent.click(within(dialog).getByText('Notificação push'));
    fill('Título', 'Frete grátis hoje', dialog);
    const preview = within(dialog).getByRole('group', { name: 'Pré-visualização da notificação push' });
    expect(within(preview).getByText('Frete grátis hoje')).toBeTruthy();
    expect(within(dialog).queryByRole('img', { name: 'Pré-visualização do topbox' })).toBeNull();
    expect(within(dialog).queryByRole('img', { name: 'Pré-visualização do pedido do navegador' })).toBeNull();
  });

  it('a push needs no selector: saved with the element left empty', async () => {
    const { calls } = renderPage(`/dcm/manager?domain=${DOMAIN}`, { session: true, fetch: serve(created) });
    await fillRule('Push sem seletor');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' }, { timeout: 5000 });
    await userEvent.click(within(dialog).getByText('Notificação push'));
    fill('Título', 'Frete grátis hoje', dialog);
    fill('Mensagem', 'Em toda a loja, só hoje.', dialog);
    fill('Link (redirect_uri)', 'https://loja.example.com/ofertas', dialog);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(creates(calls)).toHaveLength(1));
    const body = creates(calls)[0]?.json as { momentums: { values: Record<string, unknown>[] }[] };
    expect(body.momentums[2]?.values[0]).toMatchObject({ dispatcher_type: 'notification', htmlElement: '' });
  });

  it('custom code still needs the selector, said on the Tags customizadas block', async () => {
    const { calls } = renderPage(`/dcm/manager?domain=${DOMAIN}`, { session: true, fetch: serve(created) });
    await fillRule('Código sem seletor');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' }, { timeout: 5000 });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(fm.dcmSelectorRequired)).toBeTruthy();
    expect(creates(calls)).toHaveLength(0);
  });

  it('the schedule offered is computed when Agendamento is chosen, not when the manager opened', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-20T12:05:00.000Z'));
    const { calls } = renderPage(`/dcm/manager?domain=${DOMAIN}`, { session: true, fetch: serve(created) });
    await fillRule('Agendado depois');
    fill('Seletor CSS do elemento', '#vitrine');
    fill('Título', 'Agendado depois');
    // The manager stayed open for two hours.
    vi.setSystemTime(new Date('2026-11-20T14:05:00.000Z'));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' }, { timeout: 5000 });
    await userEvent.click(within(dialog).getByText('Opt-in de push'));
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Agendamento' }));
    expect(within(dialog).getByRole('button', { name: /^Data e hora/ }).textContent).toContain('20/11/2026 - 11:15');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(creates(calls)).toHaveLength(1));
    expect(screen.queryByText(mm.schedulePast)).toBeNull();
    expect(creates(calls)[0]?.json).toMatchObject({ status: 'Paused', scheduled_at: '2026-11-20T14:15:00.000Z' });
  });

  it('speaks of the GCD, not of momentums: a running item, a refused save', async () => {
    const first = renderPage(`/dcm/manager?domain=${DOMAIN}&uuid=${ACTIVE}`, { session: true, fetch: serve() });
    expect(await screen.findByText(dm.editActive, {}, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/dcm'));
    first.unmount();

    renderPage(`/dcm/manager?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url) => {
        // No answer at all (the network dropped): the spec's save failure, in GCD words.
        if (url === '/api/momentum/create') throw new TypeError('Failed to fetch');
        return undefined;
      }),
    });
    await fillRule('Recusado');
    fill('Seletor CSS do elemento', '#vitrine');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Últimos passos' }, { timeout: 5000 });
    await userEvent.click(within(dialog).getByText('Opt-in de push'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(dm.saveFailed)).toBeTruthy();
  });
});

describe('Entregas of a GCD item, issue #29', () => {
  it("shows the item's showings and clicks, and goes back to /dcm", async () => {
    const stats = { shown: 1520, clicked: 48, missing: null };
    const { router } = renderPage(`/v2/deliveries?id=${ACTIVE}&domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url) => {
        if (url === `/api/momentum/list?id=${ACTIVE}`) return ok(item(ACTIVE, 'Active', { dcm_stats: stats }));
        if (url.startsWith(`/api/momentum/deliveries/${ACTIVE}`))
          return ok({ items: [], total: 0, page: 1, page_size: 50 });
        return undefined;
      }),
    });
    const summary = await screen.findByRole('group', { name: 'Exibições do conteúdo' }, { timeout: 15_000 });
    expect(within(summary).getByText('1.520')).toBeTruthy();
    expect(within(summary).getByText('48')).toBeTruthy();
    expect(screen.getByText(/Conteúdo do GCD/)).toBeTruthy();
    expect(screen.queryByText(/^Momentum Selo na vitrine/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dcm'));
  });
});

describe('/dcm, issue #29', () => {
  it('has no Rascunhos tab (a GCD item is Active or scheduled, never a draft)', async () => {
    renderPage(`/dcm?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await screen.findByText('Selo na vitrine', {}, { timeout: 15_000 });
    expect(screen.getByRole('tab', { name: /Todos/ })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: /Rascunhos/ })).toBeNull();
  });
});
