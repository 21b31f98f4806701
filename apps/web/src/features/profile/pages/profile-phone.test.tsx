import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DOMAIN, ok, phoneViewport, renderPage } from '../../../test/render-page.tsx';

/** Issue #29: at 390 px /profile's sessions and /payment's usage show every figure, stacked, with no hidden column. */
const profile = { name: 'Ana Souza', username: 'ana', email: 'ana@loja.com.br', pending_email: null };
const session = (id: number, extra: Record<string, unknown> = {}) => ({
  id: `5b0f0b8e-0000-4000-8000-00000000000${id}`,
  device: 'Chrome 130 em Linux',
  mobile: false,
  created_at: `2026-11-2${id}T12:00:00.000Z`,
  last_used_at: `2026-11-2${id}T13:00:00.000Z`,
  expires_at: '2026-12-20T12:00:00.000Z',
  keep_connected: true,
  current: false,
  ...extra,
});

beforeEach(() => {
  phoneViewport();
});

describe('on a phone', () => {
  it("lists /profile's sessions stacked, each with its sign-in time, last use and where it signed in from", async () => {
    renderPage('/profile', {
      session: true,
      fetch: {
        '/api/profile': ok(profile),
        '/api/profile/sessions': ok([
          session(6, { current: true, ip: '177.12.34.56', location: 'São Paulo, SP, BR' }),
          session(5, { ip: '200.1.2.3', location: 'Recife, PE, BR' }),
        ]),
      },
    });
    const list = await screen.findByRole('list', { name: 'Sessões ativas' }, { timeout: 8000 });
    expect(screen.queryByRole('table', { name: 'Sessões ativas' })).toBeNull();
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Esta sessão')).toBeTruthy();
    expect(items[0]!.textContent).toMatch(/Entrou em 2[56]\/11\/2026/);
    expect(items[0]!.textContent).toContain('Último uso');
    expect(items[0]!.textContent).toContain('São Paulo, SP, BR · IP 177.12.34.56');
    expect(items[1]!.textContent).toContain('Recife, PE, BR · IP 200.1.2.3');
    expect(within(items[1]!).getByRole('button', { name: /Encerrar sessão Chrome 130 em Linux/ })).toBeTruthy();
  });

  it("lists /payment's usage per domain with every column's figure", async () => {
    renderPage('/payment', {
      session: true,
      fetch: {
        [`/api/usage?month=${new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date()).slice(0, 7)}`]:
          ok({
            plan: 'self_hosted',
            month: '2026-11',
            domains: [
              {
                domain_uuid: DOMAIN,
                name: 'Loja Aurora',
                events: 12345,
                pageviews: 9000,
                visitors: 678,
                messages: { CELL_NOTIFICATION: 90, SUPERARE_WEBVIEW: 12, ZENVIA: 3, AWS_SES: 4, ONE_SIGNAL: 0 },
                messages_total: 109,
              },
            ],
          }),
      },
    });
    const list = await screen.findByRole('list', { name: 'Uso por domínio' }, { timeout: 8000 });
    const item = within(list).getByRole('listitem', { name: 'Loja Aurora' });
    const figures: [string, string][] = [
      ['Eventos coletados', '12.345'],
      ['Visitantes', '678'],
      ['Web push', '90'],
      ['No site', '12'],
      ['SMS', '3'],
      ['E-mail', '4'],
      ['Mensagens', '109'],
    ];
    for (const [label, value] of figures)
      expect(within(item).getByText(label).nextElementSibling?.textContent, label).toBe(value);
  });
});
