import { msg } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';

const MOMENTUM = '22222222-2222-4222-8222-222222222222';
let ids = 0;
const item = (over: Record<string, unknown>) => ({
  id: `d-${++ids}`,
  recipient: 'a***a@e***o.com.br',
  channel_type: 'AWS_SES',
  status: 'sent',
  detail: 'sent',
  reason: null,
  attempts: 1,
  created_at: '2026-03-10T12:00:00.000Z',
  due_at: '2026-03-10T12:00:00.000Z',
  sent_at: '2026-03-10T12:00:05.000Z',
  viewed_at: null,
  clicked_at: null,
  ...over,
});

describe('delivery log', () => {
  it('shows who got the message and why the others did not, filtered on the server', async () => {
    const { calls } = renderPage(`/v2/deliveries?domain=${DOMAIN}&id=${MOMENTUM}`, {
      session: true,
      fetch: (url) => {
        if (url === `/api/momentum/list?id=${MOMENTUM}`)
          return ok({ uuid: MOMENTUM, type: 'campaign', momentum_title: 'Black Friday' });
        if (url.startsWith(`/api/momentum/deliveries/${MOMENTUM}?`)) {
          const status = new URL(url, 'http://x').searchParams.get('status');
          const items =
            status === 'failed'
              ? []
              : [
                  item({}),
                  item({
                    recipient: '(11) *****-4321',
                    channel_type: 'ZENVIA',
                    status: 'skipped',
                    detail: 'skipped',
                    reason: 'limite de frequência',
                    sent_at: null,
                  }),
                ];
          return ok({ items, total: items.length, page: 1, page_size: 50 });
        }
        return undefined;
      },
    });
    const table = await screen.findByRole('table', { name: 'Entregas' }, { timeout: 15_000 });
    expect(await screen.findByText('Black Friday')).toBeTruthy();
    await within(table).findByText('a***a@e***o.com.br', {}, { timeout: 15_000 });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('a***a@e***o.com.br')).toBeTruthy();
    expect(within(rows[1]!).getByText('Enviada')).toBeTruthy();
    expect(within(rows[2]!).getByText('SMS (Zenvia)')).toBeTruthy();
    expect(within(rows[2]!).getByText('Não enviada')).toBeTruthy();
    expect(within(rows[2]!).getByText('limite de frequência')).toBeTruthy();
    expect(screen.getByText('2 entregas')).toBeTruthy();

    await userEvent.click(screen.getByText('Falhas'));
    expect(await screen.findByText('Nenhuma entrega com este status')).toBeTruthy();
    expect(calls.some((c) => c.url === `/api/momentum/deliveries/${MOMENTUM}?page=1&status=failed`)).toBe(true);
  });

  it('says so when the log cannot be loaded', async () => {
    renderPage(`/v2/deliveries?domain=${DOMAIN}&id=${MOMENTUM}`, {
      session: true,
      fetch: (url) => {
        if (url.startsWith('/api/momentum/deliveries/'))
          return { status: 404, body: { message: msg.deliveryLog.momentumNotFound, code: 'MOMENTUM_NOT_FOUND' } };
        return undefined;
      },
    });
    expect(await screen.findByText('Não foi possível carregar as entregas', {}, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(msg.deliveryLog.momentumNotFound)).toBeTruthy());
  });
});
