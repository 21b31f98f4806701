import type { DomainItem } from '@impeto/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { setSelectedDomain, toSelectedDomain } from '../lib/domain-store.ts';
import { COMPANY, renderPage, testDomain } from '../test/render-page.tsx';

const domain = (overrides: Partial<DomainItem> = {}) => testDomain({ gero_id: 'G-123', ...overrides });
const expired = { expire_date: new Date(Date.now() - 1000).toISOString() };

describe('route guard', () => {
  it('sends a visitor without a session to /signin and remembers the origin', async () => {
    const { router } = renderPage('/v2/momentums?tab=active');
    expect(await screen.findByRole('heading', { name: 'Entrar na sua conta' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signin');
    expect(router.state.location.state).toEqual({ from: '/v2/momentums?tab=active' });
    expect(sessionStorage.getItem('impeto.origin')).toBe('/v2/momentums?tab=active');
  });

  it('treats an expired session as none', async () => {
    const { router } = renderPage('/domains', { session: expired });
    await screen.findByRole('heading', { name: 'Entrar na sua conta' });
    expect(router.state.location.pathname).toBe('/signin');
    expect(sessionStorage.getItem('impeto.session')).toBeNull();
  });

  it('sends a signed-in user away from /signin to /, the analytics of the selected domain', async () => {
    setSelectedDomain(toSelectedDomain(domain(), 0));
    const { router } = renderPage('/signin', { session: true, domains: [domain()] });
    await waitFor(() => expect(router.state.location.search).toBe(`?domain=${domain().uuid}`));
    expect(router.state.location.pathname).toBe('/');
    // The analytics page is the heaviest lazy chunk to transform on a cold run.
    expect(await screen.findByRole('heading', { name: 'Analytics' }, { timeout: 20_000 })).toBeTruthy();
  });

  it('sends / with no selected domain to /domains instead of silently picking one (doc 1 §5)', async () => {
    const { router } = renderPage('/', {
      session: true,
      domains: [domain(), domain({ uuid: '22222222-2222-4222-8222-222222222222' })],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/domains'));
    expect(await screen.findByRole('heading', { name: 'Domínios', level: 2 })).toBeTruthy();
  });

  it('ends the domain list and selection with an expired session', async () => {
    sessionStorage.setItem('impeto.domains', JSON.stringify([domain()]));
    setSelectedDomain(toSelectedDomain(domain(), 0));
    const { router } = renderPage('/v2/momentums', { session: expired });
    await screen.findByRole('heading', { name: 'Entrar na sua conta' });
    expect(router.state.location.pathname).toBe('/signin');
    expect(sessionStorage.getItem('impeto.domains')).toBeNull();
    expect(sessionStorage.getItem('impeto.selected_domain')).toBeNull();
  });

  it('says in a toast, besides the inline alert, that the domain list failed to load', async () => {
    renderPage('/domains', {
      session: true,
      fetch: {
        [`/api/domain/list/${COMPANY}`]: {
          status: 400,
          body: { message: 'Não foi possível listar seus domínios.', code: 'X' },
        },
      },
    });
    expect(await screen.findByText('Não foi possível carregar seus domínios')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('Não foi possível listar seus domínios.')).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy();
  });

  it('sends a company without domains to /domains, where the add modal opens by itself', async () => {
    const { router, calls } = renderPage('/v2/campaigns', { session: true, domains: [] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/domains'));
    expect(await screen.findByRole('heading', { name: 'Domínios', level: 2 })).toBeTruthy();
    expect(await screen.findByRole('dialog', { name: 'Adicionando um novo domínio' })).toBeTruthy();
    expect(calls[0]?.headers).toMatchObject({ Authorization: 'Bearer token-123' });
  });

  it('keeps /profile reachable without domains', async () => {
    const { router } = renderPage('/profile', { session: true, domains: [] });
    expect(await screen.findByRole('heading', { name: 'Perfil' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/profile');
  });

  it('redirects old list routes to v2, keeping the query', async () => {
    const { router } = renderPage(`/v1/momentums?domain=${domain().uuid}&x=1`, { session: true, domains: [domain()] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/v2/momentums'));
    expect(new URLSearchParams(router.state.location.search).get('x')).toBe('1');
  });

  it('sends the older create targets to the v2 create forms, keeping uuid and mode (spec doc 2 §2.1)', async () => {
    const campaign = renderPage(`/campaign/create?domain=${domain().uuid}`, { session: true, domains: [domain()] });
    await waitFor(() => expect(campaign.router.state.location.pathname).toBe('/v2/campaign/create'));
    campaign.unmount();
    const momentum = renderPage(`/v1/momentum/create?domain=${domain().uuid}&uuid=abc&mode=view`, {
      session: true,
      domains: [domain()],
    }).router;
    await waitFor(() => expect(momentum.state.location.pathname).toBe('/v2/momentum/create'));
    const query = new URLSearchParams(momentum.state.location.search);
    expect([query.get('uuid'), query.get('mode')]).toEqual(['abc', 'view']);
  });
});

describe('shell', () => {
  it('selects a domain still to be validated and keeps feature pages away while it is not allowed', async () => {
    const { router } = renderPage('/v2/momentums', { session: true, domains: [domain({ gero_validate: false })] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/domains'));
    await waitFor(() => expect(router.state.location.search).toBe(`?domain=${domain().uuid}`));
    expect(JSON.parse(sessionStorage.getItem('impeto.selected_domain') ?? 'null')).toMatchObject({
      uuid: domain().uuid,
      domain_uuid: domain().uuid,
      root: 'https://loja.example.com',
      domain_root: 'https://loja.example.com',
      gero_id: 'G-123',
      domain_gero_id: 'G-123',
      domain_index: 0,
      status: 'Active',
      allowed: false,
    });
  });

  it('logs out: calls the server, clears session and domain state, lands on /signin without an origin', async () => {
    const { router, calls } = renderPage('/v2/campaigns', {
      session: true,
      domains: [domain()],
      fetch: { 'POST /api/users/logout': { status: 500, body: { message: 'falhou', code: 'X' } } },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
    expect(calls.some((c) => c.url === '/api/users/logout' && c.method === 'POST')).toBe(true);
    expect(sessionStorage.getItem('impeto.session')).toBeNull();
    expect(sessionStorage.getItem('impeto.selected_domain')).toBeNull();
    expect(sessionStorage.getItem('impeto.domains')).toBeNull();
    expect(sessionStorage.getItem('impeto.origin')).toBeNull();
    expect(router.state.location.state).toBeNull();
  });
});

describe('404 page', () => {
  it('shows the not-found message with a link back to /', async () => {
    renderPage('/nao-existe');
    expect(await screen.findByRole('heading', { name: '404 / Página não encontrada' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Voltar para o início' }).getAttribute('href')).toBe('/');
  });
});
