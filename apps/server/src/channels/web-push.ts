import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import webpush from 'web-push';
import { createSafeAgents, isPrivateAddressError } from '../lib/safe-agent.ts';
import { fullVapidPrivateKey } from '../lib/vapid.ts';
import type { ChannelAdapter, ChannelDelivery, SendResult } from './channel.ts';
import { createEncryptPool } from './encrypt-pool.ts';
import { createPushHttp2 } from './push-http2.ts';

/*
 * Web push (RFC 8030) with aes128gcm payloads (RFC 8291, aes128gcm.cjs) and VAPID (RFC 8292, signed by web-push once
 * per (domain key, push service) instead of once per message). Requests go over one HTTP/2 connection per push
 * service when it offers h2 (push-http2.ts), else through one keep-alive HTTP/1.1 agent.
 */

/**
 * RFC 8291 §4: a 4,096-byte body (what every push service must accept) holds 3,993 bytes of plaintext once the
 * 86-byte header, the padding delimiter and the 16-byte tag are counted. Bigger payloads are refused before
 * encrypting: a real service would answer 413.
 */
export const MAX_PAYLOAD_BYTES = 3993;
const VAPID_VALIDITY_SECONDS = 12 * 60 * 60;
const VAPID_REFRESH_BEFORE_SECONDS = 60 * 60;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface WebPushAdapterOptions {
  /** VAPID `sub`: mailto: or https: (VAPID_SUBJECT). */
  subject: string;
  /**
   * ALLOW_PRIVATE_FETCH. Off (production), an endpoint whose host is or resolves to a loopback, private or
   * link-local address is never connected to (lib/safe-agent.ts): a visitor cannot make the engine post inside
   * our network with a forged subscription.
   */
  allowPrivate: boolean;
  /** Resolver for the endpoints' host names (tests); default node:dns. */
  resolve?: LookupFunction;
  /** Extra trusted CA (PEM), added to Node's roots and NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer;
  maxSockets?: number;
  timeoutMs?: number;
  /** Threads that encrypt payloads (default one per spare core, at most 4; 0 encrypts on the event loop). */
  encryptThreads?: number;
  /**
   * Wall-clock time (ms since epoch) for the VAPID `exp` and Retry-After dates. Push services check `exp`
   * against their real clock, so never pass the engine's test clock here; only tests of the header cache do.
   */
  wallClock?: () => number;
}

export interface PushButton {
  action?: string;
  title: string;
  url?: string;
}

export interface PushPayload {
  title?: string;
  message?: string;
  icon_uri?: string;
  image?: string;
  redirect_uri?: string;
  buttons?: PushButton[];
  delivery_id: string;
}

const nonEmpty = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function pushButtons(raw: unknown): PushButton[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const buttons: PushButton[] = [];
  for (const b of raw) {
    if (!b || typeof b !== 'object') continue;
    const o = b as Record<string, unknown>;
    const title = nonEmpty(o.title) ?? nonEmpty(o.text) ?? nonEmpty(o.label);
    if (!title) continue;
    const url = nonEmpty(o.url) ?? nonEmpty(o.link) ?? nonEmpty(o.redirect_uri);
    const action = nonEmpty(o.action);
    buttons.push({ ...(action ? { action } : {}), title, ...(url ? { url } : {}) });
  }
  return buttons.length ? buttons : undefined;
}

/** The JSON the service worker reads (packages/tracker/src/sw.ts); empty fields are left out. */
export function buildPushPayload(delivery: Pick<ChannelDelivery, 'id' | 'content'>): PushPayload {
  const c = delivery.content;
  const payload: Record<string, unknown> = {
    title: nonEmpty(c.title),
    message: nonEmpty(c.message),
    icon_uri: nonEmpty(c.icon_uri) ?? nonEmpty(c.icon),
    image: nonEmpty(c.image),
    redirect_uri: nonEmpty(c.redirect_uri) ?? nonEmpty(c.url),
    buttons: pushButtons(c.notification_buttons ?? c.buttons),
    delivery_id: delivery.id,
  };
  for (const k of Object.keys(payload)) if (payload[k] === undefined) delete payload[k];
  return payload as unknown as PushPayload;
}

export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  if (/^\s*\d+\s*$/.test(v)) return Number(v);
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function trustedCas(ca: string | Buffer) {
  const cas: (string | Buffer)[] = [...tls.rootCertificates, ca];
  // An explicit `ca` replaces Node's store, NODE_EXTRA_CA_CERTS included: put both back.
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  if (extra) {
    try {
      cas.push(readFileSync(extra));
    } catch {}
  }
  return cas;
}

const fail = (reason: string, extra: Partial<Extract<SendResult, { ok: false }>> = {}): SendResult => ({
  ok: false,
  transient: false,
  reason,
  ...extra,
});

