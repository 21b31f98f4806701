import { createHash } from 'node:crypto';
import {
  ENVELOPE_INFO,
  ENVELOPE_VERSION,
  type Envelope,
  envelopeSuite,
  fromBase64Url,
  msg,
  toBase64Url,
} from '@impeto/shared';
import { deriveKey } from './crypto.ts';
import { AppError } from './errors.ts';
import { isJsonTooDeep, jsonTooDeep } from './json-depth.ts';

export interface EnvelopeKey {
  pid: string;
  publicKey: string;
  open(envelope: Envelope): Promise<unknown>;
}

const toArrayBuffer = (u8: Uint8Array) => u8.buffer.slice(u8.byteOffset, u8.byteOffset + u8.byteLength) as ArrayBuffer;

/** The server's HPKE key pair, derived from SECRET_KEY so every API process of a deployment shares it. */
export async function createEnvelopeKey(secret: string): Promise<EnvelopeKey> {
  const suite = envelopeSuite();
  const keyPair = await suite.kem.deriveKeyPair(toArrayBuffer(deriveKey(secret, 'envelope')));
  const publicRaw = new Uint8Array(await suite.kem.serializePublicKey(keyPair.publicKey));
  const pid = createHash('sha256').update(publicRaw).digest('base64url').slice(0, 16);
  const invalid = () => new AppError('ENVELOPE_INVALID', 400, msg.common.envelopeInvalid);
  return {
    pid,
    publicKey: toBase64Url(publicRaw),
    async open(envelope) {
      if (envelope._pid !== pid) throw new AppError('ENVELOPE_UNKNOWN_KEY', 400, msg.common.envelopeUnknownKey);
      if (envelope._edv !== ENVELOPE_VERSION) throw invalid();
      let text: string;
      try {
        const recipient = await suite.createRecipientContext({
          recipientKey: keyPair,
          enc: toArrayBuffer(fromBase64Url(envelope._mt)),
          info: toArrayBuffer(ENVELOPE_INFO),
        });
        text = new TextDecoder().decode(await recipient.open(toArrayBuffer(fromBase64Url(envelope.ed))));
      } catch {
        throw invalid();
      }
      if (isJsonTooDeep(text)) throw jsonTooDeep();
      let poisoned = false;
      let value: unknown;
      try {
        // The check Fastify's own parser makes on plain bodies (onProtoPoisoning: 'error'), so a sealed body is
        // refused exactly as the same body sent plain.
        value = JSON.parse(text, (key, v) => {
          if (key === '__proto__') poisoned = true;
          if (key === 'constructor' && v && typeof v === 'object' && Object.hasOwn(v, 'prototype')) poisoned = true;
          return v;
        });
      } catch {
        throw invalid();
      }
      if (poisoned) throw new AppError('INVALID_JSON', 400, msg.common.invalidJson);
      return value;
    },
  };
}

const SECRET_KEYS = /pass|secret|token|captcha|cid|key|apiid|login|username/i;

/** A copy of an opened body fit for a debug log: passwords, tokens and secrets masked. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEYS.test(k) && v != null ? '[redacted]' : redact(v)]),
    );
  }
  return value;
}
