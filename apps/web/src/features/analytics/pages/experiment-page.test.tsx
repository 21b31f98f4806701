import type { ExperimentReport } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';

const MOMENTUM = '33333333-3333-4333-8333-333333333333';
const arm = (over: Partial<ExperimentReport['arms'][number]>) => ({
  arm: 'A',
  label: 'Variante A',
  share: 40,
  assigned: 4000,
  sent: 4000,
  viewed: 3000,
  clicked: 400,
  conversions: 200,
  converted: 180,
  revenue: 18000,
  conversion_rate: 4.5,
  click_rate: 10,
  ...over,
});
const report: ExperimentReport = {
  momentum_uuid: MOMENTUM,
  momentum_title: 'Carrinho abandonado',
  type: 'momentum',
  control_percent: 20,
  variants: ['A', 'B'],
  arms: [
    arm({
      arm: 'control',
      label: 'Grupo de controle',
      share: 20,
      assigned: 2000,
      sent: 0,
      clicked: 0,
      converted: 54,
      conversions: 60,
      revenue: 5400,
      conversion_rate: 2.7,
      click_rate: 0,
    }),
    arm({}),
    arm({ arm: 'B', label: 'Variante B', converted: 120, conversion_rate: 3 }),
  ],
  against_control: [
    {
      arm: 'A',
      against: 'control',
      lift_pp: 1.8,
      ci_low_pp: 0.6,
      ci_high_pp: 3,
      p_value: 0.0004,
      significant: true,
      incremental_revenue: 7200,
      verdict: 'A variante A converte 1,8 p.p. a mais que o controle (IC 95 %: 0,6 a 3,0 p.p.)',
    },
    {
      arm: 'B',
      against: 'control',
      lift_pp: 0.3,
      ci_low_pp: -0.6,
      ci_high_pp: 1.2,
      p_value: 0.52,
      significant: false,
      incremental_revenue: 1200,
      verdict: 'Ainda sem diferença significativa: faltam cerca de 25.000 pessoas por grupo',
    },
  ],
  by_click_rate: [
    { arm: 'A', against: 'B', lift_pp: 0, ci_low_pp: -1.3, ci_high_pp: 1.3, p_value: 1, significant: false },
  ],
  daily: [],
  start: '2026-11-01',
  end: '2026-11-30',
};

describe('experiment report page', () => {
  it('shows the three arms side by side, the verdicts and the lift of each variant', async () => {
    const { calls } = renderPage(`/v2/experiment?domain=${DOMAIN}&uuid=${MOMENTUM}&start=2026-11-01&end=2026-11-30`, {
      session: true,
      fetch: (url) => {
        if (url === `/api/momentum/list?id=${MOMENTUM}`)
          return ok({ uuid: MOMENTUM, domain_uuid: DOMAIN, type: 'momentum', momentum_title: 'Carrinho abandonado' });
        if (url.startsWith(`/api/analytics/${DOMAIN}/momentum/${MOMENTUM}/experiment?`)) return ok(report);
        return undefined;
      },
    });
    const table = await screen.findByRole('table', { name: 'Grupos do teste' }, { timeout: 15_000 });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((r) => r.querySelector('th, td')?.textContent)).toEqual([
      'Grupo',
      'Grupo de controle',
      'Variante A',
      'Variante B',
    ]);
    expect(within(rows[1]!).getByText('2.000')).toBeTruthy();
    expect(within(rows[2]!).getByText('4,5%')).toBeTruthy();
    expect(
      screen.getByText('A variante A converte 1,8 p.p. a mais que o controle (IC 95 %: 0,6 a 3,0 p.p.)'),
    ).toBeTruthy();
    expect(
      screen.getByText('Variante B: Ainda sem diferença significativa: faltam cerca de 25.000 pessoas por grupo'),
    ).toBeTruthy();
    expect(screen.getByText(/Nenhuma conversão no período/)).toBeTruthy();
    const lift = screen.getByRole('group', { name: 'Diferença da Variante A para o controle' });
    expect(within(lift).getByText('+1,8 p.p. (IC 95 %: 0,6 a 3,0 p.p.)')).toBeTruthy();
    expect(screen.getByText(/Variante A × Variante B/)).toBeTruthy();
    expect(calls.some((c) => c.url.endsWith('/experiment?start=2026-11-01&end=2026-11-30'))).toBe(true);
  });

  it('says a verdict the variants share once, naming them, instead of repeating it', async () => {
    const none = 'Ainda sem diferença significativa: ainda não há conversões para comparar';
    const quiet = {
      ...report,
      against_control: report.against_control.map((c) => ({ ...c, significant: false, verdict: none })),
    };
    renderPage(`/v2/experiment?domain=${DOMAIN}&uuid=${MOMENTUM}&start=2026-11-01&end=2026-11-30`, {
      session: true,
      fetch: (url) => {
        if (url === `/api/momentum/list?id=${MOMENTUM}`)
          return ok({ uuid: MOMENTUM, domain_uuid: DOMAIN, type: 'momentum', momentum_title: 'Carrinho abandonado' });
        if (url.includes('/experiment?')) return ok(quiet);
        return undefined;
      },
    });
    const verdicts = await screen.findByLabelText('Conclusões', {}, { timeout: 15_000 });
    expect(
      within(verdicts)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toEqual([`Variante A e Variante B: ${none}`]);
  });

  it('says why when the momentum has no experiment', async () => {
    renderPage(`/v2/experiment?domain=${DOMAIN}&uuid=${MOMENTUM}`, {
      session: true,
      fetch: (url) => {
        if (url === `/api/momentum/list?id=${MOMENTUM}`)
          return ok({ uuid: MOMENTUM, domain_uuid: DOMAIN, type: 'campaign', momentum_title: 'Sem teste' });
        if (url.includes('/experiment?'))
          return {
            status: 404,
            body: { message: 'Este momentum não tem teste A/B nem grupo de controle.', code: 'EXPERIMENT_NOT_FOUND' },
          };
        return undefined;
      },
    });
    expect(
      await screen.findByText('Este momentum não tem teste A/B nem grupo de controle.', {}, { timeout: 15_000 }),
    ).toBeTruthy();
  });

  it("is linked from the momentum list's actions, for items with a test only", async () => {
    const row = (uuid: string, title: string, experiment: unknown) => ({
      uuid,
      company_uuid: COMPANY,
      domain_uuid: DOMAIN,
      user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
      type: 'momentum',
      momentum_title: title,
      momentum_description: null,
      status: 'Paused',
      active: false,
      scheduled_at: null,
      channel_uuid: null,
      channels: { channel_type: 'SUPERARE_WEBVIEW' },
      momentums: [],
      worktime: null,
      experiment,
      created_at: '2026-03-10T12:00:00.000Z',
      updated_at: '2026-03-11T12:00:00.000Z',
    });
    const { router } = renderPage(`/v2/momentums?domain=${DOMAIN}`, {
      session: true,
      fetch: {
        [`/api/momentum/list/${DOMAIN}?type=momentum`]: ok([
          row(MOMENTUM, 'Com teste', { control_percent: 20, variants: [] }),
          row('44444444-4444-4444-8444-444444444444', 'Sem teste', null),
        ]),
      },
    });
    await screen.findByRole('button', { name: 'Entregas de Sem teste' }, { timeout: 8000 });
    expect(screen.queryByRole('button', { name: 'Teste A/B de Sem teste' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Teste A/B de Com teste' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/v2/experiment'));
    expect(new URLSearchParams(router.state.location.search).get('uuid')).toBe(MOMENTUM);
  });
});