export function createWebPushAdapter(options: WebPushAdapterOptions): ChannelAdapter {
  if (!/^(mailto:|https:\/\/)/.test(options.subject))
    throw new Error(`VAPID subject must be a mailto: or https: URL, got ${options.subject}`);
  const now = options.wallClock ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 128 };
  // One secure context built up front: a bare `ca` option would parse every root certificate on each connection.
  const secureContext = options.ca ? tls.createSecureContext({ ca: trustedCas(options.ca) }) : undefined;
  // Addresses checked at connect time, after DNS; redirects are never followed (a push service answers 201).
  const { https: httpsAgent, http: httpAgent } = createSafeAgents({
    ...agentOptions,
    ...(secureContext ? { secureContext } : {}),
    allowPrivate: options.allowPrivate,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  const h2 = createPushHttp2({
    allowPrivate: options.allowPrivate,
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(secureContext ? { secureContext } : {}),
    connectTimeoutMs: timeoutMs,
  });
  const vapidHeaders = new Map<string, { authorization: string; expiresAt: number }>();
  const pool = createEncryptPool(options.encryptThreads);

  const vapidAuthorization = (origin: string, publicKey: string, privateKey: string) => {
    const key = `${publicKey} ${origin}`;
    const nowSeconds = Math.floor(now() / 1000);
    const cached = vapidHeaders.get(key);
    if (cached && cached.expiresAt - nowSeconds > VAPID_REFRESH_BEFORE_SECONDS) return cached.authorization;
    const expiresAt = nowSeconds + VAPID_VALIDITY_SECONDS;
    const { Authorization } = webpush.getVapidHeaders(
      origin,
      options.subject,
      publicKey,
      fullVapidPrivateKey(privateKey),
      'aes128gcm',
      expiresAt,
    );
    vapidHeaders.set(key, { authorization: Authorization, expiresAt });
    return Authorization;
  };

  const post = async (url: URL, headers: http.OutgoingHttpHeaders, body: Buffer): Promise<SendResult> => {
    if (url.protocol === 'https:') {
      try {
        const answered = await h2.post(url, headers, body, timeoutMs);
        if (answered) return answer(answered.status, answered.headers as http.IncomingHttpHeaders);
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'ETIMEDOUT' && e.message === 'timeout')
          return { ok: false, transient: true, reason: `O serviço de push não respondeu em ${timeoutMs / 1000} s.` };
        return networkFailure(e);
      }
    }
    return postHttp1(url, headers, body);
  };

  const postHttp1 = (url: URL, headers: http.OutgoingHttpHeaders, body: Buffer) =>
    new Promise<SendResult>((resolve) => {
      const isHttps = url.protocol === 'https:';
      let settled = false;
      const settle = (result: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = (isHttps ? https : http).request(
        {
          method: 'POST',
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || undefined,
          path: url.pathname + url.search,
          headers,
          agent: isHttps ? httpsAgent : httpAgent,
        },
        (res) => {
          // Drain the body so the socket goes back to the pool; its text (English, vendor-specific) is not kept.
          res.resume();
          res.on('end', () => settle(answer(res.statusCode ?? 0, res.headers)));
          res.on('error', (err) => settle(networkFailure(err)));
        },
      );
      const timer = setTimeout(() => {
        settle({ ok: false, transient: true, reason: `O serviço de push não respondeu em ${timeoutMs / 1000} s.` });
        req.destroy();
      }, timeoutMs);
      req.on('error', (err) => settle(networkFailure(err)));
      req.end(body);
    });

  const networkFailure = (err: NodeJS.ErrnoException): SendResult =>
    isPrivateAddressError(err)
      ? fail(
          `O endereço da inscrição de push aponta para uma rede interna (${err.host}); por segurança, o envio foi recusado.`,
        )
      : {
          ok: false,
          transient: true,
          reason: `Falha de rede ao enviar o push (${err.code ?? err.message}).`,
        };

  const answer = (status: number, headers: http.IncomingHttpHeaders): SendResult => {
    if (status >= 200 && status < 300) return { ok: true };
    if (status === 404 || status === 410)
      return fail(`Inscrição de push expirada ou cancelada (${status}).`, { gone: true });
    if (status === 429 || status >= 500) {
      const retryAfterSeconds = parseRetryAfter(headers['retry-after'], now());
      return {
        ok: false,
        transient: true,
        reason:
          status === 429
            ? 'O serviço de push limitou o envio (429).'
            : `O serviço de push está indisponível (${status}).`,
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      };
    }
    if (status === 413) return fail('O serviço de push recusou a mensagem por ser grande demais (413).');
    return fail(`O serviço de push recusou a mensagem (${status}).`);
  };

  return {
    type: 'CELL_NOTIFICATION',

    async send(delivery) {
      const subscription = delivery.person.pushSubscription;
      if (!subscription?.endpoint || !subscription.keys?.p256dh || !subscription.keys.auth)
        return fail('Visitante sem inscrição de push.');

      let url: URL;
      try {
        url = new URL(subscription.endpoint);
      } catch {
        return fail('Endereço da inscrição de push inválido.');
      }
      if (url.protocol !== 'https:' && (url.protocol !== 'http:' || !options.allowPrivate))
        return fail('Endereço da inscrição de push inválido.');

      const plain = Buffer.from(JSON.stringify(buildPushPayload(delivery)), 'utf8');
      if (plain.length > MAX_PAYLOAD_BYTES)
        return fail(
          `A notificação ficou grande demais para o push (${plain.length} bytes; o limite é ${MAX_PAYLOAD_BYTES}).`,
        );

      let body: Buffer;
      try {
        body = await pool.encrypt(subscription.keys.p256dh, subscription.keys.auth, plain);
      } catch {
        return fail('Chaves da inscrição de push inválidas.');
      }

      let authorization: string;
      try {
        authorization = vapidAuthorization(url.origin, delivery.domain.vapidPublic, delivery.domain.vapidPrivate);
      } catch {
        return fail('Chaves VAPID do domínio inválidas.');
      }

      return post(
        url,
        {
          authorization,
          ttl: String(Number.isFinite(delivery.ttlSeconds) ? Math.max(0, Math.floor(delivery.ttlSeconds)) : 0),
          urgency: 'normal',
          'content-encoding': 'aes128gcm',
          'content-type': 'application/octet-stream',
          'content-length': body.length,
        },
        body,
      );
    },

    async close() {
      await pool.close();
      h2.close();
      vapidHeaders.clear();
      httpsAgent.destroy();
      httpAgent.destroy();
    },
  };
}
