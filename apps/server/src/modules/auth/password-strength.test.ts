import { msg } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, outbox, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
});
afterAll(() => t.close());

const newUser = async (password: string) => {
  const company = (await call(t.app, 'POST', '/api/company/create', { company: { name: 'Loja Senhas' } })).body.data
    .company;
  const user = {
    company_uuid: company.uuid,
    name: 'Beatriz Souza',
    username: `bia${Math.random().toString(36).slice(2, 8)}`,
    email: `bia${Math.random().toString(36).slice(2, 8)}@exemplo.com.br`,
    password,
    password_confirmation: password,
  };
  return call(t.app, 'POST', '/api/users/signup', { user });
};

describe('password rules on sign-up and reset', () => {
  it('refuses a common password with pt-BR advice under the field', async () => {
    const res = await newUser('12345678');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.fields['user.password']).toBe(
      `${msg.password.weak} Esta é uma senha muito usada. Adicione mais palavras menos comuns.`,
    );
  });

  it('refuses eight spaces', async () => {
    const res = await newUser('        ');
    expect(res.status).toBe(400);
    expect(res.body.fields['user.password']).toBe(msg.password.blank);
  });

  it('accepts a passphrase', async () => {
    expect((await newUser('uma senha bem comprida')).status).toBe(200);
  });

  it('a reset to a weak password is refused and leaves the link usable', async () => {
    const { user } = await signUpAndSignIn(t.app);
    await call(t.app, 'POST', '/api/users/signup', { user: { email: user.email } });
    const link = (await outbox(t.app)).find((m) => m.to === user.email && m.subject === msg.mail.resetSubject)!
      .links[0]!;
    const token = new URL(link).searchParams.get('token');
    const weak = await call(t.app, 'PUT', '/api/users/password', {
      user: { token, password: 'senha123', password_confirmation: 'senha123' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.fields['user.password']).toMatch(new RegExp(`^${msg.password.weak}`));
    const blank = await call(t.app, 'PUT', '/api/users/password', {
      user: { token, password: '         ', password_confirmation: '         ' },
    });
    expect(blank.body.fields['user.password']).toBe(msg.password.blank);
    const strong = await call(t.app, 'PUT', '/api/users/password', {
      user: { token, password: 'outra frase bem comprida', password_confirmation: 'outra frase bem comprida' },
    });
    expect(strong.status).toBe(200);
  });
});
