import http from 'node:http';
import https from 'node:https';
import type { SendResult } from './channel.ts';
import { parseRetryAfter } from './web-push.ts';

/*
 * What the HTTP providers (Zenvia, Akna, OneSignal) share: one POST with a time limit, and one classification of
 * the answer, the same as web push's: 2xx sent; 401/403 the credentials were refused (permanent, and the channel
 * is marked); 408/429/5xx and network errors transient (retried with backoff, Retry-After honoured); any other
 * 4xx permanent. The provider's own message is kept (shortened) so the delivery log can show it.
 */

export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;
const MAX_PROVIDER_MESSAGE = 300;

export interface ProviderAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** The provider's message, one line, at most 300 characters. */
export const providerMessage = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_PROVIDER_MESSAGE ? `${line.slice(0, MAX_PROVIDER_MESSAGE - 1)}…` : line;
};

export interface ProviderClient {
  /** POSTs and answers the provider's reply, or a transient failure when no reply came. */
  post(
    provider: string,
    url: string,
    init: { headers: Record<string, string>; body: string },
    timeoutMs?: number,
  ): Promise<ProviderAnswer | Extract<SendResult, { ok: false }>>;
  close(): void;
}

/**
 * One keep-alive connection pool per adapter, on node:http(s) rather than fetch: at tens of thousands of messages
 * a minute, fetch's stream machinery costs about twice the CPU of a plain request.
 */
export function createProviderClient(options: { maxSockets?: number } = {}): ProviderClient {
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 128 };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  return {
    post(provider, url, init, timeoutMs = DEFAULT_PROVIDER_TIMEOUT_MS) {
      return new Promise((resolve) => {
        let settled = false;
        const settle = (result: ProviderAnswer | Extract<SendResult, { ok: false }>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(result);
        };
        let target: URL;
        try {
          target = new URL(url);
        } catch {
          settle({ ok: false, transient: false, reason: `Endereço de ${provider} inválido.` });
          return;
        }
        const isHttps = target.protocol === 'https:';
        const body = Buffer.from(init.body, 'utf8');
        const req = (isHttps ? https : http).request(
          {
            method: 'POST',
            hostname: target.hostname.replace(/^\[|\]$/g, ''),
            port: target.port || undefined,
            path: target.pathname + target.search,
            headers: { ...init.headers, 'content-length': body.length },
            agent: isHttps ? httpsAgent : httpAgent,
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (c: Buffer) => {
              // The provider's message is all we keep: never hold more than 64 KB of an answer.
              if (size < 65_536) chunks.push(c);
              size += c.length;
            });
            res.on('end', () => {
              const headers = new Headers();
              for (const [k, v] of Object.entries(res.headers))
                if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
              settle({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
            });
            res.on('error', (err) => settle(networkFailure(provider, err)));
          },
        );
        const timer = setTimeout(() => {
          settle({ ok: false, transient: true, reason: `${provider} não respondeu em ${timeoutMs / 1000} s.` });
          req.destroy();
        }, timeoutMs);
        req.on('error', (err) => settle(networkFailure(provider, err)));
        req.end(body);
      });
    },
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

const networkFailure = (provider: string, err: NodeJS.ErrnoException): Extract<SendResult, { ok: false }> => ({
  ok: false,
  transient: true,
  reason: `Falha de rede ao falar com ${provider} (${err.code ?? err.message}).`,
});

/** A one-off POST (its own connection pool); adapters keep one client instead. */
export async function postToProvider(
  provider: string,
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs = DEFAULT_PROVIDER_TIMEOUT_MS,
) {
  const client = createProviderClient({ maxSockets: 1 });
  try {
    return await client.post(provider, url, init, timeoutMs);
  } finally {
    client.close();
  }
}

export const isAnswer = (a: ProviderAnswer | SendResult): a is ProviderAnswer => 'status' in a;

/** The HTTP status of a provider's reply as a send result; `message` is what the provider said. */
export function classifyStatus(
  provider: string,
  status: number,
  headers: Headers,
  message: string,
  now = Date.now(),
): SendResult {
  if (status >= 200 && status < 300) return { ok: true };
  const said = message ? `: ${providerMessage(message)}` : '';
  if (status === 401 || status === 403)
    return {
      ok: false,
      transient: false,
      credentialsRefused: true,
      reason: `Credenciais recusadas pelo provedor (${provider}, ${status})${said}`,
    };
  if (status === 408 || status === 429 || status >= 500) {
    const retryAfterSeconds = parseRetryAfter(headers.get('retry-after') ?? undefined, now);
    return {
      ok: false,
      transient: true,
      reason:
        status === 429
          ? `${provider} limitou o envio (429)${said}`
          : `${provider} está indisponível (${status})${said}`,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    };
  }
  return { ok: false, transient: false, reason: `${provider} recusou a mensagem (${status})${said}` };
}

/** A delivery deliberately not sent (no contact data, opted out). */
export const skip = (reason: string): SendResult => ({ ok: false, transient: false, skipped: true, reason });

export const nonEmpty = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** Whether the person opted out of a channel: the attribute the unsubscribe route (or the site) set. */
export const hasOptedOut = (attributes: Record<string, unknown>, keys: string[]) =>
  keys.some((k) => {
    const v = attributes[k];
    return v === true || v === 'true' || v === 1 || v === '1';
  });
