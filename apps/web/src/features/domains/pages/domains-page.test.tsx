import { experimentMessages, msg, timingMessages } from '@impeto/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, type FetchHandler, ok, renderPage } from '../../../test/render-page.tsx';

const domain = (overrides: Record<string, unknown> = {}) => ({
  uuid: '11111111-1111-4111-8111-111111111111',
  name: 'Loja Aurora',
  domain: 'https://loja.example.com',
  domain_root: 'https://loja.example.com',
  gero_id: 'G-AURORA',
  gero_validate: true,
  gero_version: '1.0.0',
  cn_sw_version: '1.0.0',
  status: 'Active',
  active: true,
  ...overrides,
});

const DOMAINS = [
  domain(),
  domain({
    uuid: '22222222-2222-4222-8222-222222222222',
    name: 'Blog Aurora',
    domain: 'https://blog.example.com',
    gero_id: 'G-BLOG',
    gero_validate: false,
    gero_version: '1.1.0',
  }),
  domain({
    uuid: '33333333-3333-4333-8333-333333333333',
    name: 'Outlet',
    domain: 'https://outlet.example.com',
    gero_id: 'G-OUTLET',
    status: 'Inactive',
    active: false,
  }),
];

function serve(
  overrides: (url: string, method: string) => { status?: number; body: unknown } | undefined = () => undefined,
): FetchHandler {
  return (url, init) => {
    const method = init.method ?? 'GET';
    const own = overrides(url, method);
    if (own) return own;
    if (url === `/api/domain/list/${COMPANY}`) return ok(DOMAINS);
    if (url === '/api/gero/version/list') return ok([{ version: '1.0.0' }, { version: '1.1.0' }]);
    if (url === '/api/cnsw/version/list') return ok([{ version: '1.0.0' }]);
    if (url === '/api/config') return ok({ allowPrivate: false, publicUrl: 'https://app.test' });
    return undefined;
  };
}

/** The page is lazy: the first render of a file waits for its chunk. */
const ready = () => screen.findByRole('table', {}, { timeout: 15_000 });

const versionInput = (name: string) =>
  screen
    .getAllByLabelText(name)
    .find((el) => el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'hidden') as HTMLInputElement;

