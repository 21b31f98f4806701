import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readUnsubscribeToken, unsubscribeToken } from '../lib/unsubscribe-token.ts';
import { maskEmail, maskPhone } from '../modules/deliveries/deliveries.service.ts';
import { classifySesError } from './aws-ses.ts';
import { emailParts, htmlToText, isEmailAddress, sanitizeEmailHtml } from './email-content.ts';
import { classifyStatus, postToProvider } from './provider-http.ts';
import { toE164Mobile } from './zenvia.ts';

describe('e-mail content', () => {
  it('sanitises what could run, keeps what e-mail clients need', () => {
    const html = sanitizeEmailHtml(
      '<table style="width:100%"><tr><td bgcolor="#fff"><img src="https://x.com/a.png" onerror="steal()"></td></tr></table>' +
        '<iframe src="https://evil"></iframe><form action="https://evil"><input></form><a href="javascript:alert(1)">x</a>' +
        '<svg onload="x()"></svg><style>body{}</style><p style="color:red">ok</p>',
    );
    expect(html).toContain('<img src="https://x.com/a.png" />');
    expect(html).toContain('bgcolor="#fff"');
    expect(html).toContain('<p style="color:red">ok</p>');
    expect(html).not.toMatch(/onerror|iframe|<form|<input|javascript:|<svg|onload|<style/i);
  });

  it('writes a readable text part', () => {
    expect(
      htmlToText(
        '<h1>Oi, Ana</h1><p>Frete&nbsp;grátis &amp; 10% off</p><ul><li>Tênis</li><li>Meia</li></ul><a href="https://l.com/x">Comprar</a><br>Até&#33;',
      ),
    ).toBe('Oi, Ana\n\nFrete grátis & 10% off\n\n• Tênis\n• Meia\n\nComprar (https://l.com/x)\nAté!');
  });

  it('plain bodies become HTML paragraphs; the unsubscribe link ends both parts', () => {
    const { html, text } = emailParts('Linha 1\n<Linha 2>', 'https://i.example/api/unsubscribe/t');
    expect(html).toContain('<p>Linha 1<br>&lt;Linha 2&gt;</p>');
    expect(html).toContain('href="https://i.example/api/unsubscribe/t"');
    expect(text).toBe(
      'Linha 1\n<Linha 2>\n\nNão quero mais receber estes e-mails: https://i.example/api/unsubscribe/t',
    );
  });

  it('recognises addresses', () => {
    expect(isEmailAddress('ana@loja.com.br')).toBe(true);
    for (const bad of ['ana', 'ana@loja', 'a b@c.com', '<a@b.com>', null, ''])
      expect(isEmailAddress(bad as string)).toBe(false);
  });
});

describe('phones and masks', () => {
  it('normalises Brazilian mobiles to E.164 digits and refuses the rest', () => {
    expect(toE164Mobile('(11) 98765-4321')).toBe('5511987654321');
    expect(toE164Mobile('+55 21 99876-5432')).toBe('5521998765432');
    expect(toE164Mobile('11987654321')).toBe('5511987654321');
    expect(toE164Mobile('1133334444')).toBeUndefined(); // landline: no SMS
    expect(toE164Mobile('12345')).toBeUndefined();
    expect(toE164Mobile(null)).toBeUndefined();
  });

  it('masks recipients in the delivery log', () => {
    expect(maskEmail('cliente12@exemplo.com.br')).toBe('c***2@e***o.com.br');
    expect(maskEmail('a@b.io')).toBe('a***@b***.io');
    expect(maskPhone('11987654321')).toBe('(11) *****-4321');
    expect(maskPhone('5511987654321')).toBe('(11) *****-4321');
  });
});

describe('unsubscribe tokens', () => {
  const person = '3f2b8c1e-7d4a-4b9e-a1c2-0e9f8d7c6b5a';
  it('round-trip, and a forged or altered token is refused', () => {
    const token = unsubscribeToken('segredo-1', person);
    expect(readUnsubscribeToken('segredo-1', token)).toBe(person);
    expect(readUnsubscribeToken('segredo-2', token)).toBeUndefined();
    const other = unsubscribeToken('segredo-1', '00000000-0000-4000-8000-000000000000');
    expect(readUnsubscribeToken('segredo-1', `${token.split('.')[0]}.${other.split('.')[1]}`)).toBeUndefined();
    expect(readUnsubscribeToken('segredo-1', 'lixo')).toBeUndefined();
  });
});

describe('classifying provider answers', () => {
  it('HTTP statuses', () => {
    const h = (retry?: string) => new Headers(retry ? { 'retry-after': retry } : {});
    expect(classifyStatus('Zenvia', 200, h(), '')).toEqual({ ok: true });
    expect(classifyStatus('Zenvia', 401, h(), 'Unauthorized')).toMatchObject({
      credentialsRefused: true,
      transient: false,
    });
    expect(classifyStatus('Zenvia', 429, h('30'), '')).toMatchObject({ transient: true, retryAfterSeconds: 30 });
    expect(classifyStatus('Zenvia', 503, h(), 'down')).toMatchObject({ transient: true });
    expect(classifyStatus('Zenvia', 400, h(), 'Invalid destination')).toMatchObject({
      transient: false,
      reason: 'Zenvia recusou a mensagem (400): Invalid destination',
    });
  });

  it('SES SDK errors', () => {
    const err = (name: string, status?: number, headers: Record<string, string> = {}) =>
      Object.assign(new Error(`${name} message`), {
        name,
        $metadata: { httpStatusCode: status },
        $response: { headers },
      });
    expect(classifySesError(err('SignatureDoesNotMatch', 403))).toMatchObject({ credentialsRefused: true });
    expect(classifySesError(err('TooManyRequestsException', 429, { 'retry-after': '7' }))).toMatchObject({
      transient: true,
      retryAfterSeconds: 7,
    });
    expect(classifySesError(err('MessageRejected', 400))).toMatchObject({ transient: false });
    expect(classifySesError(err('InternalFailure', 500))).toMatchObject({ transient: true });
    expect(classifySesError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toMatchObject({
      transient: true,
    });
  });

  it('no answer: refused connection and timeout are transient', async () => {
    const server = http.createServer(() => {}); // never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const slow = await postToProvider('Akna', `http://127.0.0.1:${port}/x`, { headers: {}, body: '' }, 200);
    expect(slow).toMatchObject({ ok: false, transient: true, reason: 'Akna não respondeu em 0.2 s.' });
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    const refused = await postToProvider('Akna', `http://127.0.0.1:${port}/x`, { headers: {}, body: '' });
    expect(refused).toMatchObject({ ok: false, transient: true });
    expect((refused as { reason: string }).reason).toContain('ECONNREFUSED');
  });
});
