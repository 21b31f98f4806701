import { momentumMessages } from '@impeto/shared';
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, type FetchHandler, ok, renderPage, USER } from '../../../test/render-page.tsx';

const CHANNEL = '22222222-2222-4222-8222-222222222222';
const future = new Date(Date.now() + 3 * 86400_000).toISOString();
const blocks = [
  { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] },
  {
    type: 'trigger',
    regex: false,
    values: [{ filter: 'pageview', comparation: 'contain', value: ['/carrinho'], dischargeIn: [] }],
  },
  {
    type: 'dispatcher',
    values: [
      {
        filter: 'CELL_NOTIFICATION',
        name: 'Carrinho',
        title: 'Esqueceu algo?',
        message: 'Seu carrinho está esperando.',
        icon_uri: 'https://loja.example.com/icon.png',
        image: '',
        redirect_uri: 'https://loja.example.com/carrinho',
        intervalRecurrency: [],
      },
    ],
  },
];
let n = 0;
const item = (momentum_title: string, status: string, scheduled_at: string | null = null) => ({
  uuid: `aaaaaaaa-aaaa-4aaa-8aaa-${String(++n).padStart(12, '0')}`,
  company_uuid: COMPANY,
  domain_uuid: DOMAIN,
  user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  type: 'momentum',
  momentum_title,
  momentum_description: null,
  status,
  active: status === 'Active',
  scheduled_at,
  channel_uuid: CHANNEL,
  channels: { channel_type: 'CELL_NOTIFICATION' },
  momentums: blocks,
  worktime: null,
  created_at: '2026-03-10T12:00:00.000Z',
  updated_at: '2026-03-11T12:00:00.000Z',
});
const items = [
  {
    ...item('Ativo A', 'Active'),
    deliveries: { waiting: 3, sent: 1250, viewed: 640, clicked: 87, failed: 2 },
  },
  item('Agendado B', 'Paused', future),
  item('Pausado C', 'Paused'),
  item('Rascunho D', 'Draft'),
  item('Removido E', 'Deleted'),
  item('Concluído F', 'Done'),
];

function serve(extra?: FetchHandler): FetchHandler {
  return (url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url === `/api/momentum/list/${DOMAIN}?type=momentum`) return ok(items);
    if (url.startsWith('/api/momentum/list?id=')) {
      const found = items.find((i) => url.endsWith(i.uuid));
      return found ? ok(found) : undefined;
    }
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    if (url === `/api/domain/channels/${DOMAIN}`)
      return {
        body: {
          message: 'ok',
          data: [
            { uuid: CHANNEL, channel_type: 'CELL_NOTIFICATION', domain_uuid: DOMAIN, properties: {}, active: true },
          ],
        },
      };
    return undefined;
  };
}

const tab = (name: string) => screen.getByRole('tab', { name: new RegExp(`^${name}`) });

