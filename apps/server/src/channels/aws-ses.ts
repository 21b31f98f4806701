import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { ChannelAdapter, SendResult } from './channel.ts';
import { EMAIL_OPTOUT_ATTRIBUTES, emailParts, isEmailAddress, unsubscribeHeaders } from './email-content.ts';
import { classifyStatus, hasOptedOut, nonEmpty, providerMessage, skip } from './provider-http.ts';
import { parseRetryAfter } from './web-push.ts';

/*
 * E-mail through Amazon SES (SESv2 SendEmail, `POST /v2/email/outbound-emails`, SigV4-signed by the SDK with the
 * channel's access keys and region). From is the channel's `source`; subject and body come from the block; the
 * HTML is sanitised and a plain-text part generated; List-Unsubscribe with one-click POST (RFC 8058) is set.
 * `AWS_SES_ENDPOINT` replaces the regional endpoint (tests and staging point it at a local peer).
 * The SDK's own retries are off (maxAttempts 1): the engine retries with its backoff and Retry-After.
 */

const PROVIDER = 'Amazon SES';
const CREDENTIAL_ERRORS = new Set([
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'UnrecognizedClientException',
  'IncompleteSignature',
  'MissingAuthenticationToken',
  'AccessDeniedException',
  'AccessDenied',
  'ExpiredTokenException',
]);
const THROTTLING = new Set(['TooManyRequestsException', 'ThrottlingException', 'Throttling', 'LimitExceededException']);

export interface SesOptions {
  /** AWS_SES_ENDPOINT; unset → the SDK's regional endpoint. */
  endpoint?: string;
  timeoutMs?: number;
  maxSockets?: number;
}

interface SdkError extends Error {
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string> };
  $fault?: 'client' | 'server';
  code?: string;
}

export function classifySesError(err: unknown, now = Date.now()): SendResult {
  const e = err as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const said = providerMessage(e.message || e.name || '');
  if (CREDENTIAL_ERRORS.has(e.name) || status === 401 || status === 403)
    return {
      ok: false,
      transient: false,
      credentialsRefused: true,
      reason: `Credenciais recusadas pelo provedor (${PROVIDER}, ${e.name})${said ? `: ${said}` : ''}`,
    };
  if (!status)
    return { ok: false, transient: true, reason: `Falha de rede ao falar com ${PROVIDER} (${e.code ?? said}).` };
  if (THROTTLING.has(e.name) || status === 429) {
    const retryAfterSeconds = parseRetryAfter(e.$response?.headers?.['retry-after'], now);
    return {
      ok: false,
      transient: true,
      reason: `${PROVIDER} limitou o envio (${e.name})${said ? `: ${said}` : ''}`,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    };
  }
  return classifyStatus(PROVIDER, status, new Headers(e.$response?.headers ?? {}), `${e.name}: ${said}`, now);
}

export function createSesAdapter(options: SesOptions = {}): ChannelAdapter {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 128 };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  // One client per (keys, region): the SDK caches its signing key per client.
  const clients = new Map<string, SESv2Client>();
  const clientFor = (accessKeyId: string, secretAccessKey: string, region: string) => {
    const key = createHash('sha256').update(`${accessKeyId}\0${secretAccessKey}\0${region}`).digest('hex');
    let client = clients.get(key);
    if (!client) {
      if (clients.size > 1000) clients.clear();
      client = new SESv2Client({
        region,
        credentials: { accessKeyId, secretAccessKey },
        maxAttempts: 1,
        ...(options.endpoint ? { endpoint: options.endpoint } : {}),
        requestHandler: { httpAgent, httpsAgent, requestTimeout: options.timeoutMs ?? 10_000 },
      });
      clients.set(key, client);
    }
    return client;
  };

  return {
    type: 'AWS_SES',
    async send(delivery) {
      const p = delivery.channelProperties;
      const accessKeyId = nonEmpty(p.accessKeyId);
      const secretAccessKey = nonEmpty(p.secretAccessKey);
      const region = nonEmpty(p.region);
      const source = nonEmpty(p.source);
      if (!accessKeyId || !secretAccessKey || !region || !source)
        return { ok: false, transient: false, reason: 'Canal Amazon SES sem credenciais, região ou remetente.' };
      if (hasOptedOut(delivery.person.attributes, EMAIL_OPTOUT_ATTRIBUTES))
        return skip('O visitante cancelou o recebimento de e-mails.');
      const to = delivery.person.email;
      if (!isEmailAddress(to)) return skip(to ? 'E-mail do visitante inválido.' : 'Visitante sem e-mail.');
      const subject = String(delivery.content.subject ?? '').trim();
      const body = String(delivery.content.body ?? '');
      if (!subject || !body.trim()) return { ok: false, transient: false, reason: 'E-mail sem assunto ou corpo.' };
      const { html, text } = emailParts(body, delivery.unsubscribeUrl);
      try {
        await clientFor(accessKeyId, secretAccessKey, region).send(
          new SendEmailCommand({
            FromEmailAddress: source,
            Destination: { ToAddresses: [to] },
            Content: {
              Simple: {
                Subject: { Data: subject, Charset: 'UTF-8' },
                Body: { Html: { Data: html, Charset: 'UTF-8' }, Text: { Data: text, Charset: 'UTF-8' } },
                ...(delivery.unsubscribeUrl ? { Headers: unsubscribeHeaders(delivery.unsubscribeUrl) } : {}),
              },
            },
            EmailTags: [{ Name: 'delivery', Value: delivery.id }],
          }),
        );
        return { ok: true };
      } catch (err) {
        return classifySesError(err);
      }
    },
    async close() {
      for (const c of clients.values()) c.destroy();
      clients.clear();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
