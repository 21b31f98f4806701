import { beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutWebCrypto } from '../test/render-page.tsx';
import { ApiError, api, resetEnvelopeKey } from './api.ts';
import { getSession, saveSession } from './session.ts';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

describe('api client', () => {
  beforeEach(() => resetEnvelopeKey());

  it('sends the bearer token, JSON content type and pt_BR language header', async () => {
    const restoreCrypto = withoutWebCrypto();
    saveSession(
      {
        name: 'A',
        username: 'a',
        company_uuid: 'c',
        user_uuid: 'u',
        bearer_token: 'tok',
        expire_date: new Date(Date.now() + 60_000).toISOString(),
        modules: {},
      },
      false,
    );
    let seen: RequestInit | undefined;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      seen = init;
      return json(200, { message: 'ok', data: [] });
    });
    try {
      await api.post('/domain/create', { domain: { name: 'Loja' } });
    } finally {
      restoreCrypto();
    }
    expect(seen?.headers).toMatchObject({
      Authorization: 'Bearer tok',
      'Content-Type': 'application/json',
      'Accept-Language': 'pt_BR',
    });
    // Without WebCrypto (a non-secure context) the body goes as plain JSON.
    expect(JSON.parse(String(seen?.body))).toEqual({ domain: { name: 'Loja' } });
  });

  it('turns any non-200 answer into an ApiError with message, code and fields', async () => {
    vi.stubGlobal('fetch', async () =>
      json(409, {
        message: 'Este nome de usuário já está em uso.',
        code: 'USERNAME_TAKEN',
        fields: { username: 'Este nome de usuário já está em uso.' },
      }),
    );
    const error = await api.get('/anything').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 409,
      code: 'USERNAME_TAKEN',
      message: 'Este nome de usuário já está em uso.',
      fields: { username: 'Este nome de usuário já está em uso.' },
    });
  });

  it('clears the session on a 401 of a private call', async () => {
    saveSession(
      {
        name: 'A',
        username: 'a',
        company_uuid: 'c',
        user_uuid: 'u',
        bearer_token: 'tok',
        expire_date: new Date(Date.now() + 60_000).toISOString(),
        modules: {},
      },
      true,
    );
    vi.stubGlobal('fetch', async () =>
      json(401, { message: 'Sua sessão expirou ou é inválida. Entre novamente.', code: 'UNAUTHORIZED' }),
    );
    await expect(api.get('/domain/list/c')).rejects.toBeInstanceOf(ApiError);
    expect(getSession()).toBeNull();
  });
});
