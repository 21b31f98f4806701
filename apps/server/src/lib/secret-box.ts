import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deriveKey } from './crypto.ts';

/** AES-256-GCM with a key derived from SECRET_KEY; output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function createSecretBox(secret: string) {
  const key = deriveKey(secret, 'secret-box');
  return {
    seal(plain: string) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed: string) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('secret-box: formato desconhecido');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
export type SecretBox = ReturnType<typeof createSecretBox>;
