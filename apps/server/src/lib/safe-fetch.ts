import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Private, loopback, link-local and other non-public addresses (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string) {
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
}

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

const checkedLookup =
  (allowPrivate: boolean): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as { address: string; family: number }[];
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address))) {
        return callback(new SafeFetchError('private', `endereço privado recusado: ${hostname}`), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new SafeFetchError('dns', `sem endereço: ${hostname}`), '', 0);
      callback(null, first.address, first.family);
    });
  };

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
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !o.allowPrivate && isPrivateAddress(host)) {
      return reject(new SafeFetchError('private', `endereço privado recusado: ${host}`));
    }
    const remaining = o.deadline - Date.now();
    if (remaining <= 0) return reject(new SafeFetchError('timeout', 'tempo esgotado'));
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(
      url,
      {
        lookup: checkedLookup(o.allowPrivate),
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
    req.on('error', (err) => reject(err instanceof SafeFetchError ? err : new SafeFetchError('network', err.message)));
  });
}