describe('domains page', () => {
  it('lists every domain with its status and both version selects', async () => {
    renderPage('/domains', { session: true, fetch: serve() });
    const table = await ready();
    for (const column of ['Nº', 'Nome', 'Domínio', 'Status', 'Versão Gero', 'Versão CNSW', 'Script', 'Opções'])
      expect(within(table).getByRole('columnheader', { name: column })).toBeTruthy();

    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0] as HTMLElement).getByText('Ativo')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('Não verificado')).toBeTruthy();
    expect(within(rows[2] as HTMLElement).getByText('Inativo')).toBeTruthy();

    await waitFor(() => expect(versionInput('Versão Gero de Blog Aurora').value).toBe('1.1.0'));
    expect(versionInput('Versão CNSW de Loja Aurora').value).toBe('1.0.0');
    expect(
      within(rows[0] as HTMLElement).getByRole('button', { name: 'Verificar script de Loja Aurora' }),
    ).toBeTruthy();
  });

  it('changes a version with PUT and shows the failure message when it is refused', async () => {
    const { calls } = renderPage('/domains', {
      session: true,
      fetch: serve((url, method) =>
        method === 'PUT' && url.includes('/version/')
          ? { status: 404, body: { message: 'x', code: 'VERSION_NOT_FOUND' } }
          : undefined,
      ),
    });
    await ready();
    const user = userEvent.setup();
    await waitFor(() => expect(versionInput('Versão Gero de Loja Aurora').value).toBe('1.0.0'));
    await user.click(versionInput('Versão Gero de Loja Aurora'));
    await user.click(await screen.findByRole('option', { name: '1.1.0' }));
    expect(await screen.findByText(msg.version.changeFailed('gero'))).toBeTruthy();
    expect(
      calls.some((c) => c.method === 'PUT' && c.url === `/api/gero/domain/${DOMAINS[0]?.uuid}/version/1.1.0`),
    ).toBe(true);
  });

  it('validates the script and shows the server message', async () => {
    const { calls } = renderPage('/domains', {
      session: true,
      fetch: serve((url) =>
        url === '/api/gero/validate'
          ? { status: 422, body: { message: msg.domain.validateFailed, code: 'SCRIPT_NOT_FOUND' } }
          : undefined,
      ),
    });
    await ready();
    await userEvent.click(await screen.findByRole('button', { name: 'Verificar script de Blog Aurora' }));
    expect(await screen.findByText(msg.domain.validateFailed)).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/gero/validate')?.json).toEqual({
      gero: { domain_uuid: DOMAINS[1]?.uuid },
    });
  });

  it('removes a domain after a confirmation naming it', async () => {
    const { calls } = renderPage('/domains', {
      session: true,
      fetch: serve((url, method) =>
        method === 'DELETE' && url === `/api/domain/remove/${DOMAINS[2]?.uuid}`
          ? { body: { message: msg.domain.removed, data: null } }
          : undefined,
      ),
    });
    await ready();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Opções de Outlet' }));
    expect(await screen.findByRole('menuitem', { name: 'Ativar' })).toBeTruthy();
    console.log('MENU', document.querySelector('[role=menu]')?.outerHTML);
    await user.click(screen.getByRole('menuitem', { name: 'Remover' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remover domínio' });
    expect(within(dialog).getByText('Outlet')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Remover' }));
    expect(await screen.findByText(msg.domain.removed)).toBeTruthy();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === `/api/domain/remove/${DOMAINS[2]?.uuid}`)).toBe(true);
  });

  it('edits the retention of events in months, 13 by default, with a pt-BR message when out of range', async () => {
    const { calls } = renderPage('/domains', {
      session: true,
      fetch: serve((url, method) =>
        method === 'PUT' && url === `/api/domain/update/${DOMAINS[0]?.uuid}`
          ? { body: { message: msg.domain.updated, data: { ...DOMAINS[0], retention_months: 6 } } }
          : undefined,
      ),
    });
    await ready();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Opções de Loja Aurora' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editando domínio' });
    const retention = within(dialog).getByLabelText('Retenção dos eventos (meses)') as HTMLInputElement;
    await waitFor(() => expect(retention.value).toBe('13'));
    await user.clear(retention);
    await user.type(retention, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText(msg.privacy.retentionInvalid)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.clear(retention);
    await user.type(retention, '6');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(msg.domain.updated)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.json).toEqual({
      domain: { name: 'Loja Aurora', address: 'https://loja.example.com', retention_months: 6 },
    });
  });

  it('sets quiet hours and the domain’s own holidays, refusing bad ones in Portuguese (issue #27)', async () => {
    const { calls } = renderPage('/domains', {
      session: true,
      fetch: serve((url, method) =>
        method === 'PUT' && url === `/api/domain/update/${DOMAINS[0]?.uuid}`
          ? { body: { message: msg.domain.updated, data: DOMAINS[0] } }
          : undefined,
      ),
    });
    await ready();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Opções de Loja Aurora' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editando domínio' });
    expect(within(dialog).queryByLabelText('Início do silêncio')).toBeNull();
    await user.click(within(dialog).getByRole('switch', { name: /Horário de silêncio/ }));
    const start = within(dialog).getByLabelText('Início do silêncio') as HTMLInputElement;
    const end = within(dialog).getByLabelText('Fim do silêncio') as HTMLInputElement;
    expect([start.value, end.value]).toEqual(['22:00', '08:00']);
    fireEvent.change(end, { target: { value: '22:00' } });
    const holidays = within(dialog).getByPlaceholderText('dd/mm/aaaa');
    await user.type(holidays, '31/02/2026{enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText(timingMessages.quietHoursEmpty)).toBeTruthy();
    expect(within(dialog).getByText(timingMessages.holidayInvalid)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.change(end, { target: { value: '07:30' } });
    await user.type(holidays, '{backspace}20/01/2026{enter}9/7/2026{enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(msg.domain.updated)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.json).toEqual({
      domain: {
        name: 'Loja Aurora',
        address: 'https://loja.example.com',
        retention_months: 13,
        quiet_hours: { start: '22:00', end: '07:30' },
        extra_holidays: ['2026-01-20', '2026-07-09'],
      },
    });
  });

  it('sets the domain’s time zone from a list with Brazil’s four zones first (issue #27)', async () => {
    const { calls } = renderPage('/domains', {
      session: true,
      fetch: serve((url, method) =>
        method === 'PUT' && url === `/api/domain/update/${DOMAINS[0]?.uuid}`
          ? { body: { message: msg.domain.updated, data: { ...DOMAINS[0], timezone: 'America/Manaus' } } }
          : undefined,
      ),
    });
    await ready();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Opções de Loja Aurora' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editando domínio' });
    const zone = within(dialog)
      .getAllByLabelText('Fuso horário do domínio')
      .find((el) => el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'hidden') as HTMLInputElement;
    await waitFor(() => expect(zone.value).toBe('Brasília (UTC−03:00)'));
    await user.click(zone);
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options.slice(0, 4)).toEqual([
      'Brasília (UTC−03:00)',
      'Fernando de Noronha (UTC−02:00)',
      'Manaus (UTC−04:00)',
      'Rio Branco, Acre (UTC−05:00)',
    ]);
    // Then the other zones the browser knows, alphabetically.
    expect(screen.getByText('Outros fusos')).toBeTruthy();
    expect(options[4]).toMatch(/^Africa\//);
    await user.click(screen.getByRole('option', { name: 'Manaus (UTC−04:00)' }));
    expect(zone.value).toBe('Manaus (UTC−04:00)');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(msg.domain.updated)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.json).toEqual({
      domain: {
        name: 'Loja Aurora',
        address: 'https://loja.example.com',
        retention_months: 13,
        timezone: 'America/Manaus',
      },
    });
  });

  it('sets the global control group, 0 % by default, 0–20 % with a pt-BR message (issue #25)', async () => {
    const { calls } = renderPage('/domains', {
      session: true,
      fetch: serve((url, method) =>
        method === 'PUT' && url === `/api/domain/update/${DOMAINS[0]?.uuid}`
          ? { body: { message: msg.domain.updated, data: { ...DOMAINS[0], control_group_percent: 10 } } }
          : undefined,
      ),
    });
    await ready();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Opções de Loja Aurora' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editando domínio' });
    const control = within(dialog).getByRole('textbox', { name: 'Grupo de controle global' }) as HTMLInputElement;
    await waitFor(() => expect(control.value).toBe('0 %'));
    await user.clear(control);
    await user.type(control, '25');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await within(dialog).findByText(experimentMessages.globalControlInvalid)).toBeTruthy();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.clear(control);
    await user.type(control, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(msg.domain.updated)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.json).toEqual({
      domain: {
        name: 'Loja Aurora',
        address: 'https://loja.example.com',
        retention_months: 13,
        control_group_percent: 10,
      },
    });
  });

  it('links each domain to its privacy (LGPD) page', async () => {
    const { router } = renderPage('/domains', { session: true, fetch: serve() });
    await ready();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Opções de Loja Aurora' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Privacidade (LGPD)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/domains/${DOMAINS[0]?.uuid}/privacy`));
  });

  it("documents the tag's consent mode in the script modal, with the snippet", async () => {
    renderPage('/domains', { session: true, fetch: serve() });
    await ready();
    await userEvent.click(await screen.findByRole('button', { name: 'Ver script de Loja Aurora' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Consentimento (LGPD), se o seu site pede')).toBeTruthy();
    const snippet = within(dialog)
      .getAllByText((_, el) => el?.tagName === 'PRE' && (el.textContent ?? '').includes("consent: 'required'"))
      .at(0);
    expect(snippet?.textContent).toContain(
      "gero('init', { root: 'https://loja.example.com', id: 'G-AURORA', consent: 'required' });",
    );
    expect(snippet?.textContent).toContain("gero('consent', true);");
    expect(within(dialog).getByRole('button', { name: 'Copiar script com consentimento' })).toBeTruthy();
  });
});
