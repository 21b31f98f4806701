import { msg } from '@impeto/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { COMPANY, renderPage } from '../../../test/render-page.tsx';

const COMMON = `${msg.password.weak} Esta é uma senha muito usada. Adicione mais palavras menos comuns.`;

describe('choosing a password', () => {
  it('sign-up shows why a common password is refused, under the field, and sends nothing', async () => {
    const { calls } = renderPage('/signup/user', { state: { company_uuid: COMPANY, company_name: 'Padaria' } });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nome completo', {}, { timeout: 10_000 }), 'Ana Souza');
    await user.type(screen.getByLabelText('Nome de usuário'), 'ana.souza');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com.br');
    await user.type(screen.getByLabelText('Senha'), '12345678');
    await user.type(screen.getByLabelText('Confirmação de senha'), '12345678');
    await user.click(screen.getByRole('button', { name: 'Criar conta' }));
    expect(await screen.findByText(COMMON, {}, { timeout: 5000 })).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/users/signup')).toHaveLength(0);
  });

  it("sign-up refuses the person's own name and the company's, accents or not, and sends nothing", async () => {
    const { calls } = renderPage('/signup/user', {
      state: { company_uuid: COMPANY, company_name: 'Padaria Pão Quente' },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nome completo', {}, { timeout: 10_000 }), 'João Silva');
    await user.type(screen.getByLabelText('Nome de usuário'), 'jsilva');
    await user.type(screen.getByLabelText('E-mail'), 'contato@exemplo.com.br');
    for (const weak of ['JoaoSilva2026', 'PadariaPaoQuente1']) {
      await user.clear(screen.getByLabelText('Senha'));
      await user.type(screen.getByLabelText('Senha'), weak);
      await user.clear(screen.getByLabelText('Confirmação de senha'));
      await user.type(screen.getByLabelText('Confirmação de senha'), weak);
      await user.click(screen.getByRole('button', { name: 'Criar conta' }));
      expect(await screen.findByText(new RegExp(`^${msg.password.weak}`), {}, { timeout: 5000 }), weak).toBeTruthy();
    }
    expect(calls.filter((c) => c.url === '/api/users/signup')).toHaveLength(0);
  });

  it('sign-up sends a passphrase', async () => {
    const { calls } = renderPage('/signup/user', {
      state: { company_uuid: COMPANY, company_name: 'Padaria' },
      fetch: (url) =>
        url === '/api/users/signup' ? { body: { message: msg.signup.userCreated, data: {} } } : undefined,
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Nome completo', {}, { timeout: 10_000 }), 'Ana Souza');
    await user.type(screen.getByLabelText('Nome de usuário'), 'ana.souza');
    await user.type(screen.getByLabelText('E-mail'), 'ana@exemplo.com.br');
    await user.type(screen.getByLabelText('Senha'), 'pao quente de domingo');
    await user.type(screen.getByLabelText('Confirmação de senha'), 'pao quente de domingo');
    await user.click(screen.getByRole('button', { name: 'Criar conta' }));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/users/signup')).toHaveLength(1), { timeout: 5000 });
  });

  it('reset refuses spaces and common passwords before sending', async () => {
    const { calls } = renderPage('/recovery/reset?token=abc');
    const user = userEvent.setup();
    const password = await screen.findByLabelText('Nova senha', {}, { timeout: 10_000 });
    await user.type(password, '        ');
    await user.type(screen.getByLabelText('Confirmação da nova senha'), '        ');
    await user.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    expect(await screen.findByText(msg.password.blank)).toBeTruthy();
    await user.clear(password);
    await user.type(password, '12345678');
    await user.clear(screen.getByLabelText('Confirmação da nova senha'));
    await user.type(screen.getByLabelText('Confirmação da nova senha'), '12345678');
    await user.click(screen.getByRole('button', { name: 'Salvar nova senha' }));
    expect(await screen.findByText(COMMON, {}, { timeout: 5000 })).toBeTruthy();
    expect(calls.filter((c) => c.url === '/api/users/password')).toHaveLength(0);
  });
});
