import { momentumMessages as mm } from '@impeto/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';
import { TOUR_DONE_KEY } from './components/diagram-tour.tsx';
import { fromGraphSteps, toGraph } from './graph.ts';

/* A/B variants on a journey step's message in the diagram (issue #26 with #25): the panel's 'Teste A/B', save, reopen. */

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

const sms = (body: string) => ({ filter: 'ZENVIA', body, intervalRecurrency: [] });
const abStep = {
  wait: { amount: 1, unit: 'days' },
  condition: { kind: 'not_converted' },
  values: [sms('Variante A: volte')],
  variants: [
    { name: 'A', weight: 60, values: [sms('Variante A: volte')] },
    { name: 'B', weight: 40, values: [sms('Variante B: cupom VOLTA10')] },
  ],
};

describe('journey step variants in the diagram', () => {
  it('toGraph / fromGraphSteps keep a step’s variants on its message node', () => {
    const blocks = itemOf().momentums as never;
    const graph = toGraph(blocks, { steps: [abStep, steps[1]] as never });
    expect(fromGraphSteps(graph)).toEqual([abStep, steps[1]]);
  });

  it('a stored step with variants shows them; the panel has Teste A/B without a control group; saved unchanged', async () => {
    const bodies: Record<string, unknown>[] = [];
    open(
      () => itemOf({ steps: [abStep], exit: { on_conversion: true, on_opt_out: false } }),
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    await waitFor(() => expect(within(card).getByTestId('panel-step-1').textContent).not.toContain('Incompleto'));
    expect(within(card).getByTestId('panel-step-1').textContent).toContain(
      'Esperar 1 dia → Não converteu → SMS (Zenvia): Variante A: volte · Teste A/B: 2 variantes',
    );
    await userEvent.click(within(card).getByRole('button', { name: 'Editar Etapa 1' }));
    await userEvent.click(screen.getByRole('radio', { name: /Mensagem/ }));
    const section = await screen.findByRole('region', { name: 'Teste A/B' });
    expect(within(section).getByRole('switch', { name: /Testar variantes da mensagem/ })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(section).getByRole('textbox', { name: 'Parcela da variante B' })).toHaveProperty('value', '40 %');
    expect(within(section).queryByRole('textbox', { name: /Grupo de controle/ })).toBeNull();
    // Variant B's tab shows its own message.
    await userEvent.click(screen.getByRole('tab', { name: /B/ }));
    expect(screen.getByDisplayValue('Variante B: cupom VOLTA10')).toBeTruthy();

    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]!.steps).toEqual([abStep]);
  });

  it('turning the test on gives B a copy of A at 50/50, edited on its own tab', async () => {
    const bodies: Record<string, unknown>[] = [];
    const plain = { ...abStep, variants: undefined };
    open(
      () => itemOf({ steps: [plain] }),
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Editar Etapa 1' }));
    await userEvent.click(screen.getByRole('radio', { name: /Mensagem/ }));
    const section = await screen.findByRole('region', { name: 'Teste A/B' });
    await userEvent.click(within(section).getByRole('switch', { name: /Testar variantes da mensagem/ }));
    await userEvent.click(screen.getByRole('tab', { name: /B/ }));
    fireEvent.change(screen.getByRole('textbox', { name: /^Texto do SMS/ }), { target: { value: 'Última chance' } });
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect((bodies[0]!.steps as { variants: unknown }[])[0]!.variants).toEqual([
      { name: 'A', weight: 50, values: [sms('Variante A: volte')] },
      { name: 'B', weight: 50, values: [sms('Última chance')] },
    ]);
  });
});
