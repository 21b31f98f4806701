import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';
import { MomentumPerformance } from '../components/momentum-performance.tsx';

/* Journeys (issue #26): per-step results under the dashboard's performance row and the journey page's funnel. */

const UUID = 'aaaaaaaa-aaaa-4aaa-8aaa-000000000001';
const PLAIN = 'aaaaaaaa-aaaa-4aaa-8aaa-000000000002';
const range = { start: '2026-11-01', end: '2026-11-26' };
const step = (s: number, branch: 'main' | 'otherwise', reached: number, sent: number, conversions: number) => ({
  step: s,
  branch,
  reached,
  left_by_condition: s === 1 && branch === 'main' ? 40 : 0,
  exited_conversion: s === 1 ? 25 : 0,
  sent,
  viewed: Math.round(sent / 2),
  clicked: Math.round(sent / 10),
  conversions,
  revenue: conversions * 100,
});
const STEPS = [step(0, 'main', 1000, 990, 50), step(1, 'main', 935, 600, 30), step(1, 'otherwise', 270, 260, 5)];
const performanceRow = (uuid: string, title: string, journey: boolean) => ({
  momentum_uuid: uuid,
  momentum_title: title,
  type: 'momentum',
  notifications_sent: 1850,
  notifications_viewed: 900,
  notifications_clicked: 180,
  notifications_ctr: 9.7,
  not_convertion: 85,
  not_convertion_profit: 8500,
  not_cart_access: 3,
  not_cart_access_percent: 0.2,
  ...(journey ? { journey: true } : {}),
});

const serve = (url: string) => {
  const path = url.split('?')[0]!;
  if (path === `/api/analytics/${DOMAIN}/momentums/performance`)
    return ok([performanceRow(UUID, 'Carrinho abandonado', true), performanceRow(PLAIN, 'Boas-vindas', false)]);
  if (path === `/api/analytics/${DOMAIN}/momentums/daily`) return ok([]);
  if (path === `/api/analytics/${DOMAIN}/momentum/${UUID}/journey`) return ok({ steps: STEPS });
  if (path === '/api/momentum/list' && url.includes(UUID))
    return ok({
      uuid: UUID,
      company_uuid: COMPANY,
      domain_uuid: DOMAIN,
      type: 'momentum',
      momentum_title: 'Carrinho abandonado',
      status: 'Active',
      momentums: [],
      steps: [{ wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [{}] }],
    });
  return undefined;
};

describe('journey results', () => {
  it('a journey row of the performance table opens to one row per step and branch', async () => {
    const { calls } = renderPage(<MomentumPerformance domainUuid={DOMAIN} range={range} />, {
      session: true,
      fetch: serve,
    });
    const open = await screen.findByRole(
      'button',
      { name: 'Mostrar as etapas da jornada de Carrinho abandonado' },
      { timeout: 15_000 },
    );
    // Only the momentum with steps can open; nothing is read before it is opened.
    expect(screen.queryByRole('button', { name: /etapas da jornada de Boas-vindas/ })).toBeNull();
    expect(calls.some((c) => c.url.includes('/journey'))).toBe(false);
    await userEvent.click(open);
    const table = await screen.findByRole('table', { name: 'Etapas da jornada de Carrinho abandonado' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.querySelector('td')?.textContent ?? null).slice(1)).toEqual([
      'Primeira mensagem',
      'Etapa 1',
      'Etapa 1 · senão',
    ]);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Etapa',
      'Alcançaram',
      'Saíram pela condição',
      'Saíram ao converter',
      'Enviadas',
      'Visualizadas',
      'Cliques',
      'Conversões',
      'Receita (R$)',
    ]);
    expect(within(rows[2]!).getByText('935')).toBeTruthy();
    expect(within(rows[2]!).getByText('40')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Ver o funil da jornada' }).getAttribute('href')).toContain(
      `/v2/journey?uuid=${UUID}`,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Ocultar as etapas da jornada de Carrinho abandonado' }));
    expect(screen.queryByRole('table', { name: 'Etapas da jornada de Carrinho abandonado' })).toBeNull();
  });

  it('the journey page draws the funnel of the steps and their table', async () => {
    renderPage(`/v2/journey?uuid=${UUID}&domain=${DOMAIN}&start=2026-11-01&end=2026-11-26`, {
      session: true,
      fetch: serve,
    });
    const funnel = await screen.findByRole('list', { name: 'Funil da jornada' }, { timeout: 15_000 });
    const items = within(funnel).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual(['Primeira mensagem', 'Etapa 1', 'Etapa 1 · senão']);
    expect(within(items[1]!).getByText('935 pessoas · 93,5%')).toBeTruthy();
    expect(screen.getByText(/1\.000 pessoas entraram na jornada no período/)).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Etapas da jornada' })).toBeTruthy();
  });
});
