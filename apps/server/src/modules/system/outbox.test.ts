import { Writable } from 'node:stream';
import { msg } from '@impeto/shared';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { PROXY_HEADERS } from '../../../test/proxy-headers.ts';
import { createMailer } from '../../lib/mailer.ts';

const outboxFrom = (t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/api/dev/outbox', remoteAddress, headers });

describe('development outbox in development, without SMTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ nodeEnv: 'development', authRateLimit: 1000 });
  });
  afterAll(() => t.close());

  it('is served to this machine, with the validation link, over IPv4 and IPv6 loopback', async () => {
    const { user } = await signUpAndSignIn(t.app, { validate: false });
    for (const address of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) {
      const res = await outboxFrom(t, address);
      expect(res.statusCode).toBe(200);
      const mail = res.json().data.find((m: { to: string }) => m.to === user.email);
      expect(mail.links[0]).toMatch(/\/validate\?cid=/);
    }
  });

  it('is not served to another machine, whatever X-Forwarded-For claims', async () => {
    for (const [address, headers] of [
      ['203.0.113.7', {}],
      ['10.0.0.8', {}],
      ['::ffff:192.168.0.10', {}],
      ['203.0.113.7', { 'x-forwarded-for': '127.0.0.1' }],
    ] as const) {
      const res = await outboxFrom(t, address, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: msg.common.routeNotFound, code: 'ROUTE_NOT_FOUND' });
    }
  });

  it('is not served through a reverse proxy on this machine, whichever header says so', async () => {
    const served: string[] = [];
    for (const headers of PROXY_HEADERS) {
      const res = await outboxFrom(t, '127.0.0.1', headers);
      if (res.statusCode !== 404) served.push(`${JSON.stringify(headers)} → ${res.statusCode}`);
    }
    expect(served).toEqual([]);
  });
});

describe('development outbox behind a reverse proxy (TRUST_PROXY)', () => {
  it('is off, even for a request whose socket is this machine and that carries no proxy header', async () => {
    for (const trustProxy of [true, 'loopback'] as const) {
      const t = await createTestApp({ nodeEnv: 'development', trustProxy, authRateLimit: 1000 });
      try {
        await signUpAndSignIn(t.app, { validate: false });
        expect(t.app.ctx.mailer.outbox?.length).toBeGreaterThan(0);
        for (const address of ['127.0.0.1', '::1']) {
          const res = await outboxFrom(t, address);
          expect(res.statusCode, `${trustProxy} ${address}`).toBe(404);
          expect(res.json()).toEqual({ message: msg.common.routeNotFound, code: 'ROUTE_NOT_FOUND' });
        }
      } finally {
        await t.close();
      }
    }
  });
});

describe('development outbox elsewhere', () => {
  it('does not exist in production, even for this machine', async () => {
    const t = await createTestApp({ nodeEnv: 'production', authRateLimit: 1000 });
    try {
      const company = await call(t.app, 'POST', '/api/company/create', { company: { name: 'Loja Produção' } });
      const user = {
        company_uuid: company.body.data.company.uuid,
        name: 'Rita',
        username: 'rita.producao',
        email: 'rita@producao.com.br',
        password: 'uma senha bem comprida',
        password_confirmation: 'uma senha bem comprida',
      };
      expect((await call(t.app, 'POST', '/api/users/signup', { user })).status).toBe(200);
      expect(t.app.ctx.mailer.outbox).toBeUndefined();
      expect((await outboxFrom(t, '127.0.0.1')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('does not exist when SMTP is configured', async () => {
    const t = await createTestApp({ nodeEnv: 'development', smtpUrl: 'smtp://127.0.0.1:2525' });
    try {
      expect((await outboxFrom(t, '127.0.0.1')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('mailer without SMTP', () => {
  const capture = () => {
    const lines: { level: number; msg: string; links?: string[] }[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    return { lines, log: pino({ level: 'info' }, stream) as unknown as FastifyBaseLogger };
  };
  const mail = {
    to: 'ana@exemplo.com.br',
    subject: msg.mail.resetSubject,
    text: 'Para escolher uma nova senha, abra:\nhttp://127.0.0.1:8080/recovery/reset?token=abc123\n',
    html: '',
  };

  it('prints the mailed links in the log in development', async () => {
    const { lines, log } = capture();
    await createMailer({ mailFrom: 'x@y.z', nodeEnv: 'development' }, log).send(mail);
    expect(lines[0]!.msg).toContain('http://127.0.0.1:8080/recovery/reset?token=abc123');
    expect(lines[0]!.msg).toContain(mail.to);
  });

  it('keeps no outbox and logs no link in production', async () => {
    const { lines, log } = capture();
    const mailer = createMailer({ mailFrom: 'x@y.z', nodeEnv: 'production' }, log);
    await mailer.send(mail);
    expect(mailer.outbox).toBeUndefined();
    expect(JSON.stringify(lines)).not.toContain('token=abc123');
    expect(lines[0]!.level).toBe(40);
  });
});