describe('momentum list', { timeout: 30_000 }, () => {
  it('counts every tab as the rows it lists, Paused with a schedule as Agendado', async () => {
    renderPage(`/v2/momentums?domain=${DOMAIN}`, { session: true, fetch: serve() });
    expect(await screen.findByText('Ativo A', {}, { timeout: 15000 })).toBeTruthy();
    const expected = { Todos: 5, Ativos: 1, Agendados: 1, Pausados: 1, Rascunhos: 1, Removidos: 1, Concluídos: 1 };
    for (const [name, count] of Object.entries(expected))
      expect(within(tab(name)).getByText(String(count))).toBeTruthy();
    const scheduledRow = screen.getByText('Agendado B').closest('tr') as HTMLElement;
    expect(within(scheduledRow).getByText('Agendado')).toBeTruthy();
    expect(within(scheduledRow).getByText('3d')).toBeTruthy();
    expect(within(scheduledRow).getByText('CELL')).toBeTruthy();
    expect(screen.queryByText('Removido E')).toBeNull();
    // What the engine did with the active one, under its title; nothing under items that sent nothing.
    const activeRow = screen.getByText('Ativo A').closest('tr') as HTMLElement;
    expect(
      within(activeRow).getByLabelText('Mensagens: 1.250 enviadas, 640 vistas, 87 cliques, 3 aguardando; 2 com falha'),
    ).toBeTruthy();
    expect(within(scheduledRow).queryByLabelText(/^Mensagens:/)).toBeNull();

    await userEvent.click(tab('Agendados'));
    expect(screen.getAllByRole('row')).toHaveLength(2);
    expect(screen.getByText('Agendado B')).toBeTruthy();
    await userEvent.click(tab('Removidos'));
    expect(screen.getByText('Removido E')).toBeTruthy();
  });

  it('offers the actions of each status', async () => {
    const { router } = renderPage(`/v2/momentums?domain=${DOMAIN}&tab=todos`, { session: true, fetch: serve() });
    await screen.findByText('Ativo A', {}, { timeout: 15000 });
    const has = (label: string) => screen.queryByRole('button', { name: label }) !== null;
    expect([has('Pausar Ativo A'), has('Iniciar Ativo A'), has('Visualizar Ativo A'), has('Editar Ativo A')]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    expect([has('Pausar Agendado B'), has('Iniciar Agendado B')]).toEqual([false, true]);
    expect([has('Pausar Pausado C'), has('Iniciar Pausado C')]).toEqual([false, true]);
    expect([
      has('Pausar Rascunho D'),
      has('Iniciar Rascunho D'),
      has('Editar Rascunho D'),
      has('Remover Rascunho D'),
    ]).toEqual([false, false, true, true]);
    expect(has('Iniciar Concluído F')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Editar Ativo A' }));
    expect(await screen.findByText(momentumMessages.editActive)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/v2/momentums');

    await userEvent.click(tab('Removidos'));
    const deletedRow = screen.getByText('Removido E').closest('tr') as HTMLElement;
    expect(within(deletedRow).queryAllByRole('button')).toHaveLength(0);
  });

  it('asks before removing, naming the title', async () => {
    const { calls } = renderPage(`/v2/momentums?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((_url, init) =>
        init.method === 'DELETE' ? { body: { message: momentumMessages.removed, data: null } } : undefined,
      ),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Remover Pausado C' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Pausado C')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByText(momentumMessages.removed)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith(items[2]!.uuid))).toBe(true);
  });
});

const finishAt = (() => {
  const at = new Date(Date.now() + 5 * 86400_000);
  at.setUTCHours(18, 0, 0, 0);
  return at.toISOString();
})();
const withWorktime = {
  ...item('Com cronograma G', 'Paused'),
  worktime: { weekdays: [1, 2], start_at: '09:00', stop_at: '18:00', end_date: finishAt },
  momentums: [...blocks, { type: 'finish', values: [{ type: 'finish', filter: 'stop_momentum', value: finishAt }] }],
};

describe('momentum form details (issue #14)', { timeout: 30_000 }, () => {
  it('sends the session company and user, and the finish date as the worktime end_date (spec doc 2 §3.1)', async () => {
    const { calls } = renderPage(`/v2/momentum/create?domain=${DOMAIN}&uuid=${withWorktime.uuid}`, {
      session: true,
      fetch: serve((url, init) => {
        if (url === `/api/momentum/list?id=${withWorktime.uuid}`) return ok(withWorktime);
        if (url === '/api/momentum/update' && init.method === 'PUT')
          return { body: { message: momentumMessages.updated('momentum'), data: withWorktime } };
        return undefined;
      }),
    });
    expect(await screen.findByDisplayValue('Com cronograma G', {}, { timeout: 15000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(momentumMessages.updated('momentum'))).toBeTruthy();
    const body = calls.find((c) => c.url === '/api/momentum/update')?.json as Record<string, unknown>;
    expect(body).toMatchObject({
      company_uuid: COMPANY,
      user_uuid: USER,
      worktime: { weekdays: [1, 2], start_at: '09:00', stop_at: '18:00', end_date: finishAt },
    });
  });

  it("a server error shows the spec's save failure, never the server's text (spec doc 2 §8)", async () => {
    renderPage(`/v2/momentum/create?domain=${DOMAIN}&id=${items[2]!.uuid}`, {
      session: true,
      fetch: serve((url, init) =>
        url === '/api/momentum/update' && init.method === 'PUT'
          ? { status: 500, body: { message: 'Falha interna XYZ', code: 'INTERNAL' } }
          : undefined,
      ),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Seguir' }, { timeout: 15000 }));
    await userEvent.click(await screen.findByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(momentumMessages.saveFailed)).toBeTruthy();
    expect(screen.queryByText('Falha interna XYZ')).toBeNull();
  });

  it("an empty filter list shows the spec's 'Algo deu errado' instead of falling back silently", async () => {
    renderPage(`/v2/momentum/create?domain=${DOMAIN}`, { session: true, fetch: serve() });
    expect(await screen.findByText('Algo deu errado. Tente novamente mais tarde', {}, { timeout: 15000 })).toBeTruthy();
    notifications.clean();
  });

  it('keeps the available filters in session storage, one per key', async () => {
    const filter = { key: 'user_stored_data.navigator.browser', name: 'Navegador', mask: 'select' };
    renderPage(`/v2/momentum/create?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url) =>
        url === `/api/person/filter/${DOMAIN}`
          ? ok([{ key: 'all', name: 'Todos', mask: 'none' }, filter, filter])
          : undefined,
      ),
    });
    await screen.findByRole('button', { name: 'Seguir' }, { timeout: 15000 });
    await waitFor(() =>
      expect(JSON.parse(sessionStorage.getItem('impeto.filters') ?? 'null')).toEqual({
        [DOMAIN]: [{ key: 'all', name: 'Todos', mask: 'none' }, filter],
      }),
    );
    expect(screen.queryByText('Algo deu errado. Tente novamente mais tarde')).toBeNull();
  });
});

