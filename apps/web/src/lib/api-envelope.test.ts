// @vitest-environment node
// jsdom's typed arrays come from another realm and WebCrypto refuses them; the envelope is tested in Node.
import { ENVELOPE_INFO, envelopeSuite, fromBase64Url, isEnvelope, toBase64Url } from '@impeto/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, resetEnvelopeKey } from './api.ts';

async function serverKeyPair() {
  const suite = envelopeSuite();
  const pair = await suite.kem.generateKeyPair();
  const publicKey = toBase64Url(await suite.kem.serializePublicKey(pair.publicKey));
  const open = async (envelope: { _mt: string; ed: string }) => {
    const recipient = await suite.createRecipientContext({
      recipientKey: pair.privateKey,
      enc: fromBase64Url(envelope._mt).buffer as ArrayBuffer,
      info: ENVELOPE_INFO.buffer as ArrayBuffer,
    });
    return JSON.parse(new TextDecoder().decode(await recipient.open(fromBase64Url(envelope.ed).buffer as ArrayBuffer)));
  };
  return { publicKey, open };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

describe('request envelope', () => {
  beforeEach(() => resetEnvelopeKey());
  afterEach(() => vi.unstubAllGlobals());

  it('seals JSON bodies to the server key, fetched once and cached', async () => {
    const server = await serverKeyPair();
    const opened: unknown[] = [];
    let keyFetches = 0;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      if (url === '/api/envelope/key') {
        keyFetches++;
        return json(200, { message: 'ok', data: { _pid: 'k1', public_key: server.publicKey } });
      }
      const body = JSON.parse(String(init.body));
      if (!isEnvelope(body)) return json(400, { message: 'plain', code: 'PLAIN' });
      opened.push(await server.open(body));
      return json(200, { message: 'Criado', data: { ok: true } });
    });

    const answer = await api.post<{ ok: boolean }>('/company/create', { company: { name: 'Loja' } }, { auth: false });
    await api.post('/company/create', { company: { name: 'Outra' } }, { auth: false });
    expect(answer).toEqual({ message: 'Criado', data: { ok: true } });
    expect(opened).toEqual([{ company: { name: 'Loja' } }, { company: { name: 'Outra' } }]);
    expect(keyFetches).toBe(1);
  });

  it('refetches the key once and retries when the server does not know it', async () => {
    const server = await serverKeyPair();
    let keyFetches = 0;
    let attempts = 0;
    vi.stubGlobal('fetch', async (url: string) => {
      if (url === '/api/envelope/key') {
        keyFetches++;
        return json(200, { message: 'ok', data: { _pid: `k${keyFetches}`, public_key: server.publicKey } });
      }
      attempts++;
      return json(400, {
        message: 'A chave de criptografia da requisição é desconhecida.',
        code: 'ENVELOPE_UNKNOWN_KEY',
      });
    });
    await expect(
      api.post('/users/signin', { user: { username: 'a', password: 'b' } }, { auth: false }),
    ).rejects.toMatchObject({
      code: 'ENVELOPE_UNKNOWN_KEY',
    });
    expect(keyFetches).toBe(2);
    expect(attempts).toBe(2);
  });
});
