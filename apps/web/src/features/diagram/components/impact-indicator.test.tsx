import { screen } from '@testing-library/react';
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
