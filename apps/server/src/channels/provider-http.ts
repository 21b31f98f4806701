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

/** POSTs and answers the provider's reply, or a transient failure when no reply came. */
export async function postToProvider(
  provider: string,
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs = DEFAULT_PROVIDER_TIMEOUT_MS,
): Promise<ProviderAnswer | Extract<SendResult, { ok: false }>> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      return { ok: false, transient: true, reason: `${provider} não respondeu em ${timeoutMs / 1000} s.` };
    return {
      ok: false,
      transient: true,
      reason: `Falha de rede ao falar com ${provider} (${e.cause?.code ?? e.message}).`,
    };
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
