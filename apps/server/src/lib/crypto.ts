import { createHash, createHmac, randomBytes } from 'node:crypto';

/** A fresh 256-bit secret, base64url. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Tokens are stored by their SHA-256 only; the token itself never reaches the database. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A sub-key for one purpose, derived from SECRET_KEY, so one secret serves several uses independently. */
export const deriveKey = (secret: string, purpose: string) =>
  createHmac('sha256', secret).update(`impeto:${purpose}`).digest();
