import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';
import { ImpactIndicator } from './impact-indicator.tsx';

describe("diagram 'Calcular impacto'", () => {
  it('says how many people the filter reaches, beside the share of the base', async () => {
    const filter = { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] };
    renderPage(<ImpactIndicator domainUuid={DOMAIN} getBlocks={() => [filter]} onInvalid={() => {}} />, {
      fetch: {
        [`POST /api/person/search/peopleImpacted/${DOMAIN}`]: ok({
          percentualAtingido: 12.5,
          total: 3200,
          impacted: 400,
        }),
      },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Calcular impacto' }));
    expect(await screen.findByText('Impacto: 400 pessoas (12,5% da base)')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Recalcular' })).toBeTruthy();
  });
});

describe("the diagram's impact, once asked", () => {
  it('follows the filter: a new filter is calculated by itself, without the button', async () => {
    const filter = (value: string) => ({
      type: 'filter',
      regex: false,
      values: [{ filter: 'client.location.city', comparation: '==', value: [value] }],
    });
    const { calls, rerender } = renderPage(
      <ImpactIndicator key="a" domainUuid={DOMAIN} getBlocks={() => [filter('Recife')]} onInvalid={() => {}} live />,
      {
        fetch: {
          [`POST /api/person/search/peopleImpacted/${DOMAIN}`]: ok({
            percentualAtingido: 25,
            total: 800,
            impacted: 200,
          }),
        },
      },
    );
    expect(await screen.findByText('Impacto: 200 pessoas (25% da base)', {}, { timeout: 5000 })).toBeTruthy();
    rerender(
      <ImpactIndicator key="b" domainUuid={DOMAIN} getBlocks={() => [filter('Natal')]} onInvalid={() => {}} live />,
    );
    await waitFor(() => expect(calls.filter((c) => c.url.includes('peopleImpacted')).length).toBe(2), {
      timeout: 5000,
    });
    expect(JSON.stringify(calls.at(-1)?.json)).toContain('Natal');
  });

  it('is not calculated by itself before the user asks the first time (the spec’s button)', async () => {
    const filter = { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] };
    const { calls } = renderPage(
      <ImpactIndicator domainUuid={DOMAIN} getBlocks={() => [filter]} onInvalid={() => {}} />,
      {
        fetch: {
          [`POST /api/person/search/peopleImpacted/${DOMAIN}`]: ok({ percentualAtingido: 1, total: 1, impacted: 1 }),
        },
      },
    );
    await new Promise((r) => setTimeout(r, 900));
    expect(calls.filter((c) => c.url.includes('peopleImpacted'))).toEqual([]);
    expect(screen.getByRole('button', { name: 'Calcular impacto' })).toBeTruthy();
  });
});
