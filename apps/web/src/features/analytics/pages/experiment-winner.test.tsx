import type { ExperimentReport } from '@impeto/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';

/* The experiment report's 'Envio da vencedora' (issue #25): the plan, then the decision of a campaign. */

const CAMPAIGN = '44444444-4444-4444-8444-444444444444';
const arm = (name: string, over: Partial<ExperimentReport['arms'][number]> = {}) => ({
  arm: name,
  label: `Variante ${name}`,
  share: 50,
  assigned: 500,
  sent: 500,
  viewed: 200,
  clicked: 40,
  conversions: 5,
  converted: 5,
  revenue: 500,
  conversion_rate: 1,
  click_rate: 8,
  ...over,
});
const base: ExperimentReport = {
  momentum_uuid: CAMPAIGN,
  momentum_title: 'Liquidação de inverno',
  type: 'campaign',
  control_percent: 0,
  variants: ['A', 'B'],
  arms: [arm('A'), arm('B', { assigned: 900, sent: 900, clicked: 150 })],
  against_control: [],
  by_click_rate: [],
  daily: [],
  start: '2026-11-01',
  end: '2026-11-30',
  winner: {
    test_percent: 20,
    hours: 4,
    metric: 'click_rate',
    planned_at: '2026-11-20T17:00:00.000Z',
    decided_at: null,
    winner: null,
    rates: [],
    rest: null,
  },
};
const decided: ExperimentReport = {
  ...base,
  winner: {
    ...base.winner!,
    decided_at: '2026-11-20T17:00:40.000Z',
    winner: 'B',
    rates: [
      { arm: 'A', rate: 10, successes: 10, trials: 100 },
      { arm: 'B', rate: 50, successes: 50, trials: 100 },
    ],
    rest: 800,
  },
};

const open = (report: ExperimentReport) =>
  renderPage(`/v2/experiment?domain=${DOMAIN}&uuid=${CAMPAIGN}&start=2026-11-01&end=2026-11-30`, {
    session: true,
    fetch: (url) => {
      if (url === `/api/momentum/list?id=${CAMPAIGN}`)
        return ok({ uuid: CAMPAIGN, domain_uuid: DOMAIN, type: 'campaign', momentum_title: 'Liquidação de inverno' });
      if (url.startsWith(`/api/analytics/${DOMAIN}/momentum/${CAMPAIGN}/experiment?`)) return ok(report);
      return undefined;
    },
  });

describe('experiment report: send the winner', { timeout: 60_000 }, () => {
  it('says what is being tested and when the winner goes out, before the decision', async () => {
    open(base);
    const card = await screen.findByLabelText('Envio da vencedora', {}, { timeout: 30_000 });
    expect(within(card).getByText('Em teste')).toBeTruthy();
    expect(
      within(card).getByText(
        'Testar em 20 % do público por 4 horas e enviar a vencedora ao restante (vencedora por taxa de cliques).',
      ),
    ).toBeTruthy();
    // 17:00 UTC is 14:00 in São Paulo.
    expect(within(card).getByText('A vencedora será enviada em 20/11 às 14:00.')).toBeTruthy();
    expect(within(card).queryByRole('table')).toBeNull();
  });

  it('shows the winner, each variant’s rate when it was chosen, and when the rest got it and how many', async () => {
    open(decided);
    const card = await screen.findByLabelText('Envio da vencedora', {}, { timeout: 30_000 });
    expect(within(card).getByText('Vencedora: Variante B')).toBeTruthy();
    expect(within(card).getByText('Vencedora: B, enviada ao restante em 20/11 às 14:00 (800 pessoas).')).toBeTruthy();
    const rates = within(card).getByRole('table', { name: 'Taxas na decisão' });
    const rows = within(rates)
      .getAllByRole('row')
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(rows).toEqual([
      ['Variante', 'Cliques / enviadas', 'Taxa na decisão'],
      ['Variante A', '10 / 100', '10,0%'],
      ['Variante B', '50 / 100', '50,0%'],
    ]);
    expect(within(card).getByText(/Escolhida por taxa de cliques em 20\/11\/2026 às 14:00/)).toBeTruthy();
  });
});
