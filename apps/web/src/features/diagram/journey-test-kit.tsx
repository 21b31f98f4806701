import { momentumMessages as mm } from '@impeto/shared';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach } from 'vitest';
import { COMPANY, DOMAIN, type FetchHandler, ok, renderPage } from '../../test/render-page.tsx';
import { TOUR_DONE_KEY } from './components/diagram-tour.tsx';

/*
 * What the diagram's journey tests (issue #26) and its A/B test (issue #25) share: the canvas' browser shims, a stored
 * momentum, the page opened on it.
 */

/** React Flow needs ResizeObserver and DOMMatrixReadOnly, which jsdom lacks; the tour is marked seen. */
export function setUpDiagram() {
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
}

export const PUSH = '22222222-2222-4222-8222-222222222222';
export const SMS = '33333333-3333-4333-8333-333333333333';
export const ID = '77777777-7777-4777-8777-777777777777';
export const pushValues = {
  filter: 'CELL_NOTIFICATION',
  name: 'Carrinho',
  title: 'Esqueceu algo?',
  message: 'Seu carrinho espera por você.',
  icon_uri: 'https://loja.example.com/i.png',
  image: '',
  redirect_uri: 'https://loja.example.com/carrinho',
  intervalRecurrency: [],
};
export const smsValues = { filter: 'ZENVIA', body: 'Cupom VOLTA10 no seu carrinho', intervalRecurrency: [] };
export const steps = [
  { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [smsValues] },
  {
    wait: { amount: 3, unit: 'hours', worktime: true },
    condition: { kind: 'viewed_page', comparation: 'contain', value: ['/checkout'] },
    values: [pushValues],
    otherwise: [smsValues],
  },
];
export const itemOf = (overrides: Record<string, unknown> = {}) => ({
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

export function open(stored: () => unknown, onSave: (body: Record<string, unknown>) => void, view = false) {
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
export const saveDraft = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Salvar como' }));
  await userEvent.click(await screen.findByRole('menuitem', { name: 'Rascunho' }));
};
export const journeyCard = () => screen.findByTestId('panel-journey', {}, { timeout: 15_000 });
