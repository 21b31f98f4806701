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

describe("the person's own names, Brazilian patterns and the length limit", () => {
  const LONG = `Girassol azul ${'na janela '.repeat(20)}`.slice(0, 201);
  const joao = async (tag: string) => {
    const company = (await call(t.app, 'POST', '/api/company/create', { company: { name: 'Padaria Pão Quente' } })).body
      .data.company;
    return {
      company_uuid: company.uuid as string,
      name: 'João Silva',
      username: `jsilva${tag}`,
      email: `contato${tag}@paoquente.com.br`,
    };
  };
  const signupWith = async (user: Record<string, string>, password: string) =>
    call(t.app, 'POST', '/api/users/signup', { user: { ...user, password, password_confirmation: password } });

  it("refuses the user's own name, the company's name and common Brazilian patterns; 201 characters get the length message", async () => {
    const user = await joao(`${Date.now()}`);
    for (const weak of [
      'JoaoSilva2026',
      'PadariaPaoQuente1',
      'Senha@123',
      'Mudar@2026',
      'Flamengo1981',
      'Janeiro@2026',
    ]) {
      const res = await signupWith(user, weak);
      expect(res.status, weak).toBe(400);
      expect(res.body.fields['user.password'], weak).toMatch(new RegExp(`^${msg.password.weak}`));
    }
    const long = await signupWith(user, LONG);
    expect(long.status).toBe(400);
    expect(long.body.message).toBe(msg.signup.passwordTooLong);
    expect(long.body.fields['user.password']).toBe(msg.signup.passwordTooLong);
    const ok = await signupWith(user, 'girassol azul na janela 77');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
  });

  it("the reset knows the account's name and company too", async () => {
    const user = await joao(`${Date.now()}`);
    expect((await signupWith(user, 'girassol azul na janela 77')).status).toBe(200);
    await call(t.app, 'POST', '/api/users/signup', { user: { email: user.email } });
    await new Promise((r) => setTimeout(r, 50));
    const reset = (await outbox(t.app)).find((m) => m.to === user.email && m.subject === msg.mail.resetSubject)!;
    const token = new URL(reset.links[0]!).searchParams.get('token');
    const resetWith = (password: string) =>
      call(t.app, 'PUT', '/api/users/password', { user: { token, password, password_confirmation: password } });
    for (const weak of ['JoaoSilva2026', 'PadariaPaoQuente1', 'Senha@123']) {
      const res = await resetWith(weak);
      expect(res.status, weak).toBe(400);
      expect(res.body.fields['user.password'], weak).toMatch(new RegExp(`^${msg.password.weak}`));
    }
    const long = await resetWith(LONG);
    expect(long.status).toBe(400);
    expect(long.body.message).toBe(msg.signup.passwordTooLong);
    // A refused password does not spend the link.
    expect((await resetWith('Outra frase bem longa 2026!')).status).toBe(200);
  });
});
