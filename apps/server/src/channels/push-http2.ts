import http2 from 'node:http2';
import { isIP, type LookupFunction } from 'node:net';
import tls from 'node:tls';
import { checkedLookup, isPrivateAddress, PrivateAddressError } from '../lib/safe-agent.ts';

/*
 * HTTP/2 to push services that offer it (FCM, Mozilla, Apple do): one TLS connection per push service carries every
 * send as a stream, so a campaign costs one handshake and far fewer socket writes than 128 HTTP/1.1 keep-alive
 * sockets (the bench measured a third less CPU per request on the sending side). ALPN decides: a service that
 * answers `http/1.1` is remembered for a while and sent to through the caller's HTTP/1.1 agent.
 *
 * The connection goes through the same address checks as the safe agents (lib/safe-agent.ts): the checked lookup
 * at connect time, and literal private IPs refused before any socket is opened.
 */

const IDLE_CLOSE_MS = 60_000;
/** A service that chose HTTP/1.1 is asked again after this long (it may have been upgraded). */
const H1_MEMORY_MS = 10 * 60_000;
/** Forgets HTTP/1.1 origins past this many (endpoints come from visitors: the memory must stay bounded). */
const MAX_REMEMBERED = 1000;

export interface PushHttp2Options {
  allowPrivate: boolean;
  resolve?: LookupFunction;
  secureContext?: tls.SecureContext;
  connectTimeoutMs: number;
}

export interface H2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
}

export interface PushHttp2 {
  /**
   * POSTs over HTTP/2 when the origin speaks it. Resolves `null` when the origin chose HTTP/1.1 (the caller sends
   * through its agent); rejects on connection and stream errors (PrivateAddressError for a refused address).
   */
  post(url: URL, headers: http2.OutgoingHttpHeaders, body: Buffer, timeoutMs: number): Promise<H2Answer | null>;
  close(): void;
}

/** Streams a service refused (REFUSED_STREAM: not processed, RFC 9113 §8.7) are sent again this many times. */
const REFUSED_RETRIES = 2;

export function createPushHttp2(options: PushHttp2Options): PushHttp2 {
  const lookup = checkedLookup(options.allowPrivate, options.resolve);
  const sessions = new Map<string, Promise<http2.ClientHttp2Session | null>>();
  const h1Until = new Map<string, number>();

  const connect = (url: URL, forget: () => void) =>
    new Promise<http2.ClientHttp2Session | null>((resolve, reject) => {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (!options.allowPrivate && isIP(host) && isPrivateAddress(host)) throw new PrivateAddressError(host);
      const socket = tls.connect({
        host,
        port: Number(url.port) || 443,
        ...(isIP(host) ? {} : { servername: host }),
        ALPNProtocols: ['h2', 'http/1.1'],
        lookup,
        ...(options.secureContext ? { secureContext: options.secureContext } : {}),
      });
      const fail = (err: Error) => {
        clearTimeout(timer);
        socket.destroy();
        reject(err);
      };
      const timer = setTimeout(
        () => fail(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })),
        options.connectTimeoutMs,
      );
      socket.once('error', fail);
      socket.once('secureConnect', () => {
        if (socket.alpnProtocol !== 'h2') {
          clearTimeout(timer);
          socket.destroy();
          if (h1Until.size >= MAX_REMEMBERED) h1Until.clear();
          h1Until.set(url.origin, Date.now() + H1_MEMORY_MS);
          return resolve(null);
        }
        const session = http2.connect(url.origin, { createConnection: () => socket });
        // A closed or refused session is forgotten: the next send opens a new one. Its streams fail on their own.
        session.on('error', forget);
        session.on('goaway', forget);
        session.on('close', forget);
        session.once('error', fail);
        // The service's first SETTINGS say how many streams it takes at once: wait for them before the first one.
        // From then on nghttp2 holds back streams over that limit until one closes; sent before, they are refused.
        session.once('remoteSettings', () => {
          clearTimeout(timer);
          session.off('error', fail);
          session.setTimeout(IDLE_CLOSE_MS, () => session.close());
          session.unref();
          resolve(session);
        });
      });
    });

  const sessionFor = (url: URL) => {
    const h1 = h1Until.get(url.origin);
    if (h1 !== undefined) {
      if (h1 > Date.now()) return Promise.resolve(null);
      h1Until.delete(url.origin);
    }
    const existing = sessions.get(url.origin);
    if (existing) return existing;
    const forget = () => {
      if (sessions.get(url.origin) === mine) sessions.delete(url.origin);
    };
    const mine = connect(url, forget);
    sessions.set(url.origin, mine);
    // A failed connection is not kept: every send waiting on it fails, the next one tries again.
    mine.then((s) => s || forget(), forget);
    return mine;
  };

  const retire = (origin: string, session: http2.ClientHttp2Session) => {
    const current = sessions.get(origin);
    if (current)
      void current.then(
        (s) => {
          if (s === session && sessions.get(origin) === current) sessions.delete(origin);
        },
        () => {},
      );
    if (!session.closed) session.close();
  };

  const request = (
    session: http2.ClientHttp2Session,
    url: URL,
    headers: http2.OutgoingHttpHeaders,
    body: Buffer,
    deadline: number,
  ): Promise<H2Answer | 'refused'> =>
    new Promise((resolve, reject) => {
      let answer: H2Answer | undefined;
      let settled = false;
      const settle = (err: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (answer) resolve(answer);
        else if (stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM) resolve('refused');
        else reject(err ?? Object.assign(new Error('stream closed'), { code: 'ERR_HTTP2_STREAM_CANCEL' }));
      };
      const stream = session.request({ ':method': 'POST', ':path': url.pathname + url.search, ...headers });
      const timer = setTimeout(
        () => {
          settle(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }));
          stream.close(http2.constants.NGHTTP2_CANCEL);
          // A connection gone quiet (a half-open TCP path, a stalled service) would hold every later send: new
          // sends open a fresh one, and this one closes once its other streams end.
          retire(url.origin, session);
        },
        Math.max(0, deadline - Date.now()),
      );
      stream.on('response', (h) => {
        answer = { status: Number(h[':status'] ?? 0), headers: h };
        // The body (vendor text) is not kept; reading it lets the stream end.
        stream.resume();
      });
      stream.on('end', () => settle(null));
      stream.on('close', () => settle(null));
      stream.on('error', (err) => settle(err));
      stream.end(body);
    });

  return {
    async post(url, headers, body, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (let attempt = 0; ; attempt++) {
        const session = await sessionFor(url);
        if (!session) return null;
        const answer = await request(session, url, headers, body, deadline);
        if (answer !== 'refused') return answer;
        if (attempt >= REFUSED_RETRIES)
          throw Object.assign(new Error('stream refused'), { code: 'ERR_HTTP2_REFUSED_STREAM' });
      }
    },
    close() {
      for (const pending of sessions.values())
        void pending.then(
          (session) => session?.destroy(),
          () => {},
        );
      sessions.clear();
      h1Until.clear();
    },
  };
}
