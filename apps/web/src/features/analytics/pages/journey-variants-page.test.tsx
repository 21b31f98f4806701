import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COMPANY, DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';

/* A/B variants of a journey step (issue #26 with #25) on the journey page: each variant under its step. */

const UUID = 'aaaaaaaa-aaaa-4aaa-8aaa-000000000003';
const row = (step: number, reached: number, sent: number, conversions: number) => ({
  step,
  branch: 'main',
  reached,
  left_by_condition: 0,
  exited_conversion: 0,
  sent,
  viewed: 0,
  clicked: Math.round(sent / 10),
  conversions,
  revenue: conversions * 100,
});
const variant = (name: string, sent: number, clicked: number, conversions: number) => ({
  name,
  sent,
  viewed: 0,
  clicked,
  conversions,
  revenue: conversions * 100,
});
const STEPS = [
  row(0, 200, 200, 0),
  { ...row(1, 200, 200, 12), variants: [variant('A', 104, 8, 2), variant('B', 96, 12, 10)] },
];

const serve = (url: string) => {
  const path = url.split('?')[0]!;
  if (path === `/api/analytics/${DOMAIN}/momentum/${UUID}/journey`) return ok({ steps: STEPS });
  if (path === '/api/momentum/list' && url.includes(UUID))
    return ok({
      uuid: UUID,
      company_uuid: COMPANY,
      domain_uuid: DOMAIN,
      type: 'momentum',
      momentum_title: 'Carrinho com teste',
      status: 'Active',
      momentums: [],
      steps: [{ wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [{}] }],
    });
  return undefined;
};

describe('journey page with a step A/B test', () => {
  it('shows each variant under its step, in the funnel and in the table', async () => {
    renderPage(`/v2/journey?uuid=${UUID}&domain=${DOMAIN}&start=2026-11-01&end=2026-11-26`, {
      session: true,
      fetch: serve,
    });
    const funnel = await screen.findByRole('list', { name: 'Funil da jornada' }, { timeout: 15_000 });
    const step1 = within(funnel).getAllByRole('listitem')[1]!;
    expect(within(step1).getByLabelText('Etapa 1 · variante A').textContent).toBe(
      'Variante A: 104 enviadas · 8 cliques · 2 conversões (R$ 200,00)',
    );
    expect(within(step1).getByLabelText('Etapa 1 · variante B').textContent).toContain('96 enviadas · 12 cliques');
    const table = screen.getByRole('table', { name: 'Etapas da jornada' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('td')?.textContent)).toEqual([
      'Primeira mensagem',
      'Etapa 1',
      'Variante A',
      'Variante B',
    ]);
    // A variant's row: what its message did; who reached or left the step is the step's row.
    expect([...rows[3]!.querySelectorAll('td')].map((c) => c.textContent)).toEqual([
      'Variante B',
      '—',
      '—',
      '—',
      '96',
      '0',
      '12',
      '10',
      expect.stringContaining('1.000,00'),
    ]);
  });
});
