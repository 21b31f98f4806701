import { describe, expect, it } from 'vitest';
import { msg } from '../messages.ts';
import { passwordSchema } from './auth.schema.ts';
import { passwordWeakness, resetPasswordStrongSchema, signupUserStrongSchema } from './password-strength.ts';

describe('password strength', () => {
  it('refuses common passwords, names and keyboard walks, with advice in pt-BR', () => {
    for (const weak of ['12345678', 'password', 'senha123', 'qwertyuiop', 'abcd1234', 'mariana123', 'P@ssw0rd!']) {
      expect(passwordWeakness(weak), weak).toMatch(new RegExp(`^${msg.password.weak} `));
    }
    expect(passwordWeakness('12345678')).toBe(
      `${msg.password.weak} Esta é uma senha muito usada. Adicione mais palavras menos comuns.`,
    );
  });

  it('refuses a password made of spaces', () => {
    expect(passwordWeakness('        ')).toBe(msg.password.blank);
    expect(passwordSchema.safeParse('        ').error?.issues.map((i) => i.message)).toEqual([msg.password.blank]);
  });

  it('accepts long passphrases', () => {
    for (const strong of ['uma senha bem comprida', 'pao-quente-2026', 'senha-forte-123', 'ImpetoTeste!2026']) {
      expect(passwordWeakness(strong), strong).toBeUndefined();
    }
  });

  it("counts the user's own name, username and e-mail against the password", () => {
    const user = {
      company_uuid: '6f1c0f0e-0000-4000-8000-000000000001',
      name: 'Kleberson Tavares',
      username: 'kleberson.tavares',
      email: 'kleberson@tavares.com.br',
      password: 'klebersontavares',
      password_confirmation: 'klebersontavares',
    };
    const result = signupUserStrongSchema.safeParse({ user });
    expect(result.error?.issues).toMatchObject([{ path: ['user', 'password'] }]);
    expect(result.error?.issues[0]?.message).toMatch(new RegExp(`^${msg.password.weak}`));
    const ok = { ...user, password: 'pao-quente-2026', password_confirmation: 'pao-quente-2026' };
    expect(signupUserStrongSchema.safeParse({ user: ok }).success).toBe(true);
  });

  it('applies to the password reset', () => {
    const body = { user: { token: 'abc', password: '12345678', password_confirmation: '12345678' } };
    expect(resetPasswordStrongSchema.safeParse(body).error?.issues).toMatchObject([{ path: ['user', 'password'] }]);
  });
});
