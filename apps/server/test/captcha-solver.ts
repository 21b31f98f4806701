import { solveChallenge } from 'altcha-lib';
import { deriveKey as pbkdf2 } from 'altcha-lib/algorithms/pbkdf2';

/*
 * The ALTCHA widget's side of the sign-in captcha, for tests and bench scripts. altcha-lib is a dependency of the
 * server package only, so the bench reaches it through this module (its import resolves from apps/server).
 */

/** Solves a challenge from `GET /api/captcha` and returns the base64 payload the sign-in takes as `captcha`. */
export async function solveCaptchaChallenge(challenge: unknown) {
  type Challenge = Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge: challenge as Challenge, deriveKey: pbkdf2 });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
