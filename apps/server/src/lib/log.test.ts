import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { unsubscribeToken } from './unsubscribe-token.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SITE = 'https://loja-log.com.br';
const VISITOR_IP = '200.160.2.3';
const PROXY_IP = '203.0.113.9';

let t: TestApp;
const lines: { msg: string; req?: Record<string, unknown> }[] = [];
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  t = await createTestApp({ logLevel: 'info', trustProxy: true, authRateLimit: 1000 }, { logStream: stream });
});
afterAll(() => t.close());

it("the request log keeps no visitor's address and no visitor id", async () => {
  const owner = await signUpAndSignIn(t.app);
  const domain = await createDomain(t.app, owner, 'Loja', SITE);
  const visitor = { 'x-forwarded-for': VISITOR_IP, 'user-agent': CHROME, origin: SITE };
  const collect = await t.app.inject({
    method: 'POST',
    url: '/collect',
    remoteAddress: PROXY_IP,
    headers: { ...visitor, 'content-type': 'text/plain' },
    payload: JSON.stringify({ id: domain.gero_id, vid: 'visitante-secreto', e: [{ t: 'pv', u: `${SITE}/` }] }),
  });
  expect(collect.statusCode).toBe(202);
  for (const url of [
    `/collect/pending?id=${domain.gero_id}&vid=visitante-secreto`,
    '/t/loader.js',
    `/t/config/${domain.gero_id}`,
  ]) {
    await t.app.inject({ method: 'GET', url, remoteAddress: PROXY_IP, headers: visitor });
  }
  await t.app.ingestor.drain();

  const visitorLines = lines.filter((l) => /^\/(collect|t\/)/.test(String(l.req?.url ?? '')));
  expect(visitorLines.length).toBeGreaterThanOrEqual(4);
  const text = JSON.stringify(lines);
  expect(text).not.toContain(VISITOR_IP);
  expect(text).not.toContain(PROXY_IP);
  expect(text).not.toContain('visitante-secreto');

  // The dashboard's own requests still say where they came from.
  await t.app.inject({
    method: 'GET',
    url: '/api/health',
    remoteAddress: PROXY_IP,
    headers: { 'x-forwarded-for': '198.51.100.4' },
  });
  expect(lines.some((l) => l.req?.url === '/api/health' && l.req.remoteAddress === '198.51.100.4')).toBe(true);
});

it("an e-mail recipient's unsubscribe request is logged without the token and without the address", async () => {
  const token = unsubscribeToken(t.app.ctx.config.secretKey, randomUUID());
  const from = { remoteAddress: PROXY_IP, headers: { 'x-forwarded-for': VISITOR_IP, 'user-agent': CHROME } };
  const seen = lines.length;
  await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${token}`, ...from });
  await t.app.inject({
    method: 'POST',
    url: `/api/unsubscribe/${token}?origem=email`,
    ...from,
    headers: { ...from.headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'List-Unsubscribe=One-Click',
  });
  await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${token.slice(0, 10)}`, ...from });
  const mine = lines.slice(seen);
  expect(mine.filter((l) => l.req?.url === '/api/unsubscribe/:token')).toHaveLength(3);
  const text = JSON.stringify(mine);
  expect(text).not.toContain(token.slice(0, 10));
  expect(text).not.toContain(VISITOR_IP);
  expect(text).not.toContain(PROXY_IP);
  expect(text).not.toContain('origem');
});

it('behind proxies named in TRUST_PROXY, a dashboard request is logged with the address the proxy saw', async () => {
  const seen: { req?: Record<string, unknown> }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) seen.push(JSON.parse(line));
      done();
    },
  });
  const proxied = await createTestApp({ logLevel: 'info', trustProxy: '127.0.0.1' }, { logStream: stream });
  try {
    // The client wrote the first entry; the proxy on 127.0.0.1 appended the address it saw.
    await proxied.app.inject({
      method: 'GET',
      url: '/api/health',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': `6.6.6.6, ${VISITOR_IP}` },
    });
    expect(seen.find((l) => l.req?.url === '/api/health')?.req?.remoteAddress).toBe(VISITOR_IP);
  } finally {
    await proxied.close();
  }
});

it('links that carry a secret are logged without it: reset tokens, validation ids, sign-in codes', async () => {
  const before = lines.length;
  for (const url of [
    '/recovery/reset?token=segredo-de-reset',
    '/validate?cid=segredo-de-validacao&x=1',
    '/profile/email?token=segredo-de-email',
    '/api/users/password?token=segredo-de-api',
  ])
    await t.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' });
  const logged = lines.slice(before).map((l) => String(l.req?.url ?? ''));
  expect(logged).toContain('/recovery/reset?token=:redacted');
  expect(logged).toContain('/validate?cid=:redacted&x=1');
  expect(JSON.stringify(lines.slice(before))).not.toContain('segredo');
});
