import { msg } from '@impeto/shared';
import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMPANY, mockFetch, renderApp, signIn, withoutWebCrypto } from '../../../test/render.tsx';

const DOMAIN = '11111111-1111-4111-8111-111111111111';
const MOMENTUM = '22222222-2222-4222-8222-222222222222';
const domain = {
  uuid: DOMAIN,
  name: 'Loja Aurora',
  domain: 'https://loja.example.com',
  domain_root: 'https://loja.example.com',
  gero_id: 'G-1',
  gero_validate: true,
  gero_version: '1.0.0',
  cn_sw_version: '1.0.0',
  status: 'Active',
  active: true,
};
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

let restoreCrypto: () => void;
beforeEach(() => {
  restoreCrypto = withoutWebCrypto();
  signIn();
});
afterEach(() => {
  restoreCrypto();
  notifications.clean();
});

describe('delivery log', () => {
  it('shows who got the message and why the others did not, filtered on the server', async () => {
    const calls = mockFetch((url) => {
      if (url === `/api/domain/list/${COMPANY}`) return { body: { message: 'ok', data: [domain] } };
      if (url === `/api/momentum/list?id=${MOMENTUM}`)
        return { body: { message: 'ok', data: { uuid: MOMENTUM, type: 'campaign', momentum_title: 'Black Friday' } } };
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
        return { body: { message: 'ok', data: { items, total: items.length, page: 1, page_size: 50 } } };
      }
      return undefined;
    });
    renderApp(`/v2/deliveries?domain=${DOMAIN}&id=${MOMENTUM}`);
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
    mockFetch((url) => {
      if (url === `/api/domain/list/${COMPANY}`) return { body: { message: 'ok', data: [domain] } };
      if (url.startsWith('/api/momentum/deliveries/'))
        return { status: 404, body: { message: msg.deliveryLog.momentumNotFound, code: 'MOMENTUM_NOT_FOUND' } };
      return undefined;
    });
    renderApp(`/v2/deliveries?domain=${DOMAIN}&id=${MOMENTUM}`);
    expect(await screen.findByText('Não foi possível carregar as entregas', {}, { timeout: 15_000 })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(msg.deliveryLog.momentumNotFound)).toBeTruthy());
  });
});
