import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as ptBrDictionary, translations } from '@zxcvbn-ts/language-pt-br';
import { msg } from '../messages.ts';
import { z } from '../zod.ts';
import { resetPasswordSchema, signupUserFields } from './auth.schema.ts';

/*
 * Password strength by zxcvbn-ts with the common-password list and Brazilian Portuguese words and names.
 * Its own module (imported as '@impeto/shared/password-strength'): the dictionaries weigh about 1 MB, so the
 * dashboard loads them only on the pages that choose a password.
 */

/** zxcvbn's 0–4 scale; 3 means at least 10^8 guesses ("safely unguessable"): no common password, name or word passes. */
export const MIN_PASSWORD_SCORE = 3;

let factory: ZxcvbnFactory | undefined;
const estimator = () =>
  (factory ??= new ZxcvbnFactory({
    translations,
    graphs: adjacencyGraphs,
    dictionary: { ...commonDictionary, ...ptBrDictionary },
  }));

/** Why a password is too easy to guess (pt-BR, with zxcvbn's own advice), or undefined when it is strong enough. */
export function passwordWeakness(password: string, userInputs: string[] = []): string | undefined {
  if (password.trim() === '') return msg.password.blank;
  // zxcvbn's cost grows with length; 100 characters are plenty to judge.
  const result = estimator().check(password.slice(0, 100), userInputs.filter(Boolean));
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const advice = [result.feedback.warning, result.feedback.suggestions[0] ?? msg.password.hint].filter(Boolean);
  return [msg.password.weak, ...advice].join(' ');
}

/** The sign-up user step with the strength rule (the user's own name, username and e-mail count against it). */
export const signupUserStrongFields = signupUserFields.superRefine((user, ctx) => {
  const weakness = passwordWeakness(user.password, [user.name, user.username, user.email, user.email.split('@')[0]!]);
  if (weakness) ctx.addIssue({ code: 'custom', message: weakness, path: ['password'] });
});
export const signupUserStrongSchema = z.object({ user: signupUserStrongFields });

export const resetPasswordStrongSchema = resetPasswordSchema.superRefine((body, ctx) => {
  const weakness = passwordWeakness(body.user.password);
  if (weakness) ctx.addIssue({ code: 'custom', message: weakness, path: ['user', 'password'] });
});
