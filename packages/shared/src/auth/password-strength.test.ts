import { describe, expect, it } from 'vitest';
import { msg } from '../messages.ts';
import { passwordSchema } from './auth.schema.ts';
import { passwordUserInputs, passwordWeakness } from './password-strength.ts';

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

  it("counts the user's own name (its parts, without accents), username, e-mail and company against the password", () => {
    const inputs = passwordUserInputs({
      name: 'João da Silva',
      username: 'jsilva',
      email: 'contato@paoquente.com.br',
      companies: ['Padaria Pão Quente', 'Pão Quente Alimentos Ltda.'],
    });
    for (const weak of [
      'JoaoSilva2026',
      'joaodasilva',
      'jsilva2026!',
      'Contato2026!',
      'PaoQuente@2026',
      'PadariaPaoQuente1',
    ]) {
      expect(passwordWeakness(weak, inputs), weak).toMatch(new RegExp(`^${msg.password.weak}`));
    }
    expect(passwordWeakness('JoaoSilva2026'), 'without the inputs').toBeUndefined();
    expect(passwordWeakness('girassol azul na janela 77', inputs)).toBeUndefined();
  });

  it('refuses the common Brazilian patterns', () => {
    for (const weak of [
      'Senha@123',
      'S3nh@2026',
      'Mudar@123',
      '123mudar',
      'Trocar@2026',
      'Brasil@2026',
      'Flamengo1981',
      'Corinthians@1910',
      'Palmeiras10',
      'Janeiro@2026',
      'Dezembro2025!',
    ]) {
      expect(passwordWeakness(weak), weak).toMatch(new RegExp(`^${msg.password.weak}`));
    }
  });

  it('gives a password past 200 characters the length message, before anything else', () => {
    const long = 'a'.repeat(201);
    expect(passwordWeakness(long)).toBe(msg.signup.passwordTooLong);
    expect(passwordSchema.safeParse(long).error?.issues.map((i) => i.message)).toEqual([msg.signup.passwordTooLong]);
    expect(passwordSchema.safeParse(' '.repeat(201)).error?.issues.map((i) => i.message)).toEqual([
      msg.signup.passwordTooLong,
    ]);
    expect(passwordSchema.safeParse(`Girassol azul ${'x'.repeat(186)}`).success).toBe(true);
  });
});
