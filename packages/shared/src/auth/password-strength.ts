import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as ptBrDictionary, translations } from '@zxcvbn-ts/language-pt-br';
import { msg } from '../messages.ts';

/*
 * Password strength by zxcvbn-ts with the common-password list, Brazilian Portuguese words and names, the
 * patterns Brazilians pick most, and what the service knows of the person (`passwordUserInputs`).
 * Its own module (imported as '@impeto/shared/password-strength'): the dictionaries weigh about 1 MB, so the
 * dashboard loads them only on the pages that choose a password.
 */

/** zxcvbn's 0–4 scale; 3 means at least 10^8 guesses ("safely unguessable"): no common password, name or word passes. */
export const MIN_PASSWORD_SCORE = 3;
export const MAX_PASSWORD_LENGTH = 200;

/**
 * The roots of the passwords most used in Brazil, most common first (leaked-password studies of .br services
 * and the "mudar/trocar" defaults of help desks): zxcvbn finds them under capitals, l33t and added digits or
 * symbols, so `Senha@123`, `Mudar@2026` and `Flamengo1981` fall with them. Months and names are in the pt-BR lists.
 */
export const BRAZILIAN_PASSWORDS = [
  'senha',
  'mudar',
  'trocar',
  'brasil',
  '123mudar',
  'mudar123',
  'senha123',
  'minhasenha',
  'novasenha',
  'senhanova',
  'trocarsenha',
  'mudarsenha',
  'alterar',
  'acesso',
  'entrar',
  'bemvindo',
  'usuario',
  'administrador',
  'teste',
  'flamengo',
  'mengo',
  'mengao',
  'corinthians',
  'timao',
  'palmeiras',
  'verdao',
  'saopaulo',
  'tricolor',
  'vasco',
  'vascodagama',
  'gremio',
  'internacional',
  'colorado',
  'cruzeiro',
  'atletico',
  'galo',
  'santos',
  'peixe',
  'botafogo',
  'fluminense',
  'bahia',
  'vitoria',
  'fortaleza',
  'sport',
  'coritiba',
  'athletico',
  'brasileiro',
  'brasileira',
  'jesus',
  'jesuscristo',
  'deus',
  'deusefiel',
  'amor',
  'meuamor',
  'teamo',
  'familia',
  'saudade',
  'felicidade',
  'princesa',
  'gatinha',
  'neymar',
  'pele',
  'impeto',
];

let factory: ZxcvbnFactory | undefined;
const estimator = () =>
  (factory ??= new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...ptBrDictionary, brazilianPasswords: BRAZILIAN_PASSWORDS },
  }));

const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
const wordsOf = (s: string) =>
  plain(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/**
 * What the password must not be made of: the person's name, each part of it and the parts run together (with and
 * without accents), the username, the e-mail's local part and domain, and the company's names.
 */
export function passwordUserInputs(person: {
  name?: string | null;
  username?: string | null;
  email?: string | null;
  companies?: (string | null | undefined)[];
}): string[] {
  const inputs = new Set<string>();
  const add = (...values: (string | undefined)[]) => {
    for (const v of values) if (v && v.length >= 3) inputs.add(v.toLowerCase());
  };
  if (person.name) {
    const words = wordsOf(person.name);
    add(person.name, plain(person.name), ...words, words.join(''));
    if (words.length > 2) add(`${words[0]}${words.at(-1)}`);
  }
  if (person.username) add(person.username, wordsOf(person.username).join(''));
  if (person.email) {
    const [local, domain] = person.email.toLowerCase().split('@');
    add(person.email, local, wordsOf(local ?? '').join(''), domain, domain?.split('.')[0]);
  }
  for (const company of person.companies ?? []) if (company) add(company, plain(company), wordsOf(company).join(''));
  return [...inputs];
}

/** Why a password cannot be used (pt-BR, with zxcvbn's own advice), or undefined when it is strong enough. */
export function passwordWeakness(password: string, userInputs: string[] = []): string | undefined {
  if (password.length > MAX_PASSWORD_LENGTH) return msg.signup.passwordTooLong;
  if (password.trim() === '') return msg.password.blank;
  // zxcvbn's cost grows with length; 100 characters are plenty to judge.
  const result = estimator().check(password.slice(0, 100), userInputs.filter(Boolean));
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const advice = [result.feedback.warning, result.feedback.suggestions[0] ?? msg.password.hint].filter(Boolean);
  return [msg.password.weak, ...advice].join(' ');
}
