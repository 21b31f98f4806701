import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The token in an e-mail's unsubscribe link: the person's uuid and an HMAC of it under SECRET_KEY, so the link
 * works without signing in and cannot be forged for another person. It never expires: an old e-mail's link
 * must still unsubscribe (RFC 8058 asks for links that keep working).
 */

const mac = (secret: string, personUuid: string) =>
  createHmac('sha256', secret).update(`unsubscribe:email:${personUuid}`).digest().subarray(0, 16);

export function unsubscribeToken(secret: string, personUuid: string) {
  const id = Buffer.from(personUuid.replace(/-/g, ''), 'hex').toString('base64url');
  return `${id}.${mac(secret, personUuid).toString('base64url')}`;
}

/** The person's uuid, or undefined when the token is malformed or forged. */
export function readUnsubscribeToken(secret: string, token: string): string | undefined {
  const [id, sig] = token.split('.');
  if (!id || !sig || !/^[A-Za-z0-9_-]{22}$/.test(id)) return undefined;
  const hex = Buffer.from(id, 'base64url').toString('hex');
  if (hex.length !== 32) return undefined;
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const given = Buffer.from(sig, 'base64url');
  const expected = mac(secret, uuid);
  return given.length === expected.length && timingSafeEqual(given, expected) ? uuid : undefined;
}

export const unsubscribeUrl = (publicUrl: string, secret: string, personUuid: string) =>
  `${publicUrl}/api/unsubscribe/${unsubscribeToken(secret, personUuid)}`;
