import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';

/* Journeys (issue #26): each delivery of a follow-up step says its step in the log. */

const MOMENTUM = '22222222-2222-4222-8222-222222222222';
const item = (id: string, recipient: string, step: number, branch: 'main' | 'otherwise') => ({
  id,
  recipient,
  channel_type: step === 0 ? 'CELL_NOTIFICATION' : 'ZENVIA',
  status: 'sent',
  detail: 'sent',
  reason: null,
  attempts: 1,
  created_at: '2026-03-10T12:00:00.000Z',
  due_at: '2026-03-10T12:00:00.000Z',
  sent_at: '2026-03-10T12:00:05.000Z',
  viewed_at: null,
  clicked_at: null,
  step,
  branch,
});

describe('delivery log of a journey', () => {
  it("names each follow-up message's step ('Etapa 2', 'Etapa 2 · senão'); the first message has no label", async () => {
    renderPage(`/v2/deliveries?domain=${DOMAIN}&id=${MOMENTUM}`, {
      session: true,
      fetch: (url) => {
        if (url === `/api/momentum/list?id=${MOMENTUM}`)
          return ok({ uuid: MOMENTUM, type: 'momentum', momentum_title: 'Carrinho abandonado' });
        if (url.startsWith(`/api/momentum/deliveries/${MOMENTUM}?`)) {
          const items = [
            item('d-1', 'primeiro', 0, 'main'),
            item('d-2', 'segundo', 2, 'main'),
            item('d-3', 'terceiro', 2, 'otherwise'),
          ];
          return ok({ items, total: items.length, page: 1, page_size: 50 });
        }
        return undefined;
      },
    });
    const table = await screen.findByRole('table', { name: 'Entregas' }, { timeout: 15_000 });
    await within(table).findByText('primeiro', {}, { timeout: 15_000 });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).queryByText(/^Etapa/)).toBeNull();
    expect(within(rows[2]!).getByText('Etapa 2')).toBeTruthy();
    expect(within(rows[3]!).getByText('Etapa 2 · senão')).toBeTruthy();
  });
});
