import { momentumMessages as mm } from '@impeto/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';
import { TOUR_DONE_KEY } from './components/diagram-tour.tsx';

// React Flow measures with ResizeObserver and reads zoom from DOMMatrixReadOnly, which jsdom lacks.
beforeAll(() => {
  class ResizeObserverShim {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  globalThis.ResizeObserver ??= ResizeObserverShim as unknown as typeof ResizeObserver;
  class DOMMatrixReadOnlyShim {
    m22: number;
    constructor(transform?: string) {
      const scale = transform?.match(/scale\(([\d.]+)\)/)?.[1];
      this.m22 = scale ? Number(scale) : 1;
    }
  }
  (globalThis as { DOMMatrixReadOnly?: unknown }).DOMMatrixReadOnly ??= DOMMatrixReadOnlyShim;
});

const PUSH = '22222222-2222-4222-8222-222222222222';
const pushChannel = {
  uuid: PUSH,
  channel_type: 'CELL_NOTIFICATION',
  domain_uuid: DOMAIN,
  properties: {},
  updated_at: '2026-03-10T12:00:00.000Z',
  active: true,
};

function serve(extra?: FetchHandler): FetchHandler {
  return (url, init) => {
    const answer = extra?.(url, init);
    if (answer) return answer;
    if (url === `/api/domain/channels/${DOMAIN}`) return ok([pushChannel]);
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    return undefined;
  };
}

const ADD = /^Adicionar (Filtro|Gatilho|Canal|Final)$/;
const addButtons = () => screen.queryAllByRole('button', { name: ADD }).map((b) => b.textContent);
/** The input or text area of a labelled Mantine field (labels may also name wrappers). */
const field = (label: RegExp) => {
  const found = screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT' || el.tagName === 'TEXTAREA');
  if (!found) throw new Error(`no field ${label}`);
  return found;
};
const backToBlocks = () => userEvent.click(screen.getByRole('button', { name: 'Blocos' }));

beforeEach(() => {
  localStorage.setItem(TOUR_DONE_KEY, 'true');
});

describe('diagram editor', () => {
  it('offers only the next block: Filtro → Gatilho → Canal → Final, walking Passo 1–4', async () => {
    renderPage(`/momentum/diagram?domain=${DOMAIN}`, { session: true, fetch: serve() });
    expect((await screen.findByTestId('panel-heading', {}, { timeout: 15_000 })).textContent).toContain('Passo 1');
    expect(screen.getByText('Monte seu momentum')).toBeTruthy();

    const steps = [
      ['Adicionar Filtro', 'Passo 2'],
      ['Adicionar Gatilho', 'Passo 3'],
      ['Adicionar Canal', 'Passo 4'],
      ['Adicionar Final', 'Todos os blocos foram adicionados'],
    ] as const;
    for (const [button, heading] of steps) {
      expect(addButtons()).toEqual([button]);
      await userEvent.click(screen.getByRole('button', { name: button }));
      // The new block's form opens; back to the block list.
      await backToBlocks();
      expect(screen.getByTestId('panel-heading').textContent).toContain(heading);
    }
    expect(addButtons()).toEqual([]);
  });

  it('a campaign offers only Filtro, then Canal', async () => {
    renderPage(`/campaign/diagram?domain=${DOMAIN}`, { session: true, fetch: serve() });
    expect((await screen.findByTestId('panel-heading', {}, { timeout: 15_000 })).textContent).toContain('Passo 1');
    expect(screen.getByText('Monte sua campanha')).toBeTruthy();
    expect(addButtons()).toEqual(['Adicionar Filtro']);
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Filtro' }));
    await backToBlocks();
    expect(addButtons()).toEqual(['Adicionar Canal']);
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar Canal' }));
    await backToBlocks();
    expect(addButtons()).toEqual([]);
    expect(screen.getByTestId('panel-heading').textContent).toContain('Todos os blocos foram adicionados');
  });

  it('the push title counter turns yellow at 13 and red at 20; the message at 40 and 70 (A-1)', async () => {
    renderPage(`/momentum/diagram?domain=${DOMAIN}`, { session: true, fetch: serve() });
    for (const name of ['Adicionar Filtro', 'Adicionar Gatilho', 'Adicionar Canal']) {
      await userEvent.click(await screen.findByRole('button', { name }, { timeout: 15_000 }));
      if (name !== 'Adicionar Canal') await backToBlocks();
    }
    await userEvent.click(field(/^Canal/));
    await userEvent.click(await screen.findByRole('option', { name: 'Notificação push' }));

    const title = await waitFor(() => field(/^Título/));
    const counter = () => screen.getByTestId('counter-título');
    const type = (input: HTMLElement, length: number) =>
      fireEvent.change(input, { target: { value: 'a'.repeat(length) } });
    type(title, 12);
    expect(counter().getAttribute('data-level')).toBe('ok');
    expect(counter().textContent).toContain('12/25');
    type(title, 13);
    expect(counter().getAttribute('data-level')).toBe('warning');
    type(title, 19);
    expect(counter().getAttribute('data-level')).toBe('warning');
    type(title, 20);
    expect(counter().getAttribute('data-level')).toBe('danger');
    expect(title.getAttribute('maxLength')).toBe('25');

    const message = field(/^Mensagem/);
    const messageCounter = () => screen.getByTestId('counter-mensagem');
    type(message, 39);
    expect(messageCounter().getAttribute('data-level')).toBe('ok');
    type(message, 40);
    expect(messageCounter().getAttribute('data-level')).toBe('warning');
    type(message, 70);
    expect(messageCounter().getAttribute('data-level')).toBe('danger');
  });

  it('offers OneSignal and SMS when integrated: OneSignal asks both messages, SMS counts up to 160', async () => {
    const integrated = (channel_type: string, n: number) => ({
      ...pushChannel,
      uuid: `${n}${PUSH.slice(1)}`,
      channel_type,
    });
    renderPage(`/momentum/diagram?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url) =>
        url === `/api/domain/channels/${DOMAIN}`
          ? ok([pushChannel, integrated('ONE_SIGNAL', 3), integrated('ZENVIA', 4)])
          : undefined,
      ),
    });
    for (const name of ['Adicionar Filtro', 'Adicionar Gatilho', 'Adicionar Canal']) {
      await userEvent.click(await screen.findByRole('button', { name }, { timeout: 15_000 }));
      if (name !== 'Adicionar Canal') await backToBlocks();
    }
    await userEvent.click(field(/^Canal/));
    await userEvent.click(await screen.findByRole('option', { name: 'OneSignal' }));
    for (const label of [/^Título/, /^URL de destino/, /^Mensagem em português/, /^Mensagem em inglês/, /^Imagem/])
      expect(await waitFor(() => field(label))).toBeTruthy();

    await userEvent.click(field(/^Canal/));
    await userEvent.click(await screen.findByRole('option', { name: 'SMS (Zenvia)' }));
    const body = await waitFor(() => field(/^Texto do SMS/));
    fireEvent.change(body, { target: { value: 'a'.repeat(161) } });
    expect(await screen.findByText('161/160 caracteres')).toBeTruthy();
    expect(screen.getByText('A Zenvia envia até 160 caracteres por SMS; textos maiores são recusados.')).toBeTruthy();
  });

  it('without a title, saving warns and sends nothing; a draft then goes to /momentum/create', async () => {
    const { calls } = renderPage(`/momentum/diagram?domain=${DOMAIN}`, {
      session: true,
      fetch: serve((url) =>
        url === '/api/momentum/create'
          ? { body: { message: mm.draftSaved, data: { uuid: '33333333-3333-4333-8333-333333333333' } } }
          : undefined,
      ),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Salvar como' }, { timeout: 15_000 }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rascunho' }));
    expect(await screen.findByText(mm.titleRequired('momentum'))).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/momentum/create')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Editar título' }));
    const input = screen.getByRole('textbox', { name: 'Título' });
    await userEvent.clear(input);
    fireEvent.blur(input);
    expect(await screen.findByText('O título do Momentum não pode estar vazio.')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Editar título' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Título' }), 'Boas-vindas{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Salvar como' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rascunho' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/momentum/create')).toBe(true));
    const body = calls.find((c) => c.url === '/api/momentum/create')?.json;
    expect(body).toMatchObject({
      domain_uuid: DOMAIN,
      type: 'momentum',
      momentum_title: 'Boas-vindas',
      status: 'Draft',
      momentums: [],
      // The session's identity goes with the save (spec doc 2 §3.1); the server checks it against the token.
      company_uuid: COMPANY,
      user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
    });
    expect(await screen.findByText(mm.draftSaved)).toBeTruthy();
  });

  it('an item opened with a push title over 25 shows the counter red and does not save (A-1)', async () => {
    const ID = '44444444-4444-4444-8444-444444444444';
    const longTitle = 'Um título bem mais longo que vinte e cinco';
    const item = {
      uuid: ID,
      company_uuid: COMPANY,
      domain_uuid: DOMAIN,
      user_uuid: 'u',
      type: 'campaign',
      momentum_title: 'Campanha longa',
      momentum_description: null,
      status: 'Draft',
      active: false,
      scheduled_at: null,
      channel_uuid: PUSH,
      channels: { channel_type: 'CELL_NOTIFICATION' },
      momentums: [
        { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] },
        {
          type: 'dispatcher',
          values: [
            {
              filter: 'CELL_NOTIFICATION',
              name: 'n',
              title: longTitle,
              message: 'm',
              icon_uri: 'https://loja.example.com/i.png',
              image: '',
              redirect_uri: 'https://loja.example.com/',
              intervalRecurrency: [],
            },
          ],
        },
      ],
      worktime: null,
      created_at: '2026-03-10T12:00:00.000Z',
      updated_at: '2026-03-10T12:00:00.000Z',
    };
    const { calls } = renderPage(`/campaign/diagram?domain=${DOMAIN}&id=${ID}`, {
      session: true,
      fetch: serve((url) => (url === `/api/momentum/list?id=${ID}` ? ok(item) : undefined)),
    });
    expect(await screen.findByText('Editando', {}, { timeout: 15_000 })).toBeTruthy();
    expect(screen.getByTestId('panel-heading').textContent).toContain('Todos os blocos foram adicionados');
    await userEvent.click(screen.getByRole('button', { name: 'Editar Canal' }));
    expect(screen.getByTestId('counter-título').getAttribute('data-level')).toBe('danger');
    expect(screen.getByTestId('counter-título').textContent).toContain(`${longTitle.length}/25`);

    await userEvent.click(screen.getByRole('button', { name: 'Salvar como' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Imediato' }));
    expect((await screen.findAllByText(/no máximo 25 caracteres/)).length).toBeGreaterThan(0);
    expect(calls.some((c) => c.url === '/api/momentum/update')).toBe(false);
  });

  it('view mode is read-only: no add buttons, no save menu, an OK button', async () => {
    const ID = '55555555-5555-4555-8555-555555555555';
    const item = {
      uuid: ID,
      company_uuid: COMPANY,
      domain_uuid: DOMAIN,
      user_uuid: 'u',
      type: 'momentum',
      momentum_title: 'Só leitura',
      momentum_description: 'Descrição',
      status: 'Active',
      active: true,
      scheduled_at: null,
      channel_uuid: null,
      channels: null,
      momentums: [{ type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] }],
      worktime: null,
      created_at: '2026-03-10T12:00:00.000Z',
      updated_at: '2026-03-10T12:00:00.000Z',
    };
    renderPage(`/momentum/diagram?domain=${DOMAIN}&id=${ID}&view=1`, {
      session: true,
      fetch: serve((url) => (url === `/api/momentum/list?id=${ID}` ? ok(item) : undefined)),
    });
    const panel = await screen.findByTestId('panel-heading', {}, { timeout: 15_000 });
    expect(within(panel.parentElement as HTMLElement).getByText('Visualizar')).toBeTruthy();
    expect(addButtons()).toEqual([]);
    expect(screen.queryByRole('button', { name: 'Salvar como' })).toBeNull();
    expect(screen.getByRole('link', { name: 'OK' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar título' })).toBeNull();
  });

  it('the first-time tour shows for a new momentum and, once skipped, never again', async () => {
    localStorage.removeItem(TOUR_DONE_KEY);
    const first = renderPage(`/momentum/diagram?domain=${DOMAIN}`, { session: true, fetch: serve() });
    expect(await screen.findByText('Passo 1 de 6', {}, { timeout: 15_000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Próximo' }));
    expect(await screen.findByText('Passo 2 de 6')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Pular tour' }));
    await waitFor(() => expect(screen.queryByText(/de 6$/)).toBeNull());
    expect(localStorage.getItem(TOUR_DONE_KEY)).toBe('true');
    first.unmount();

    renderPage(`/momentum/diagram?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await screen.findByTestId('panel-heading', {}, { timeout: 15_000 });
    expect(screen.queryByText('Passo 1 de 6')).toBeNull();
  });
});

// Issue #29: what a marketer still tripped over in the diagram.
describe('diagram editor, issue #29', () => {
  const ID = '66666666-6666-4666-8666-666666666666';
  const pushValues = {
    filter: 'CELL_NOTIFICATION',
    name: 'Carrinho',
    title: 'Esqueceu algo?',
    message: 'Seu carrinho espera por você.',
    icon_uri: 'https://loja.example.com/i.png',
    image: '',
    redirect_uri: 'https://loja.example.com/carrinho',
    intervalRecurrency: [],
  };
  const itemOf = (overrides: Record<string, unknown> = {}) => ({
    uuid: ID,
    company_uuid: COMPANY,
    domain_uuid: DOMAIN,
    user_uuid: 'u',
    type: 'momentum',
    momentum_title: 'Carrinho abandonado',
    momentum_description: null,
    status: 'Draft',
    active: false,
    scheduled_at: null,
    channel_uuid: PUSH,
    channels: { channel_type: 'CELL_NOTIFICATION' },
    momentums: [
      { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] },
      {
        type: 'trigger',
        regex: false,
        values: [{ filter: 'pageview', comparation: 'contain', value: ['/carrinho'], dischargeIn: [] }],
      },
      { type: 'dispatcher', values: [pushValues] },
    ],
    worktime: null,
    created_at: '2026-03-10T12:00:00.000Z',
    updated_at: '2026-03-10T12:00:00.000Z',
    ...overrides,
  });

  it("Imediato on a draft shows the success toast and lands on the list without 'em andamento'", async () => {
    let stored = itemOf();
    const { calls, ...view } = renderPage(`/momentum/diagram?domain=${DOMAIN}&id=${ID}`, {
      session: true,
      fetch: serve((url, init) => {
        if (url === `/api/momentum/list?id=${ID}`) return ok(stored);
        if (url === '/api/momentum/update' && init.method === 'PUT') {
          stored = itemOf({ status: 'Active', active: true });
          return { body: { message: mm.updated('momentum'), data: stored } };
        }
        return undefined;
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Salvar como' }, { timeout: 15_000 }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Imediato' }));
    expect(await screen.findByText(mm.updated('momentum'))).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/momentum/update')).toHaveLength(1);
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/v2/momentums'), { timeout: 15_000 });
    expect((view.router.state.location.state as { error?: string } | null)?.error).toBeUndefined();
    expect(screen.queryByText(mm.editActive)).toBeNull();
    expect(calls.filter((c) => c.url === '/api/momentum/update')).toHaveLength(1);
  });

  it('a draft with a half-filled channel is not saved: the warning names the block and what it lacks', async () => {
    const { calls } = renderPage(`/momentum/diagram?domain=${DOMAIN}&id=${ID}`, {
      session: true,
      fetch: serve((url) => {
        if (url === `/api/momentum/list?id=${ID}`) return ok(itemOf({ momentums: itemOf().momentums.slice(0, 2) }));
        if (url === '/api/momentum/update') return { body: { message: mm.draftUpdated, data: itemOf() } };
        return undefined;
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Adicionar Canal' }, { timeout: 15_000 }));
    await userEvent.click(field(/^Canal/));
    await userEvent.click(await screen.findByRole('option', { name: 'Notificação push' }));
    fireEvent.change(await waitFor(() => field(/^Título/)), { target: { value: 'Só o título' } });
    await backToBlocks();

    await userEvent.click(screen.getByRole('button', { name: 'Salvar como' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rascunho' }));
    expect(
      await screen.findByText(
        'O bloco Canal está incompleto: falta Nome da notificação, Mensagem, URL do ícone, URL de redirecionamento. Complete-o ou remova-o para salvar o rascunho.',
      ),
    ).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/momentum/update')).toBe(false);
    // The block opens with its missing fields marked.
    expect(field(/^Mensagem/).getAttribute('aria-invalid')).toBe('true');
  });

  it("an item stored without channel_uuid (the demo's) opens with its channel chosen by type and saves it", async () => {
    const stored = itemOf({ status: 'Paused', scheduled_at: '2099-01-05T12:00:00.000Z', channel_uuid: null });
    const { calls } = renderPage(`/momentum/diagram?domain=${DOMAIN}&id=${ID}`, {
      session: true,
      fetch: serve((url) => {
        if (url === `/api/momentum/list?id=${ID}`) return ok(stored);
        if (url === '/api/momentum/update') return { body: { message: mm.updated('momentum'), data: stored } };
        return undefined;
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Editar Canal' }, { timeout: 15_000 }));
    await waitFor(() => expect((field(/^Canal/) as HTMLInputElement).value).toBe('Notificação push'));
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(calls.some((c) => c.url === '/api/momentum/update')).toBe(true));
    expect(calls.find((c) => c.url === '/api/momentum/update')?.json).toMatchObject({ channel_uuid: PUSH });
  });

  it("leaving with unsaved changes asks 'Descartar alterações?'; beforeunload asks the browser too", async () => {
    const view = renderPage(`/momentum/diagram?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await userEvent.click(await screen.findByRole('button', { name: 'Adicionar Filtro' }, { timeout: 15_000 }));

    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    await userEvent.click(screen.getByRole('link', { name: 'Voltar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Descartar alterações?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Continuar editando' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Descartar alterações?' })).toBeNull());
    expect(view.router.state.location.pathname).toBe('/momentum/diagram');

    await userEvent.click(screen.getByRole('link', { name: 'Voltar' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Descartar alterações?' })).getByRole('button', {
        name: 'Descartar',
      }),
    );
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/v2/momentums'));
  });

  it('an untouched diagram leaves at once and lets the page unload', async () => {
    const view = renderPage(`/momentum/diagram?domain=${DOMAIN}`, { session: true, fetch: serve() });
    await screen.findByTestId('panel-heading', {}, { timeout: 15_000 });
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(false);
    await userEvent.click(screen.getByRole('link', { name: 'Voltar' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/v2/momentums'));
    expect(screen.queryByRole('dialog', { name: 'Descartar alterações?' })).toBeNull();
  });
});

describe('diagram finish, issue #29', () => {
  it('a finish day picked without a time ends at 23:45 of that day, and the form says so', async () => {
    renderPage(`/momentum/diagram?domain=${DOMAIN}`, { session: true, fetch: serve() });
    for (const name of ['Adicionar Filtro', 'Adicionar Gatilho', 'Adicionar Canal', 'Adicionar Final']) {
      await userEvent.click(await screen.findByRole('button', { name }, { timeout: 15_000 }));
      if (name !== 'Adicionar Final') await backToBlocks();
    }
    expect(screen.getByText('Sem horário escolhido, vale o fim do dia: 23:45.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /^Data de finalização/ }));
    const calendar = await screen.findByRole('dialog');
    const next = calendar.querySelector('button[data-direction="next"]') as HTMLElement;
    await userEvent.click(next);
    const days = within(calendar)
      .getAllByRole('button')
      .filter((b) => /^\d+ \S+ \d{4}$/.test(b.getAttribute('aria-label') ?? '') && !b.hasAttribute('data-outside'));
    const day = days[9] as HTMLElement;
    await userEvent.click(day);
    await userEvent.click(calendar.querySelector('.mantine-DateTimePicker-submitButton') as HTMLElement);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Data de finalização/ }).textContent).toMatch(/ - 23:45$/),
    );
  });
});
