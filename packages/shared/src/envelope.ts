/** The request envelope (DESIGN.md §11): HPKE base mode, DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM. */
export const ENVELOPE_VERSION = 1;
export interface Envelope {
  _pid: string;
  _edv: number;
  _mt: string;
  ed: string;
}
export const isEnvelope = (body: unknown): body is Envelope =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as Envelope)._pid === 'string' &&
  typeof (body as Envelope)._mt === 'string' &&
  typeof (body as Envelope).ed === 'string';

export const toBase64Url = (bytes: ArrayBuffer | Uint8Array) => {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let s = '';
  for (const b of u8) s += String.fromCharCode(b);
  return btoa(s).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
};
export const fromBase64Url = (text: string) => {
  const b = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out;
};

import { Aes128Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core';

export const envelopeSuite = () =>
  new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });

/** Binds every envelope to this protocol and version. */
export const ENVELOPE_INFO = new TextEncoder().encode('impeto-envelope-v1');

/** Seals a JSON body to the server's public key (base64url raw X25519), as the dashboard does. */
export async function sealEnvelope(key: { _pid: string; public_key: string }, body: unknown): Promise<Envelope> {
  const suite = envelopeSuite();
  const recipientPublicKey = await suite.kem.deserializePublicKey(fromBase64Url(key.public_key).buffer as ArrayBuffer);
  const sender = await suite.createSenderContext({ recipientPublicKey, info: ENVELOPE_INFO.buffer as ArrayBuffer });
  const ed = await sender.seal(new TextEncoder().encode(JSON.stringify(body)).buffer as ArrayBuffer);
  return { _pid: key._pid, _edv: ENVELOPE_VERSION, _mt: toBase64Url(sender.enc), ed: toBase64Url(ed) };
}