describe('momentum form', { timeout: 30_000 }, () => {
  it('warns on an empty Seguir', async () => {
    renderPage(`/v2/momentum/create?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await userEvent.click(await screen.findByRole('button', { name: 'Seguir' }, { timeout: 15000 }));
    expect(await screen.findByText(momentumMessages.incomplete)).toBeTruthy();
    expect(screen.getByText(momentumMessages.titleRequired('momentum'))).toBeTruthy();
    expect(screen.queryByText(/Resumo do momentum/)).toBeNull();
  });

  it('leaving a new form asks, and Sim saves a draft', async () => {
    const { router, calls } = renderPage(`/v2/momentum/create?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url, init) =>
        url === '/api/momentum/create' && init.method === 'POST'
          ? { body: { message: momentumMessages.draftSaved, data: items[3] } }
          : undefined,
      ),
    });
    const title = await screen.findByPlaceholderText('Ex.: Carrinho abandonado', {}, { timeout: 15000 });
    await userEvent.type(title, 'Meu rascunho');
    await userEvent.click(screen.getAllByRole('link', { name: 'Momentums' }).at(-1)!);
    const dialog = await screen.findByRole('dialog', { name: 'Gostaria de salvar como rascunho?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sim' }));
    expect(await screen.findByText(momentumMessages.draftSaved)).toBeTruthy();
    const body = calls.find((c) => c.url === '/api/momentum/create')?.json as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'Draft',
      type: 'momentum',
      momentum_title: 'Meu rascunho',
      domain_uuid: DOMAIN,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/v2/momentums'));
  });

  it('editing a Paused item locks the title and offers a single Salvar', async () => {
    const paused = items[2]!;
    const { calls } = renderPage(`/v2/momentum/create?domain=${DOMAIN}&id=${paused.uuid}`, {
      session: true,
      fetch: serve((url, init) =>
        url === '/api/momentum/update' && init.method === 'PUT'
          ? { body: { message: momentumMessages.updated('momentum'), data: paused } }
          : undefined,
      ),
    });
    const title = (await screen.findByPlaceholderText(
      'Ex.: Carrinho abandonado',
      {},
      { timeout: 15000 },
    )) as HTMLInputElement;
    expect(title.value).toBe('Pausado C');
    expect(title.disabled).toBe(true);
    expect(await screen.findByDisplayValue('Notificação push')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(await screen.findByText('Resumo do momentum')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Planejar campanha/ })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(momentumMessages.updated('momentum'))).toBeTruthy();
    const body = calls.find((c) => c.url === '/api/momentum/update')?.json as Record<string, unknown>;
    expect(body).toMatchObject({ uuid: paused.uuid, channel_uuid: CHANNEL });
    expect(body.status).toBeUndefined();
  });
});
