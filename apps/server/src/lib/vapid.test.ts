import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fullVapidPrivateKey, newVapidKeys } from './vapid.ts';

describe('VAPID keys', () => {
  it('are always made with a 32-byte private key (Node drops leading zero bytes, 1 key in 256)', () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 3000; i++) lengths.add(Buffer.from(newVapidKeys().privateKey, 'base64url').length);
    expect([...lengths]).toEqual([32]);
  });

  it('a short stored key is padded to the same key, not changed', () => {
    let ecdh = createECDH('prime256v1');
    do {
      ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
    } while (ecdh.getPrivateKey().length === 32);
    const padded = Buffer.from(fullVapidPrivateKey(ecdh.getPrivateKey('base64url')), 'base64url');
    expect(padded.length).toBe(32);
    const again = createECDH('prime256v1');
    again.setPrivateKey(padded);
    expect(again.getPublicKey('base64url')).toBe(ecdh.getPublicKey('base64url'));
  });
});
