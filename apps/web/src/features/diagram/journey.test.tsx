import { momentumMessages as mm } from '@impeto/shared';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';
import { TOUR_DONE_KEY } from './components/diagram-tour.tsx';

/* Journeys in the diagram (issue #26): steps after the message block, the panel's editors, save and reopen. */

beforeAll(() => {
  class ResizeObserverShim {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  globalThis.ResizeObserver ??= ResizeObserverShim as unknown as typeof ResizeObserver;
  class DOMMatrixReadOnlyShim {
    m22 = 1;
  }
  (globalThis as { DOMMatrixReadOnly?: unknown }).DOMMatrixReadOnly ??= DOMMatrixReadOnlyShim;
});
beforeEach(() => {
  localStorage.setItem(TOUR_DONE_KEY, 'true');
});

const PUSH = '22222222-2222-4222-8222-222222222222';
const SMS = '33333333-3333-4333-8333-333333333333';
const ID = '77777777-7777-4777-8777-777777777777';
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
const smsValues = { filter: 'ZENVIA', body: 'Cupom VOLTA10 no seu carrinho', intervalRecurrency: [] };
const steps = [
  { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [smsValues] },
  {
    wait: { amount: 3, unit: 'hours', worktime: true },
    condition: { kind: 'viewed_page', comparation: 'contain', value: ['/checkout'] },
    values: [pushValues],
    otherwise: [smsValues],
  },
];
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
  experiment: null,
  created_at: '2026-03-10T12:00:00.000Z',
  updated_at: '2026-03-10T12:00:00.000Z',
  ...overrides,
});

function open(stored: () => unknown, onSave: (body: Record<string, unknown>) => void, view = false) {
  const serve: FetchHandler = (url, init) => {
    if (url === `/api/domain/channels/${DOMAIN}`)
      return ok([
        { uuid: PUSH, channel_type: 'CELL_NOTIFICATION', domain_uuid: DOMAIN, properties: {}, active: true },
        { uuid: SMS, channel_type: 'ZENVIA', domain_uuid: DOMAIN, properties: {}, active: true },
      ]);
    if (url === `/api/person/filter/${DOMAIN}`) return ok([]);
    if (url === `/api/momentum/list?id=${ID}`) return ok(stored());
    if (url === '/api/momentum/update' && init.method === 'PUT') {
      onSave(JSON.parse(String(init.body)));
      return { body: { message: mm.draftUpdated, data: stored() } };
    }
    return undefined;
  };
  return renderPage(`/momentum/diagram?domain=${DOMAIN}&id=${ID}${view ? '&view=1' : ''}`, {
    session: true,
    fetch: serve,
  });
}
const saveDraft = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Salvar como' }));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Rascunho' }));
};
const journeyCard = () => screen.findByTestId('panel-journey', {}, { timeout: 15_000 });

