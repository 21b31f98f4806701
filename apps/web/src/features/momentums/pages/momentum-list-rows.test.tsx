import type { MomentumItem } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, ok, phoneViewport, renderPage } from '../../../test/render-page.tsx';

/** Issue #29: what a row says about failures, Iniciar on finished rows, the tab title and the phone layout. */
const past = new Date(Date.now() - 2 * 86400_000).toISOString();
const future = new Date(Date.now() + 5 * 86400_000).toISOString();
const blocks = (finish?: string) => [
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
        redirect_uri: 'https://loja.example.com/carrinho',
        intervalRecurrency: [],
      },
    ],
  },
  ...(finish ? [{ type: 'finish', values: [{ type: 'finish', filter: 'stop_momentum', value: finish }] }] : []),
];
let n = 0;
const item = (title: string, status: MomentumItem['status'], extra: Partial<MomentumItem> = {}): MomentumItem =>
  ({
    uuid: `bbbbbbbb-bbbb-4bbb-8bbb-${String(++n).padStart(12, '0')}`,
    company_uuid: COMPANY,
    domain_uuid: DOMAIN,
    user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
    type: 'momentum',
    momentum_title: title,
    momentum_description: null,
    status,
    active: status === 'Active',
    scheduled_at: null,
    channel_uuid: null,
    channels: { channel_type: 'CELL_NOTIFICATION' },
    momentums: blocks(),
    worktime: null,
    created_at: '2026-03-10T12:00:00.000Z',
    updated_at: '2026-03-11T12:00:00.000Z',
    ...extra,
  }) as MomentumItem;

const list = (items: MomentumItem[], type = 'momentum') => ({
  [`/api/momentum/list/${DOMAIN}?type=${type}`]: ok(items),
});

const failedAll = item('Tudo falhou', 'Active', {
  deliveries: { waiting: 0, sent: 0, viewed: 0, clicked: 0, failed: 4 },
});
const finishedPast = item('Terminou ontem', 'Done', { momentums: blocks(past) as MomentumItem['momentums'] });
const finishedFuture = item('Concluído cedo', 'Done', { momentums: blocks(future) as MomentumItem['momentums'] });
const paused = item('Pausado', 'Paused', {
  deliveries: { waiting: 2, sent: 1250, viewed: 640, clicked: 87, failed: 3 },
});

describe('momentum list rows', () => {
  it('shows failed deliveries on the row itself, not only in a tooltip', async () => {
    renderPage(`/v2/momentums?domain=${DOMAIN}`, { session: true, fetch: list([failedAll, paused]) });
    const row = (await screen.findByText('Tudo falhou', undefined, { timeout: 8000 })).closest('tr')!;
    expect(within(row).getByText('4 falhas')).toBeTruthy();
    const other = screen.getByText('Pausado', { selector: 'p' }).closest('tr')!;
    expect(within(other).getByText('3 falhas')).toBeTruthy();
  });

  it("does not offer 'Iniciar' on a finished row whose finish date has passed (the server refuses it)", async () => {
    renderPage(`/v2/momentums?domain=${DOMAIN}`, { session: true, fetch: list([finishedPast, finishedFuture]) });
    await screen.findByText('Terminou ontem', undefined, { timeout: 8000 });
    expect(screen.queryByRole('button', { name: 'Iniciar Terminou ontem' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Visualizar Terminou ontem' })).toBeTruthy();
    // Done before its finish date (READINGS A-32): it may start again.
    expect(screen.getByRole('button', { name: 'Iniciar Concluído cedo' })).toBeTruthy();
  });

  it("names the browser tab 'Momentum' and 'Campanha' (spec doc 2 §2.1)", async () => {
    const { router } = renderPage(`/v2/momentums?domain=${DOMAIN}`, {
      session: true,
      fetch: { ...list([]), ...list([], 'campaign') },
    });
    await waitFor(() => expect(document.title).toBe('Momentum · Ímpeto'), { timeout: 8000 });
    await router.navigate(`/v2/campaigns?domain=${DOMAIN}`);
    await waitFor(() => expect(document.title).toBe('Campanha · Ímpeto'), { timeout: 8000 });
  });

  it('on a phone, lists each item with its status, schedule and figures instead of a cut table', async () => {
    phoneViewport();
    renderPage(`/v2/momentums?domain=${DOMAIN}`, { session: true, fetch: list([paused, failedAll]) });
    const items = await screen.findByRole('list', { name: 'Momentums' }, { timeout: 8000 });
    expect(screen.queryByRole('table')).toBeNull();
    const card = within(items).getByRole('listitem', { name: 'Pausado' });
    expect(within(card).getByText('Pausado', { selector: '.mantine-Badge-label' })).toBeTruthy();
    expect(within(card).getByText('1.250')).toBeTruthy();
    expect(within(card).getByText('87')).toBeTruthy();
    expect(within(card).getByText('3 falhas')).toBeTruthy();
    expect(within(card).getByText('CELL')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Iniciar Pausado' })).toBeTruthy();
    expect(within(items).getByRole('listitem', { name: 'Tudo falhou' })).toBeTruthy();
  });
});
