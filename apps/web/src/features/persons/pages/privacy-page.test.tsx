import { msg } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DOMAIN, type FetchHandler, renderPage, testDomain } from '../../../test/render-page.tsx';

const domain = testDomain({ gero_id: 'G-AURORA', retention_months: 6 });

const PERSON = {
  uuid: '44444444-4444-4444-8444-444444444444',
  visitor_id: 'v-ana-123',
  email: 'ana@exemplo.com.br',
  phone: '11987654321',
  name: 'Ana',
  first_seen: '2026-11-01T12:00:00.000Z',
  last_seen: '2026-11-20T15:30:00.000Z',
  push_status: 'subscribed',
  events: 1234,
  deliveries: 2,
};

const PAGE = `/domains/${DOMAIN}/privacy`;

function serve(options: { erased?: boolean; missing?: boolean } = {}): FetchHandler {
  let erased = false;
  return (url, init) => {
    const method = init.method ?? 'GET';
    if (url.startsWith(`/api/person/lookup/${DOMAIN}?`)) {
      if (options.missing || erased)
        return { status: 404, body: { message: msg.privacy.notFound, code: 'PERSON_NOT_FOUND' } };
      return { body: { message: msg.privacy.found, data: [PERSON] } };
    }
    if (url.startsWith(`/api/person/export/${DOMAIN}?`))
      return { body: { message: msg.privacy.exported, data: { persons: [{ ...PERSON, events: [] }] } } };
    if (method === 'DELETE' && url === `/api/person/erase/${DOMAIN}`) {
      erased = true;
      return { body: { message: msg.privacy.erased, data: { persons: 1, events: 1234, deliveries: 2, onsite: 1 } } };
    }
    return undefined;
  };
}

const searchByEmail = async (user: ReturnType<typeof userEvent.setup>, email: string) => {
  await user.click(await screen.findByRole('radio', { name: 'E-mail' }, { timeout: 20_000 }));
  const input = screen.getByRole('textbox', { name: 'E-mail' });
  await user.clear(input);
  await user.type(input, email);
  await user.click(screen.getByRole('button', { name: 'Buscar' }));
};

describe('privacy (LGPD) page', () => {
  it('finds a visitor by e-mail and shows a summary; a bad e-mail is refused before any request', async () => {
    const { router, calls } = renderPage(PAGE, { session: true, domains: [domain], fetch: serve() });
    const user = userEvent.setup();
    expect(await screen.findByText(/6 meses/, {}, { timeout: 20_000 })).toBeTruthy();

    await searchByEmail(user, 'ana');
    expect(await screen.findByText(msg.privacy.emailInvalid)).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/person/lookup/'))).toBe(false);

    await searchByEmail(user, 'Ana@Exemplo.com.br');
    const card = await screen.findByLabelText('Visitante v-ana-123');
    expect(within(card).getByText('ana@exemplo.com.br')).toBeTruthy();
    expect(within(card).getByText('1.234')).toBeTruthy();
    expect(screen.getByText('1 visitante encontrado')).toBeTruthy();
    expect(calls.some((c) => c.url === `/api/person/lookup/${DOMAIN}?email=ana%40exemplo.com.br`)).toBe(true);
    // The search is in the URL: a reload or a shared link shows the same visitor.
    expect(new URLSearchParams(router.state.location.search).get('email')).toBe('Ana@Exemplo.com.br');
  });

  it('downloads the JSON export', async () => {
    const created: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:lgpd';
    });
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { calls } = renderPage(`${PAGE}?vid=v-ana-123`, { session: true, domains: [domain], fetch: serve() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Baixar dados (JSON)' }, { timeout: 20_000 }));
    expect(await screen.findByText(msg.privacy.exported)).toBeTruthy();
    expect(calls.some((c) => c.url === `/api/person/export/${DOMAIN}?vid=v-ana-123`)).toBe(true);
    expect(clicked).toHaveBeenCalled();
    const exported = JSON.parse(await created[0]!.text());
    expect(exported.persons[0].visitor_id).toBe('v-ana-123');
  });

  it('erases only after a confirmation that says it is final', async () => {
    const { calls } = renderPage(`${PAGE}?email=ana%40exemplo.com.br`, {
      session: true,
      domains: [domain],
      fetch: serve(),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Apagar dados' }, { timeout: 20_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Apagar dados do visitante' });
    expect(within(dialog).getByText('Esta ação é definitiva')).toBeTruthy();
    expect(within(dialog).getByText('e-mail ana@exemplo.com.br')).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Apagar definitivamente' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByLabelText('Entendo que os dados serão apagados definitivamente.'));
    await user.click(confirm);

    expect(await screen.findByText('Dados apagados definitivamente')).toBeTruthy();
    expect(screen.getByText(/1\.234 evento\(s\)/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'DELETE')?.json).toEqual({ person: { email: 'ana@exemplo.com.br' } });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says so when nobody matches', async () => {
    renderPage(`${PAGE}?phone=11999990000`, { session: true, domains: [domain], fetch: serve({ missing: true }) });
    expect(await screen.findByText('Nenhum visitante encontrado', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByText(msg.privacy.notFound)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Apagar dados' })).toBeNull();
  });
});