describe('diagram journey (issue #26)', () => {
  it('a stored journey draws its steps in run order, the split side by side, and saves back unchanged', async () => {
    const bodies: Record<string, unknown>[] = [];
    open(
      () => itemOf({ steps, exit: { on_conversion: true, on_opt_out: false } }),
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    expect(within(card).getByText('2 etapas depois da primeira mensagem')).toBeTruthy();
    expect(within(card).getByTestId('panel-step-1').textContent).toContain(
      'Esperar 1 dia → Não converteu → SMS (Zenvia)',
    );
    expect(within(card).getByTestId('panel-step-2').textContent).toContain(
      'Esperar 3 horas (no horário de funcionamento) → Visualizou a página que contém “/checkout” → Notificação push: Esqueceu algo? → SMS (Zenvia)',
    );
    // The board: each step's wait, condition and message, and the split's 'senão' beside its message.
    for (const id of ['step-1-wait', 'step-1-condition', 'step-1-message', 'step-2-message', 'step-2-otherwise'])
      expect(screen.getByTestId(`diagram-node-${id}`)).toBeTruthy();
    // Once the domain's channels are read, the stored messages (channel type only) find their channel: complete.
    expect(
      await within(screen.getByTestId('diagram-node-step-2-otherwise')).findByText('Etapa 2 · senão'),
    ).toBeTruthy();
    expect(within(card).getByRole('checkbox', { name: /Converteu/ })).toHaveProperty('checked', true);

    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]!.steps).toEqual([
      { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [smsValues] },
      {
        wait: { amount: 3, unit: 'hours', worktime: true },
        condition: { kind: 'viewed_page', comparation: 'contain', value: ['/checkout'] },
        values: [expect.objectContaining({ filter: 'CELL_NOTIFICATION', title: 'Esqueceu algo?' })],
        otherwise: [smsValues],
      },
    ]);
    expect(bodies[0]!.exit).toEqual({ on_conversion: true, on_opt_out: false, filter: null });
  });

  it('adds a step with the panel, refuses it incomplete, and saves it with the exit rules; reopened it is the same', async () => {
    let stored = itemOf();
    const bodies: Record<string, unknown>[] = [];
    open(
      () => stored,
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    expect(within(card).getByText(/Mensagens de acompanhamento/)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Adicionar etapa' }));
    // The new step opens on its wait.
    expect(await screen.findByRole('heading', { name: 'Etapa 1 · Espera' })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Esperar' }), { target: { value: '2' } });
    await userEvent.click(screen.getByRole('radio', { name: /Condição/ }));
    expect(screen.getByDisplayValue('Não converteu')).toBeTruthy();
    // The message is empty: a draft with it is refused and the message opens.
    await saveDraft();
    expect(
      await screen.findByText(
        'A etapa 1 da jornada está incompleta: falta a mensagem. Complete-a ou remova-a para salvar.',
      ),
    ).toBeTruthy();
    expect(bodies).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'Etapa 1 · Mensagem' })).toBeTruthy();
    const field = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}`) });
    fireEvent.change(field('Nome da notificação'), { target: { value: 'Lembrete' } });
    fireEvent.change(field('Título'), { target: { value: 'Ainda pensando?' } });
    fireEvent.change(field('Mensagem'), { target: { value: 'Seu carrinho continua aqui' } });
    fireEvent.change(field('URL do ícone'), { target: { value: 'https://loja.example.com/i.png' } });
    fireEvent.change(field('URL de redirecionamento'), { target: { value: 'https://loja.example.com/carrinho' } });
    await userEvent.click(screen.getByRole('button', { name: 'Blocos' }));
    const exitCard = await journeyCard();
    await userEvent.click(within(exitCard).getByRole('checkbox', { name: /Descadastrou-se do canal/ }));
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    const sent = bodies[0]!;
    expect(sent.steps).toEqual([
      {
        wait: { amount: 2, unit: 'days' },
        condition: { kind: 'not_converted' },
        values: [expect.objectContaining({ filter: 'CELL_NOTIFICATION', title: 'Ainda pensando?' })],
      },
    ]);
    expect(sent.exit).toEqual({ on_conversion: true, on_opt_out: true, filter: null });

    cleanup();
    stored = itemOf({ steps: sent.steps, exit: sent.exit });
    open(
      () => stored,
      (body) => bodies.push(body),
    );
    const again = await journeyCard();
    expect(within(again).getByTestId('panel-step-1').textContent).toContain('Esperar 2 dias → Não converteu');
    expect(within(again).getByRole('checkbox', { name: /Descadastrou-se do canal/ })).toHaveProperty('checked', true);
    // Removing the only step of a stored journey ends it: `steps: []`.
    await userEvent.click(within(again).getByRole('button', { name: 'Editar Etapa 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remover Etapa 1' }));
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]!.steps).toEqual([]);
  });

  it('a split: the condition offers the other message, drawn as the step’s senão', async () => {
    const bodies: Record<string, unknown>[] = [];
    open(
      () => itemOf({ steps: steps.slice(0, 1) }),
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Editar Etapa 1' }));
    await userEvent.click(screen.getByRole('radio', { name: /Condição/ }));
    await userEvent.click(screen.getByRole('switch', { name: /Quem não atende recebe outra mensagem/ }));
    expect(await screen.findByTestId('diagram-node-step-1-otherwise')).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: /Senão/ }));
    expect(screen.getByRole('heading', { name: 'Etapa 1 · Senão' })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /^Texto do SMS/ }), { target: { value: 'Última chance' } });
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect((bodies[0]!.steps as { otherwise: unknown }[])[0]!.otherwise).toEqual([
      { filter: 'ZENVIA', body: 'Última chance', intervalRecurrency: [] },
    ]);
  });

  it('a momentum without steps sends no journey keys', async () => {
    const bodies: Record<string, unknown>[] = [];
    open(
      () => itemOf(),
      (body) => bodies.push(body),
    );
    await journeyCard();
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect('steps' in bodies[0]!).toBe(false);
    expect('exit' in bodies[0]!).toBe(false);
  });
});
