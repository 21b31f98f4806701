import { msg } from '@impeto/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../../lib/session.ts';
import { COMPANY, ok, renderPage } from '../../../test/render-page.tsx';

const signinAnswer = {
  message: msg.signin.success,
  data: {
    name: 'Ana Souza',
    username: 'ana',
    token: 'tok-1',
    company_uuid: COMPANY,
    user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
    role: { modules: [{ name: 'analytics' }] },
    cookie: { expires: new Date(Date.now() + 3600_000).toISOString() },
  },
};

function solveCaptcha(payload = 'YWx0Y2hhLXBheWxvYWQ=') {
  const widget = document.querySelector('altcha-widget');
  if (!widget) throw new Error('captcha widget missing');
  fireEvent(widget, new CustomEvent('statechange', { detail: { state: 'verified', payload } }));
}

describe('sign in', () => {
  it('opens the terms and the privacy policy in dialogs loaded on demand', async () => {
    renderPage('/signin');
    await userEvent.click(await screen.findByRole('button', { name: 'Termos de uso' }, { timeout: 5000 }));
    const terms = await screen.findByRole('dialog', { name: 'Termos de uso' }, { timeout: 5000 });
    expect(terms.textContent).toContain('A conta pertence à empresa cadastrada');
    await userEvent.click(screen.getByRole('button', { name: 'Política de privacidade' }));
    expect(await screen.findByRole('dialog', { name: 'Política de privacidade' }, { timeout: 5000 })).toBeTruthy();
  });

  it('shows the three required messages on an empty submit and sends nothing', async () => {
    const { calls } = renderPage('/signin');
    await userEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText(msg.signin.usernameRequired)).toBeTruthy();
    expect(screen.getByText(msg.signin.passwordRequired)).toBeTruthy();
    expect(screen.getByText(msg.signin.captchaRequired)).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it('sends keep_connected only when the box is checked, then lands on the remembered origin', async () => {
    const { router, calls } = renderPage('/signin', {
      state: { from: '/settings' },
      fetch: (url) => {
        if (url === '/api/users/signin') return { body: signinAnswer };
        if (url.includes('/domain/list/')) return ok([]);
        return undefined;
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nome de usuário'), 'ana');
    await user.type(screen.getByLabelText('Senha'), 'segredo123');
    solveCaptcha();
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/settings'));
    const signin = calls.find((c) => c.url === '/api/users/signin');
    expect(signin?.json).toEqual({
      user: { username: 'ana', password: 'segredo123' },
      captcha: 'YWx0Y2hhLXBheWxvYWQ=',
    });
    expect(getSession()?.bearer_token).toBe('tok-1');
    expect(localStorage.getItem('impeto.session')).toBeNull();
  });

  it('sends keep_connected: true and keeps the session in localStorage when checked', async () => {
    const { router, calls } = renderPage('/signin', {
      fetch: (url) => {
        if (url === '/api/users/signin') return { body: signinAnswer };
        if (url.includes('/domain/list/')) return ok([]);
        return undefined;
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nome de usuário'), 'ana');
    await user.type(screen.getByLabelText('Senha'), 'segredo123');
    await user.click(screen.getByLabelText('Manter conectado'));
    solveCaptcha();
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/domains'));
    expect(calls.find((c) => c.url === '/api/users/signin')?.json).toMatchObject({ keep_connected: true });
    expect(localStorage.getItem('impeto.session')).not.toBeNull();
  });

  it('selects the first allowed domain as part of signing in and lands on its analytics, not on /domains', async () => {
    const domain = (uuid: string, overrides: Record<string, unknown> = {}) => ({
      uuid,
      name: `Loja ${uuid.slice(0, 1)}`,
      domain: 'https://loja.example.com',
      domain_root: 'https://loja.example.com',
      gero_id: `G-${uuid.slice(0, 1)}`,
      gero_validate: true,
      gero_version: '1.0.0',
      cn_sw_version: '1.0.0',
      status: 'Active',
      active: true,
      ...overrides,
    });
    const unverified = domain('11111111-1111-4111-8111-111111111111', { gero_validate: false });
    const allowed = domain('22222222-2222-4222-8222-222222222222');
    const { router } = renderPage('/signin', {
      fetch: (url) => {
        if (url === '/api/users/signin') return { body: signinAnswer };
        if (url.includes('/domain/list/')) return ok([unverified, allowed]);
        return undefined;
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nome de usuário'), 'ana');
    await user.type(screen.getByLabelText('Senha'), 'segredo123');
    solveCaptcha();
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    await waitFor(() => expect(router.state.location.search).toBe(`?domain=${allowed.uuid}`), { timeout: 5000 });
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the server message in a toast on failure and stays on the page', async () => {
    const { router } = renderPage('/signin', {
      fetch: (url) =>
        url === '/api/users/signin'
          ? { status: 401, body: { message: msg.signin.wrongCredentials, code: 'WRONG_CREDENTIALS' } }
          : undefined,
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nome de usuário'), 'ana');
    await user.type(screen.getByLabelText('Senha'), 'errada');
    solveCaptcha();
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText(msg.signin.wrongCredentials)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/signin');
    expect(getSession()).toBeNull();
  });

  it('greets a just-validated user with a success toast, once: a reload does not greet again', async () => {
    const { router } = renderPage('/signin', { state: { validated: true, from: '/v2/momentums' } });
    expect(await screen.findByText(msg.signin.validated)).toBeTruthy();
    // History state is what a reload restores: the flag is gone from it, the origin stays.
    await waitFor(() => expect(router.state.location.state).toEqual({ from: '/v2/momentums' }));
    expect(router.state.location.pathname).toBe('/signin');
  });

  it('solves a fresh captcha by itself after a failed sign-in (a solution is good for one attempt)', async () => {
    const widget = () => document.querySelector('altcha-widget') as unknown as Record<string, unknown>;
    renderPage('/signin', {
      fetch: (url) =>
        url === '/api/users/signin'
          ? { status: 400, body: { message: msg.signin.wrongCredentials, code: 'INVALID_CREDENTIALS' } }
          : undefined,
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nome de usuário'), 'ana');
    await user.type(screen.getByLabelText('Senha'), 'errada');
    solveCaptcha();
    const calls: string[] = [];
    widget().reset = () => calls.push('reset');
    widget().verify = async () => {
      calls.push('verify');
      return null;
    };
    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText(msg.signin.wrongCredentials)).toBeTruthy();
    await waitFor(() => expect(calls).toEqual(['reset', 'verify']));
  });
});

describe('sign-up, step 1', () => {
  it('speaks pt-BR on its buttons', async () => {
    renderPage('/signup/company');
    expect(await screen.findByRole('button', { name: 'Voltar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Avançar' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Go back|Next/ })).toBeNull();
  });
});
