import http from 'node:http';
import https from 'node:https';
import { createSafeAgents, isPrivateAddressError } from './safe-agent.ts';

export { isPrivateAddress } from './safe-agent.ts';

export class SafeFetchError extends Error {
  constructor(
    readonly reason: 'protocol' | 'private' | 'dns' | 'timeout' | 'too_large' | 'redirects' | 'network' | 'status',
    message: string,
  ) {
    super(message);
  }
}

export interface SafeFetchOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
}

/**
 * GET a public http(s) URL the way a careful crawler does: the address is checked after DNS resolution
 * (in the socket's own lookup, so a rebinding answer cannot slip through), 5 s overall, 2 MB, 3 redirects.
 */
export async function safeFetchText(
  url: string,
  options: SafeFetchOptions,
): Promise<{ url: string; status: number; body: string }> {
  const { allowPrivate, timeoutMs = 5000, maxBytes = 2 * 1024 * 1024, maxRedirects = 3 } = options;
  const deadline = Date.now() + timeoutMs;
  let current = url;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const res = await getOnce(current, { allowPrivate, maxBytes, deadline });
    if (res.location && res.status >= 300 && res.status < 400) {
      current = new URL(res.location, current).toString();
      continue;
    }
    return { url: current, status: res.status, body: res.body };
  }
  throw new SafeFetchError('redirects', 'redirecionamentos demais');
}

/** One agent pair per setting; no keep-alive: a verification fetches two files, rarely from the same site again. */
const agents = { public: createSafeAgents({ allowPrivate: false }), any: createSafeAgents({ allowPrivate: true }) };

function getOnce(
  target: string,
  o: { allowPrivate: boolean; maxBytes: number; deadline: number },
): Promise<{ status: number; body: string; location?: string }> {
  return new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return reject(new SafeFetchError('protocol', 'URL inválida'));
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return reject(new SafeFetchError('protocol', 'só http(s)'));
    if (url.username || url.password) return reject(new SafeFetchError('protocol', 'credenciais na URL'));
    const remaining = o.deadline - Date.now();
    if (remaining <= 0) return reject(new SafeFetchError('timeout', 'tempo esgotado'));
    const isHttps = url.protocol === 'https:';
    const pair = o.allowPrivate ? agents.any : agents.public;
    const req = (isHttps ? https : http).get(
      url,
      {
        agent: isHttps ? pair.https : pair.http,
        headers: { 'user-agent': 'ImpetoScriptChecker/1.0 (+verificação de instalação)', accept: 'text/html,*/*' },
        timeout: remaining,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > o.maxBytes) {
            req.destroy(new SafeFetchError('too_large', 'resposta grande demais'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, location, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => req.destroy(new SafeFetchError('timeout', 'tempo esgotado')), remaining);
    req.on('close', () => clearTimeout(timer));
    req.on('timeout', () => req.destroy(new SafeFetchError('timeout', 'tempo esgotado')));
    req.on('error', (err) =>
      reject(
        err instanceof SafeFetchError
          ? err
          : isPrivateAddressError(err)
            ? new SafeFetchError('private', err.message)
            : new SafeFetchError('network', err.message),
      ),
    );
  });
}
