import { createECDH, createPublicKey, type ECDH, type KeyObject, randomBytes, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/*
 * A push service on 127.0.0.1 that speaks the real Web Push protocol (RFC 8030 + RFC 8291 aes128gcm + RFC 8292
 * VAPID), for server tests, e2e and bench scripts. It checks what a real service checks and decrypts every message
 * with the subscription's private key, so a test sees exactly what the browser would get.
 */

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

export const pushServiceCertPath = path.resolve(import.meta.dirname, 'fixtures/push-service.crt');
export const pushServiceKeyPath = path.resolve(import.meta.dirname, 'fixtures/push-service.key');
/** The self-signed certificate (SAN IP:127.0.0.1, DNS:localhost): pass it as `ca` or point NODE_EXTRA_CA_CERTS at its path. */
export const pushServiceCert = readFileSync(pushServiceCertPath, 'utf8');

/** RFC 8030 §7.2: push services take at least 4,096 bytes of encrypted body; ours takes exactly that. */
const MAX_BODY_BYTES = 4096;
const MAX_JWT_LIFETIME_SECONDS = 24 * 60 * 60;

export interface Received {
  subscriptionId: string;
  endpoint: string;
  /** The decrypted payload, parsed as JSON (the raw text when it is not JSON); undefined with `decrypt: 'count-only'`. */
  payload: unknown;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  vapidPublicKey: string;
  /** '2.0' or '1.1': what the sender spoke. */
  httpVersion: string;
  /** The VAPID JWT as sent: tests compare these to see how often the sender signed. */
  jwt: string;
  at: Date;
}

export interface Refused {
  endpoint: string;
  status: number;
  reason: string;
  at: Date;
}

export interface TestSubscription {
  id: string;
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The browser's side of the keys (P-256 private key, base64url): kept to rebuild the subscription later. */
  privateKey: string;
}

export interface PushServiceOptions {
  /**
   * 'all' (default) decrypts and parses every body; 'count-only' still checks headers and VAPID but skips
   * decryption (the costly part), for benchmarks that only count.
   */
  decrypt?: 'all' | 'count-only';
  /** Plain http instead of https (the engine refuses http endpoints in production; only for local measurements). */
  insecure?: boolean;
  /** Offer HTTP/2 by ALPN next to HTTP/1.1, as FCM, Mozilla and Apple do (default true); false: HTTP/1.1 only. */
  http2?: boolean;
  /** SETTINGS_MAX_CONCURRENT_STREAMS of the HTTP/2 side (default: Node's, unlimited). */
  maxConcurrentStreams?: number;
}

interface Subscription {
  id: string;
  endpoint: string;
  ecdh: ECDH;
  auth: string;
  applicationServerKey?: string;
}

interface Override {
  status: number;
  headers: Record<string, string>;
  remaining: number;
}

interface VerifiedJwt {
  exp: number;
  publicKey: string;
}

const ALL = '*';

type Req = http.IncomingMessage | http2.Http2ServerRequest;
type Res = http.ServerResponse | http2.Http2ServerResponse;
const reply = (res: Res, status: number, headers: Record<string, string>, body?: string) =>
  (res as http.ServerResponse).writeHead(status, headers).end(body);

export async function startPushService(options: PushServiceOptions = {}) {
  const shouldDecrypt = (options.decrypt ?? 'all') === 'all';
  const subscriptions = new Map<string, Subscription>();
  const overrides = new Map<string, Override>();
  let answerDelayMs = 0;
  const received: Received[] = [];
  const refused: Refused[] = [];
  const waiters = new Set<{ count: number; resolve: () => void }>();
  // A sender reuses one JWT for hours: check its signature once, its expiry on every request.
  const verifiedJwts = new Map<string, VerifiedJwt>();
  const publicKeys = new Map<string, KeyObject>();
  let origin = '';

  const notify = () => {
    for (const w of waiters)
      if (received.length >= w.count) {
        waiters.delete(w);
        w.resolve();
      }
  };

  const refuse = (res: Res, endpoint: string, status: number, reason: string) => {
    refused.push({ endpoint, status, reason, at: new Date() });
    reply(res, status, { 'content-type': 'text/plain' }, reason);
  };

  const takeOverride = (sub: Subscription) => {
    for (const key of [sub.endpoint, sub.id, ALL]) {
      const o = overrides.get(key);
      if (!o) continue;
      if (--o.remaining <= 0) overrides.delete(key);
      return o;
    }
    return undefined;
  };

  const keyObject = (k: string) => {
    let key = publicKeys.get(k);
    if (!key) {
      const raw = Buffer.from(k, 'base64url');
      if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
      key = createPublicKey({
        key: {
          kty: 'EC',
          crv: 'P-256',
          x: raw.subarray(1, 33).toString('base64url'),
          y: raw.subarray(33).toString('base64url'),
        },
        format: 'jwk',
      });
      publicKeys.set(k, key);
    }
    return key;
  };

  /** RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`. Returns the refusal, or the token and key. */
  const checkVapid = (
    authorization: string | undefined,
    sub: Subscription,
  ): { status: number; reason: string } | { jwt: string; publicKey: string } => {
    if (!authorization) return { status: 401, reason: 'missing Authorization' };
    const m = /^vapid\s+(.+)$/i.exec(authorization.trim());
    if (!m) return { status: 401, reason: 'Authorization is not vapid' };
    const params = new Map<string, string>();
    for (const part of m[1]!.split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
    }
    const jwt = params.get('t');
    const publicKey = params.get('k');
    if (!jwt || !publicKey) return { status: 401, reason: 'vapid needs t= and k=' };
    if (sub.applicationServerKey && sub.applicationServerKey !== publicKey)
      return { status: 403, reason: 'k does not match the applicationServerKey of the subscription' };

    const now = Math.floor(Date.now() / 1000);
    const cacheKey = `${publicKey} ${jwt}`;
    let verified = verifiedJwts.get(cacheKey);
    if (!verified) {
      const [h, p, s] = jwt.split('.');
      if (!h || !p || !s) return { status: 403, reason: 'malformed JWT' };
      let header: { alg?: unknown; typ?: unknown };
      let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
      try {
        header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
        claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
      } catch {
        return { status: 403, reason: 'JWT parts are not JSON' };
      }
      if (header.alg !== 'ES256') return { status: 403, reason: `JWT alg ${String(header.alg)} is not ES256` };
      let key: KeyObject;
      try {
        key = keyObject(publicKey);
      } catch (err) {
        return { status: 403, reason: (err as Error).message };
      }
      const signature = Buffer.from(s, 'base64url');
      const isValid = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, signature);
      if (!isValid) return { status: 403, reason: 'JWT signature does not verify with k' };
      if (claims.aud !== origin) return { status: 403, reason: `JWT aud ${String(claims.aud)} is not ${origin}` };
      if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub))
        return { status: 403, reason: 'JWT sub is not mailto: or https:' };
      if (typeof claims.exp !== 'number' || !Number.isInteger(claims.exp))
        return { status: 403, reason: 'JWT exp is missing' };
      if (claims.exp > now + MAX_JWT_LIFETIME_SECONDS)
        return { status: 403, reason: 'JWT exp is more than 24 h ahead' };
      verified = { exp: claims.exp, publicKey };
      verifiedJwts.set(cacheKey, verified);
    }
    if (verified.exp <= now) return { status: 403, reason: 'JWT expired' };
    return { jwt, publicKey };
  };

  const handle = (req: Req, res: Res, body: Buffer) => {
    const url = req.url ?? '/';
    const m = /^\/push\/([\w-]+)$/.exec(url);
    const endpoint = origin + url;
    if (req.method !== 'POST' || !m) return refuse(res, endpoint, 404, 'not found');
    const sub = subscriptions.get(m[1]!);
    if (!sub) return refuse(res, endpoint, 404, 'no such subscription');

    const override = takeOverride(sub);
    if (override) {
      refused.push({ endpoint, status: override.status, reason: 'respondWith', at: new Date() });
      reply(res, override.status, override.headers);
      return;
    }

    const vapid = checkVapid(req.headers.authorization, sub);
    if ('status' in vapid) return refuse(res, endpoint, vapid.status, vapid.reason);
    const ttlHeader = req.headers.ttl;
    if (typeof ttlHeader !== 'string' || !/^\d+$/.test(ttlHeader.trim()))
      return refuse(res, endpoint, 400, 'TTL header missing or invalid');
    if (body.length > MAX_BODY_BYTES) return refuse(res, endpoint, 413, `body of ${body.length} bytes`);
    if (body.length > 0 && req.headers['content-encoding'] !== 'aes128gcm')
      return refuse(res, endpoint, 415, `Content-Encoding ${String(req.headers['content-encoding'])}`);

    let payload: unknown;
    if (shouldDecrypt && body.length > 0) {
      let text: string;
      try {
        text = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.auth }).toString('utf8');
      } catch (err) {
        return refuse(res, endpoint, 400, `cannot decrypt: ${(err as Error).message}`);
      }
      try {
        payload = JSON.parse(text);
      } catch {
        payload = text;
      }
    }

    received.push({
      subscriptionId: sub.id,
      endpoint: sub.endpoint,
      payload,
      ttl: Number(ttlHeader),
      urgency: (req.headers.urgency as string | undefined) ?? null,
      topic: (req.headers.topic as string | undefined) ?? null,
      vapidPublicKey: vapid.publicKey,
      httpVersion: req.httpVersion,
      jwt: vapid.jwt,
      at: new Date(),
    });
    const answer = () => reply(res, 201, { location: `${origin}/message/${received.length}` });
    if (answerDelayMs > 0) setTimeout(answer, answerDelayMs);
    else answer();
    if (waiters.size) notify();
  };

  const onRequest = (req: Req, res: Res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES + 1) chunks.push(c);
    });
    let aborted = false;
    req.on('aborted', () => (aborted = true));
    req.on('end', () => {
      // A sender killed mid-request (the crash test's SIGKILL) leaves a stream that ends short: a real push service
      // never delivers such a message, so neither does this one (it was a received push with no payload before).
      const declared = Number(req.headers['content-length'] ?? Number.NaN);
      const short = Number.isFinite(declared) && size !== declared;
      if (aborted || !req.complete || short) return;
      handle(req, res, Buffer.concat(chunks));
    });
  };

  const tlsOptions = { cert: pushServiceCert, key: readFileSync(pushServiceKeyPath, 'utf8') };
  const server = options.insecure
    ? http.createServer({ keepAliveTimeout: 30_000 }, onRequest)
    : options.http2 === false
      ? https.createServer({ ...tlsOptions, keepAliveTimeout: 30_000 }, onRequest)
      : http2.createSecureServer(
          {
            ...tlsOptions,
            allowHTTP1: true,
            ...(options.maxConcurrentStreams
              ? { settings: { maxConcurrentStreams: options.maxConcurrentStreams } }
              : {}),
          },
          onRequest,
        );
  // Http2SecureServer has no closeAllConnections: every socket is kept to be destroyed at close.
  const sockets = new Set<import('node:net').Socket>();
  let connections = 0;
  server.on(options.insecure ? 'connection' : 'secureConnection', (socket: import('node:net').Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const add = (id: string, ecdh: ECDH, auth: string, opts: { applicationServerKey?: string }): TestSubscription => {
    const endpoint = `${origin}/push/${id}`;
    subscriptions.set(id, { id, endpoint, ecdh, auth, applicationServerKey: opts.applicationServerKey });
    return {
      id,
      subscription: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } },
      privateKey: ecdh.getPrivateKey().toString('base64url'),
    };
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `${options.insecure ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    /** Connections accepted so far (TLS handshakes done, or TCP connections with `insecure`). */
    get connections() {
      return connections;
    },
    /** Every request answered with something other than 201 (VAPID refusals, respondWith, unknown ids). */
    refused,
    /**
     * A subscription as PushManager.subscribe would give it: a fresh P-256 key pair and 16-byte auth secret.
     * With `applicationServerKey`, pushes whose VAPID `k=` differs are refused with 403, like a real service.
     */
    newSubscription(opts: { applicationServerKey?: string } = {}): TestSubscription {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return add(randomBytes(12).toString('base64url'), ecdh, randomBytes(16).toString('base64url'), opts);
    },
    /**
     * A subscription made earlier (by another run of this service, e.g. when an upgrade fixture was written), with
     * its id and keys: this service accepts and decrypts pushes for it at `origin/push/<id>`.
     */
    restoreSubscription(saved: { id: string; privateKey: string; auth: string; applicationServerKey?: string }) {
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(Buffer.from(saved.privateKey, 'base64url'));
      return add(saved.id, ecdh, saved.auth, saved);
    },
    /** Forget a subscription: its endpoint answers 404 from now on. */
    unsubscribe(endpointOrId: string) {
      subscriptions.delete(
        endpointOrId.startsWith(origin) ? endpointOrId.slice(`${origin}/push/`.length) : endpointOrId,
      );
    },
    /**
     * Answer `status` (with `headers`, e.g. { 'retry-after': '30' }) instead of delivering, for one endpoint
     * (its URL or id) or '*' for all; `times` answers that many requests, then delivery resumes. `null` clears.
     */
    /** Answers accepted pushes only after this long (a slow push service); 0 answers at once. */
    delayAnswers(ms: number) {
      answerDelayMs = ms;
    },
    respondWith(endpointOrAll: string, status: number | null, headers: Record<string, string> = {}, times = Infinity) {
      if (status === null) overrides.delete(endpointOrAll);
      else overrides.set(endpointOrAll, { status, headers, remaining: times });
    },
    waitFor(count: number, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise<Received[]>((resolve, reject) => {
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const last = refused.at(-1);
          reject(
            new Error(
              `push service: ${received.length} of ${count} pushes after ${timeoutMs} ms` +
                (last ? `; last refusal ${last.status} ${last.reason}` : ''),
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    close() {
      for (const w of waiters) waiters.delete(w);
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type PushService = Awaited<ReturnType<typeof startPushService>>;
