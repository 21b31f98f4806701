import { randomUUID } from 'node:crypto';
import { msg } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { sealText } from '../../test/seal-text.ts';
import { isJsonTooDeep, MAX_JSON_DEPTH } from './json-depth.ts';
import { unsubscribeToken } from './unsubscribe-token.ts';

const SITE = 'https://loja-funda.com.br';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const TOO_DEEP = { message: msg.input.jsonTooDeep, code: 'JSON_TOO_DEEP' };

let t: TestApp;
let domain: { uuid: string; gero_id: string };
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  const owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja', SITE);
});
afterAll(() => t.close());

describe('the depth of a JSON text', () => {
  it('counts nested arrays and objects, not brackets inside strings', () => {
    expect(isJsonTooDeep(nestedArrays(MAX_JSON_DEPTH))).toBe(false);
    expect(isJsonTooDeep(nestedArrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(isJsonTooDeep(nestedObjects(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(isJsonTooDeep(`[${'[]'.repeat(500)}]`)).toBe(false);
    expect(isJsonTooDeep(JSON.stringify({ a: '['.repeat(1000), b: '\\"[[[['.repeat(100) }))).toBe(false);
    expect(isJsonTooDeep(`{"a\\"[[":${nestedArrays(MAX_JSON_DEPTH)}}`)).toBe(true);
  });
});

const post = (url: string, payload: string, contentType = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': contentType, origin: SITE, 'user-agent': CHROME },
    payload,
  });

describe('a body nested past the limit', () => {
  it('is a 400 in pt-BR on sign-in, sign-up and unsubscribe (it was a 500)', async () => {
    const unsubscribe = `/api/unsubscribe/${unsubscribeToken(t.app.ctx.config.secretKey, randomUUID())}`;
    const wrong: string[] = [];
    for (const url of ['/api/users/signin', '/api/users/signup', '/api/company/create', unsubscribe]) {
      for (const body of [nestedArrays(10_000), nestedObjects(10_000), `{"user":${nestedArrays(5000)}}`]) {
        const res = await post(url, body);
        if (res.statusCode !== 400 || res.json().code !== TOO_DEEP.code) wrong.push(`${url} → ${res.statusCode}`);
        else expect(res.json()).toEqual(TOO_DEEP);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('is a 400 inside a sealed envelope too, once it is opened', async () => {
    const key = (await t.app.inject({ method: 'GET', url: '/api/envelope/key' })).json().data;
    for (const url of ['/api/company/create', '/api/users/signin']) {
      const res = await post(url, JSON.stringify(await sealText(key, `{"company":{"name":${nestedArrays(10_000)}}}`)));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(TOO_DEEP);
    }
  });

  it('is a 400 at the collector, which keeps collecting', async () => {
    const inside = `{"id":"${domain.gero_id}","vid":"v1","e":[{"t":"ev","c":"x","p":${nestedObjects(10_000)}}]}`;
    for (const body of [nestedArrays(10_000), inside]) {
      for (const contentType of ['text/plain', 'application/json']) {
        const res = await post('/collect', body, contentType);
        expect(res.statusCode, contentType).toBe(400);
        expect(res.json()).toEqual(TOO_DEEP);
      }
    }
    const ok = await post(
      '/collect',
      JSON.stringify({ id: domain.gero_id, vid: 'v1', e: [{ t: 'pv', u: `${SITE}/` }] }),
      'text/plain',
    );
    expect(ok.statusCode).toBe(202);
    expect(ok.json().accepted).toBe(1);
  });

  it('up to the limit is left to the route, which answers as it always did', async () => {
    const res = await post('/api/users/signin', `{"user":${nestedArrays(MAX_JSON_DEPTH - 1)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});

describe('a body that sets __proto__ or constructor.prototype', () => {
  it('is refused sealed exactly as it is plain', async () => {
    const key = (await t.app.inject({ method: 'GET', url: '/api/envelope/key' })).json().data;
    for (const text of [
      '{"__proto__":{"admin":true},"user":{"username":"x","password":"y"}}',
      '{"user":{"constructor":{"prototype":{"admin":true}},"username":"x","password":"y"}}',
    ]) {
      const plain = await post('/api/users/signin', text);
      const sealed = await post('/api/users/signin', JSON.stringify(await sealText(key, text)));
      expect(plain.statusCode).toBe(400);
      expect({ status: sealed.statusCode, body: sealed.json() }).toEqual({ status: 400, body: plain.json() });
    }
  });
});
