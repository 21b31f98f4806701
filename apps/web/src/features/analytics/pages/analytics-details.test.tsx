import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOMAIN, type FetchRequest, ok, phoneViewport, renderPage } from '../../../test/render-page.tsx';

/** Issue #29: dates on the performance table, a readable impact chart and table on a phone, pt-BR under the pages. */
const START = '2026-11-01';
const END = '2026-11-26';
const LONG = 'Carrinho abandonado há trinta minutos — lembrete com frete grátis';
const A = 'aaaaaaaa-aaaa-4aaa-8aaa-000000000001';
const B = 'aaaaaaaa-aaaa-4aaa-8aaa-000000000002';

const performanceRow = (uuid: string, title: string, sent: number) => ({
  momentum_uuid: uuid,
  momentum_title: title,
  type: 'momentum',
  notifications_sent: sent,
  notifications_viewed: Math.round(sent / 2),
  notifications_clicked: 7,
  notifications_ctr: 1.5,
  not_convertion: 2,
  not_convertion_profit: 120.5,
  not_cart_access: 3,
  not_cart_access_percent: 0.6,
});
const daily = (date: string, uuid: string, title: string, sent: number) => ({
  date,
  momentum_uuid: uuid,
  momentum_title: title,
  notifications_sent: sent,
  notifications_viewed: 1,
  notifications_clicked: 0,
});

function analytics(url: string, _init: FetchRequest) {
  const path = url.split('?')[0]!.replace(`/api/analytics/${DOMAIN}`, '');
  if (path === '/momentums/performance')
    return ok([performanceRow(A, LONG, 480), performanceRow(B, 'Boas-vindas', 30)]);
  if (path === '/momentums/daily')
    return ok([
      daily('2026-11-03', A, LONG, 200),
      daily('2026-11-24', A, LONG, 280),
      daily('2026-11-10', B, 'Boas-vindas', 30),
    ]);
  if (path === '/pages/mostViewed')
    return ok(
      [{ url: 'https://loja.example.com/', mobile: 3, desktop: 4, count: 7 }],
      'Most viewed pages have been loaded.',
    );
  if (path === '/count/visits')
    return ok(
      url.includes(`start=${END}&end=${END}`)
        ? { count: 40, previous: 35, previous_until: '2026-11-25T12:41:00.000Z' }
        : { count: 40, previous: 50 },
    );
  if (url.startsWith(`/api/analytics/${DOMAIN}`)) return ok([]);
  if (url === `/api/domain/onboarding/${DOMAIN}`) return { status: 500, body: { message: 'x', code: 'X' } };
  return undefined;
}

const open = () => renderPage(`/?domain=${DOMAIN}&start=${START}&end=${END}`, { session: true, fetch: analytics });
const card = (name: string) => screen.findByRole('region', { name }, { timeout: 10000 });

const narrow = phoneViewport;

describe('analytics details', () => {
  it("dates the momentum performance table: the period, and each row's days with messages", async () => {
    open();
    const perf = await card('Desempenho dos momentums');
    await waitFor(() => expect(within(perf).getByText('01/11/2026 a 26/11/2026', { exact: false })).toBeTruthy());
    const row = within(perf).getByText(LONG).closest('tr')!;
    expect(within(row).getByText('03/11 a 24/11')).toBeTruthy();
    const other = within(perf).getByText('Boas-vindas').closest('tr')!;
    expect(within(other).getByText('10/11')).toBeTruthy();
  });

  it("shows 'Impacto por momentum''s legend as a list beside the chart, not inside it", async () => {
    open();
    const impact = await card('Impacto por momentum');
    const legend = await within(impact).findByRole('list', { name: 'Legenda' });
    const items = within(legend).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringContaining(LONG),
      expect.stringContaining('Boas-vindas'),
    ]);
    expect(items[0]!.textContent).toContain('480');
  });

  it('says under the most viewed pages, in Portuguese, that they were loaded', async () => {
    open();
    const pages = await card('Páginas mais visitadas');
    await waitFor(() => expect(within(pages).getByText('Páginas mais vistas carregadas.')).toBeTruthy());
    expect(pages.textContent).not.toContain('Most viewed pages have been loaded.');
  });

  it('compares a day that is not over with the previous day until the same time, and says so', async () => {
    renderPage(`/?domain=${DOMAIN}&start=${END}&end=${END}`, { session: true, fetch: analytics });
    const views = await card('Visualizações de página');
    await waitFor(() => expect(within(views).getByText('vs. ontem até 09:41')).toBeTruthy());
    expect(within(views).getByText('+14,3%')).toBeTruthy();
  });

  it('on a phone, shows each momentum of the performance table whole, with its figures', async () => {
    narrow();
    open();
    const perf = await card('Desempenho dos momentums');
    const list = await within(perf).findByRole('list', { name: 'Desempenho dos momentums' });
    const item = within(list).getByRole('listitem', { name: LONG });
    expect(within(item).getByText(LONG)).toBeTruthy();
    expect(within(item).getByText('03/11 a 24/11')).toBeTruthy();
    expect(within(item).getByText('Enviadas').nextElementSibling?.textContent).toBe('480');
    expect(within(item).getByText('Receita (R$)').nextElementSibling?.textContent).toBe('R$ 120,50');
  });
});
