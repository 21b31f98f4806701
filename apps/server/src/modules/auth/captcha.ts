import { randomInt } from 'node:crypto';
import { msg } from '@impeto/shared';
import { createChallenge, type Payload, verifySolution } from 'altcha-lib';
import { deriveKey as pbkdf2 } from 'altcha-lib/algorithms/pbkdf2';
import { deriveKey } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';

const CHALLENGE_TTL_MS = 10 * 60_000;

/** ALTCHA proof of work: self-hosted, no third party. Each solved challenge is accepted once. */
export function createCaptcha(secret: string, options: { cost: number; counterMin: number; counterMax: number }) {
  const signatureSecret = deriveKey(secret, 'captcha').toString('base64url');
  const keySecret = deriveKey(secret, 'captcha-key').toString('base64url');
  const used = new Map<string, number>();

  const forget = (now: number) => {
    for (const [sig, expires] of used) if (expires < now) used.delete(sig);
  };

  return {
    challenge: () =>
      createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: options.cost,
        counter: randomInt(options.counterMin, options.counterMax),
        deriveKey: pbkdf2,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySecret,
      }),

    /** Throws the spec's captcha messages unless `encoded` is a fresh, valid, unused solution. */
    async verify(encoded: string) {
      const invalid = new AppError('CAPTCHA_INVALID', 400, msg.signin.captchaInvalid, {
        captcha: msg.signin.captchaInvalid,
      });
      let payload: Payload;
      try {
        payload = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
      } catch {
        throw invalid;
      }
      if (!payload?.challenge?.parameters || !payload.solution || typeof payload.challenge.signature !== 'string')
        throw invalid;
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey: pbkdf2,
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySecret,
      }).catch(() => null);
      if (!result?.verified) throw invalid;
      const now = Date.now();
      forget(now);
      if (used.has(payload.challenge.signature)) throw invalid;
      used.set(payload.challenge.signature, now + CHALLENGE_TTL_MS);
    },
  };
}
export type Captcha = ReturnType<typeof createCaptcha>;
