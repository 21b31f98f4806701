import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, type FetchRequest, ok, renderPage } from '../../../test/render-page.tsx';

/** Issue #29: the v2 form shows who a filter reaches, in people and as a share, while the filter is edited. */
const IMPACT = `/api/person/search/peopleImpacted/${DOMAIN}`;

function serve() {
  const impacts: unknown[] = [];
  const routes = {
    [`/api/person/filter/${DOMAIN}`]: ok([{ key: 'user_stored_data.origin', name: 'Origem', mask: 'text' }]),
    [`/api/domain/channels/${DOMAIN}`]: ok([]),
    [`POST ${IMPACT}`]: (_url: string, init: FetchRequest) => {
      const blocks = (init.json as { momentums: { values: { filter: string; value?: string[] }[] }[] }).momentums;
      impacts.push(blocks);
      const first = blocks[0]?.values[0];
      if (first?.filter === 'all') return ok({ percentualAtingido: 100, total: 3200, impacted: 3200 });
      return ok({ percentualAtingido: 12.5, total: 3200, impacted: 400 });
    },
  };
  return { routes, impacts };
}

describe('v2 form: audience estimate', () => {
  it("shows 'N pessoas (x% da base)' for everyone, then follows the filter as it changes", async () => {
    const { routes, impacts } = serve();
    renderPage(`/v2/momentum/create?domain=${DOMAIN}`, { session: true, fetch: routes });
    const filtros = await screen.findByRole('region', { name: 'Filtros' }, { timeout: 15000 });
    const estimate = () => within(filtros).getByRole('status', { name: 'Público estimado' });
    await waitFor(() => expect(estimate().textContent).toContain('3.200 pessoas (100% da base)'), { timeout: 8000 });

    await userEvent.click(within(filtros).getByRole('switch', { name: /Filtrar o público/ }));
    await waitFor(() => expect(estimate().textContent).toContain('Complete o filtro para estimar o público'));
    await userEvent.click(within(filtros).getByRole('combobox', { name: 'Filtro' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Origem' }));
    await userEvent.click(within(filtros).getByRole('combobox', { name: 'Comparação' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Igual a' }));
    await userEvent.type(within(filtros).getByRole('combobox', { name: 'Valores' }), 'google{Enter}');

    await waitFor(() => expect(estimate().textContent).toContain('400 pessoas (12,5% da base)'), { timeout: 8000 });
    const last = impacts.at(-1) as { values: { filter: string; value: string[] }[] }[];
    expect(last[0]?.values[0]).toMatchObject({ filter: 'user_stored_data.origin', value: ['google'] });
  });
});
