import { createECDH } from 'node:crypto';

const P256_KEY_BYTES = 32;

/**
 * A P-256 private key as the 32 bytes web push asks for. Node's `ECDH.getPrivateKey()` drops leading zero bytes
 * (1 key in 256 comes out 31 bytes long) and web-push refuses anything but 32: such a domain could never push.
 */
export function fullVapidPrivateKey(base64url: string) {
  const raw = Buffer.from(base64url, 'base64url');
  if (raw.length >= P256_KEY_BYTES) return base64url;
  return Buffer.concat([Buffer.alloc(P256_KEY_BYTES - raw.length), raw]).toString('base64url');
}

/** A domain's VAPID key pair, in the raw base64url forms web push uses. */
export function newVapidKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: fullVapidPrivateKey(ecdh.getPrivateKey().toString('base64url')),
  };
}
