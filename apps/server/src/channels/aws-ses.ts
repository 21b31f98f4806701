import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { type BulkEmailEntryResult, SESv2Client, SendBulkEmailCommand, SendEmailCommand } from '@aws-sdk/client-sesv2';
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
 *
 * A campaign's e-mails go out in bulk: sends of one momentum that arrive in the same turn of the event loop (same
 * keys, sender, subject and body) are gathered (up to 50, SES's limit per call) into one SESv2 SendBulkEmail
 * (`POST /v2/email/outbound-bulk-emails`), the content as an inline template whose only variable is the
 * unsubscribe address, given per destination with the List-Unsubscribe headers and the delivery tag. The SDK's
 * per-call work (serialising, signing, middleware) was the bound of the server's event loop at 100,000 e-mails.
 * Each destination gets its own status back (BulkEmailEntryResults). A call refused as a whole for a reason that
 * may be one destination's (a 4xx other than credentials or throttling) is sent again one e-mail at a time, so a
 * bad address fails alone. Assumption (not verifiable offline): with inline template content SES does "simple
 * substitution" of {{name}}; bulk is used only when the unsubscribe address has no HTML-special character and the
 * subject and body have no '{{' or '}}' of their own, so escaping or not gives the same e-mail. Anything else, and
 * a lone send, goes through SendEmail as before.
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

/** SES's limit of destinations per SendBulkEmail call. */
export const SES_BULK_MAX = 50;
const UNSUBSCRIBE_VARIABLE = '{{unsubscribe}}';
const TRANSIENT_BULK = new Set(['TRANSIENT_FAILURE', 'ACCOUNT_THROTTLED', 'ACCOUNT_DAILY_QUOTA_EXCEEDED']);

/** One destination's status in a SendBulkEmail answer, as a send result. */
export function classifyBulkEntry(result: BulkEmailEntryResult | undefined): SendResult {
  if (result?.Status === 'SUCCESS') return { ok: true };
  if (!result?.Status)
    return { ok: false, transient: true, reason: `${PROVIDER} não respondeu sobre este destinatário.` };
  const said = providerMessage(result.Error ?? '');
  return TRANSIENT_BULK.has(result.Status)
    ? { ok: false, transient: true, reason: `${PROVIDER} adiou o envio (${result.Status})${said ? `: ${said}` : ''}` }
    : {
        ok: false,
        transient: false,
        reason: `${PROVIDER} recusou o e-mail (${result.Status})${said ? `: ${said}` : ''}`,
      };
}

interface BulkItem {
  to: string;
  deliveryId: string;
  unsubscribeUrl: string;
  /** The same e-mail through SendEmail (a lone send, or a call refused as a whole). */
  alone: () => Promise<SendResult>;
  resolve: (result: SendResult) => void;
}

interface BulkBatch {
  client: SESv2Client;
  from: string;
  subject: string;
  /** The block's body as given (the batch's identity); html and text are its template with the unsubscribe variable. */
  body: string;
  html: string;
  text: string;
  items: BulkItem[];
}

const hasHtmlSpecial = (s: string) => /[&<>"]/.test(s);
const hasBraces = (s: string) => s.includes('{{') || s.includes('}}');

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

  async function sendAlone(
    client: SESv2Client,
    e: { from: string; to: string; subject: string; body: string; unsubscribeUrl?: string; deliveryId: string },
  ): Promise<SendResult> {
    const { html, text } = emailParts(e.body, e.unsubscribeUrl);
    try {
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: e.from,
          Destination: { ToAddresses: [e.to] },
          Content: {
            Simple: {
              Subject: { Data: e.subject, Charset: 'UTF-8' },
              Body: { Html: { Data: html, Charset: 'UTF-8' }, Text: { Data: text, Charset: 'UTF-8' } },
              ...(e.unsubscribeUrl ? { Headers: unsubscribeHeaders(e.unsubscribeUrl) } : {}),
            },
          },
          EmailTags: [{ Name: 'delivery', Value: e.deliveryId }],
        }),
      );
      return { ok: true };
    } catch (err) {
      return classifySesError(err);
    }
  }

  /** Sends after the same turn of the event loop: what arrived together for one momentum goes in one call. */
  const gathering = new Map<string, BulkBatch>();

  /** Never leaves a send unanswered, whatever happens in the batch. */
  const dispatch = (batch: BulkBatch) =>
    void sendBatch(batch).catch((err: Error) => {
      for (const item of batch.items) item.resolve({ ok: false, transient: true, reason: err.message });
    });

  async function sendBatch(batch: BulkBatch) {
    const { items } = batch;
    if (items.length === 1) {
      items[0]!.resolve(await items[0]!.alone());
      return;
    }
    let results: BulkEmailEntryResult[];
    try {
      const answer = await batch.client.send(
        new SendBulkEmailCommand({
          FromEmailAddress: batch.from,
          DefaultContent: {
            Template: {
              TemplateContent: { Subject: batch.subject, Html: batch.html, Text: batch.text },
              TemplateData: '{}',
            },
          },
          BulkEmailEntries: items.map((item) => ({
            Destination: { ToAddresses: [item.to] },
            ReplacementTags: [{ Name: 'delivery', Value: item.deliveryId }],
            ReplacementEmailContent: {
              ReplacementTemplate: { ReplacementTemplateData: JSON.stringify({ unsubscribe: item.unsubscribeUrl }) },
            },
            ReplacementHeaders: unsubscribeHeaders(item.unsubscribeUrl),
          })),
        }),
      );
      results = answer.BulkEmailEntryResults ?? [];
    } catch (err) {
      const result = classifySesError(err);
      // Credentials, throttling and outages are the whole call's; any other refusal may be one address's.
      if (result.ok || result.transient || result.credentialsRefused) {
        for (const item of items) item.resolve(result);
        return;
      }
      await Promise.all(items.map(async (item) => item.resolve(await item.alone())));
      return;
    }
    for (const [i, item] of items.entries()) item.resolve(classifyBulkEntry(results[i]));
  }

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
      const client = clientFor(accessKeyId, secretAccessKey, region);
      const unsubscribeUrl = delivery.unsubscribeUrl;
      const alone = () =>
        sendAlone(client, { from: source, to, subject, body, unsubscribeUrl, deliveryId: delivery.id });
      if (!unsubscribeUrl || hasHtmlSpecial(unsubscribeUrl) || hasBraces(subject) || hasBraces(body)) return alone();
      // A campaign's sends of one momentum share its channel and content: the batch is found by the momentum and
      // checked against what it was made with (an edit between two sends of one turn sends the odd one alone);
      // the template is rendered once per batch, not per e-mail.
      let batch = gathering.get(delivery.momentumUuid);
      if (
        batch &&
        (batch.client !== client || batch.from !== source || batch.subject !== subject || batch.body !== body)
      )
        return alone();
      return new Promise<SendResult>((resolve) => {
        if (!batch) {
          const { html, text } = emailParts(body, UNSUBSCRIBE_VARIABLE);
          const mine: BulkBatch = { client, from: source, subject, body, html, text, items: [] };
          batch = mine;
          gathering.set(delivery.momentumUuid, mine);
          setImmediate(() => {
            if (gathering.get(delivery.momentumUuid) !== mine) return; // already sent full
            gathering.delete(delivery.momentumUuid);
            dispatch(mine);
          });
        }
        batch.items.push({ to, deliveryId: delivery.id, unsubscribeUrl, alone, resolve });
        if (batch.items.length >= SES_BULK_MAX) {
          gathering.delete(delivery.momentumUuid);
          dispatch(batch);
        }
      });
    },
    async close() {
      for (const c of clients.values()) c.destroy();
      clients.clear();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
