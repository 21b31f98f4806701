import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ok, renderPage } from '../../../test/render-page.tsx';

/** Issue #29: /profile speaks pt-BR, and its tables stay readable on a phone. */
const profile = { name: 'Ana Souza', username: 'ana', email: 'ana@loja.com.br', pending_email: null };
const sessions = [
  {
    id: '5b0f0b8e-0000-4000-8000-000000000001',
    device: 'Chrome 130 em Linux',
    mobile: false,
    created_at: '2026-11-20T12:00:00.000Z',
    last_used_at: '2026-11-26T12:00:00.000Z',
    expires_at: '2026-12-20T12:00:00.000Z',
    keep_connected: true,
    current: true,
  },
];
const open = () =>
  renderPage('/profile', {
    session: true,
    fetch: { '/api/profile': ok(profile), '/api/profile/sessions': ok(sessions) },
  });

describe('/profile messages', () => {
  it('answers an empty name and an empty e-mail in Portuguese', async () => {
    open();
    const nameForm = await screen.findByRole('form', { name: 'Nome' }, { timeout: 8000 });
    await userEvent.clear(within(nameForm).getByLabelText('Nome completo'));
    await userEvent.type(within(nameForm).getByLabelText('Nome completo'), ' ');
    await userEvent.click(within(nameForm).getByRole('button', { name: 'Salvar nome' }));
    expect(await within(nameForm).findByText('Informe seu nome completo.')).toBeTruthy();

    const emailForm = screen.getByRole('form', { name: 'Trocar e-mail' });
    await userEvent.click(within(emailForm).getByRole('button', { name: 'Enviar confirmação' }));
    expect(await within(emailForm).findByText('Informe um e-mail válido.')).toBeTruthy();
    await userEvent.type(within(emailForm).getByLabelText('Novo e-mail'), 'ana@');
    await userEvent.click(within(emailForm).getByRole('button', { name: 'Enviar confirmação' }));
    expect(await within(emailForm).findByText('Informe um e-mail válido.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Provide|Please/);
  });

  it('answers a missing new password and a different confirmation in Portuguese', async () => {
    open();
    const form = await screen.findByRole('form', { name: 'Trocar senha' }, { timeout: 8000 });
    await userEvent.type(within(form).getByLabelText('Senha atual'), 'senha-antiga');
    await userEvent.click(within(form).getByRole('button', { name: 'Trocar senha' }));
    expect(await within(form).findByText('Informe a nova senha.')).toBeTruthy();
    expect(within(form).getByText('Repita a nova senha.')).toBeTruthy();
    await userEvent.type(within(form).getByLabelText('Nova senha'), 'Corrida-Longa-2026!');
    await userEvent.type(within(form).getByLabelText('Confirmação da nova senha'), 'Outra-Coisa-2026!');
    await userEvent.click(within(form).getByRole('button', { name: 'Trocar senha' }));
    await waitFor(() => expect(within(form).getByText('A confirmação não é igual à nova senha.')).toBeTruthy());
    expect(form.textContent).not.toMatch(/Provide|Please/);
  });
});
