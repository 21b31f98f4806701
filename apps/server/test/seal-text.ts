import { ENVELOPE_INFO, ENVELOPE_VERSION, type Envelope, envelopeSuite, toBase64Url } from '@impeto/shared';

/**
 * Seals a JSON text as the dashboard seals a body. sealEnvelope stringifies a value, and JSON.stringify cannot
 * write a value nested 10,000 deep: the tests that send one seal its text.
 */
export async function sealText(key: { _pid: string; public_key: string }, text: string): Promise<Envelope> {
  const suite = envelopeSuite();
  const raw = Buffer.from(key.public_key, 'base64url');
  const recipientPublicKey = await suite.kem.deserializePublicKey(
    raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer,
  );
  const sender = await suite.createSenderContext({ recipientPublicKey, info: ENVELOPE_INFO.buffer as ArrayBuffer });
  const ed = await sender.seal(new TextEncoder().encode(text).buffer as ArrayBuffer);
  return { _pid: key._pid, _edv: ENVELOPE_VERSION, _mt: toBase64Url(sender.enc), ed: toBase64Url(ed) };
}
