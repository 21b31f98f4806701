import { createECDH, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, inject, it } from 'vitest';

const require = createRequire(import.meta.url);
const { encrypt } = require('./aes128gcm.cjs') as typeof import('./aes128gcm.cjs');
const ece = require('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: unknown; authSecret: string }): Buffer;
};
const b64 = (s: string) => Buffer.from(s, 'base64url');

describe.skipIf(inject('dbKind') === 'postgres')('aes128gcm for web push', () => {
  it('gives the body of RFC 8291 appendix A for its keys, salt and message', () => {
    const body = encrypt(
      'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
      'BTBZMqHH6r4Tts7J_aSIgg',
      Buffer.from('When I grow up, I want to be a watermelon'),
      { salt: b64('DGv6ra1nlYgDCS1FRnbzlw'), privateKey: b64('yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw') },
    );
    expect(body.toString('base64url')).toBe(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
    );
  });

  it('a browser key pair decrypts it; every message has its own salt and sender key', () => {
    const browser = createECDH('prime256v1');
    browser.generateKeys();
    const auth = randomBytes(16).toString('base64url');
    const plain = Buffer.from(JSON.stringify({ title: 'Promoção', message: 'Só hoje: frete grátis ✓' }));
    const a = encrypt(browser.getPublicKey('base64url'), auth, plain);
    const b = encrypt(browser.getPublicKey('base64url'), auth, plain);
    for (const body of [a, b])
      expect(ece.decrypt(body, { version: 'aes128gcm', privateKey: browser, authSecret: auth })).toEqual(plain);
    expect(a.subarray(0, 16)).not.toEqual(b.subarray(0, 16));
    expect(a.subarray(21, 86)).not.toEqual(b.subarray(21, 86));
  });

  it('refuses keys a browser never gives', () => {
    const browser = createECDH('prime256v1');
    const p256dh = browser.generateKeys('base64url');
    const auth = randomBytes(16).toString('base64url');
    expect(() => encrypt('abc', auth, Buffer.from('x'))).toThrow();
    expect(() => encrypt(p256dh, randomBytes(8).toString('base64url'), Buffer.from('x'))).toThrow();
    const offCurve = Buffer.from(p256dh, 'base64url');
    offCurve[64] = (offCurve[64]! ^ 1) & 0xff;
    expect(() => encrypt(offCurve.toString('base64url'), auth, Buffer.from('x'))).toThrow();
  });
});
