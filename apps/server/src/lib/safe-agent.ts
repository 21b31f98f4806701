import { lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';

/*
 * Outgoing connections to addresses a user or a visitor can influence (a site to verify, a push subscription's
 * endpoint, a provider URL typed in a channel form) go through these agents: the address is checked when the socket
 * connects, after DNS (every answer of the lookup), so a name that resolves, or later rebinds, to our own network
 * is never reached. A literal IP is checked too (net does not call `lookup` for one). The agents never follow
 * redirects (node:http does not); a caller that follows one sends the next request through the same agent.
 */

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

/** A connection refused before it was made: the host is, or resolves to, a non-public address. */
export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(readonly host: string) {
    super(`endereço privado recusado: ${host}`);
  }
}

/** A `lookup` for sockets that fails when any DNS answer is a non-public address (unless private is allowed). */
export const checkedLookup =
  (allowPrivate: boolean, resolve: LookupFunction = dnsLookup as LookupFunction): LookupFunction =>
  (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }]) as {
        address: string;
        family: number;
      }[];
      if (!allowPrivate && list.some((a) => isPrivateAddress(a.address)))
        return callback(new PrivateAddressError(hostname), '', 0);
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
      const first = list[0];
      if (!first) {
        const none = Object.assign(new Error(`sem endereço: ${hostname}`), { code: 'ENOTFOUND' });
        return callback(none, '', 0);
      }
      callback(null, first.address, first.family);
    });
  };

/** The error for a literal IP host that is not public, before any connection is tried. */
const literalRefusal = (options: http.ClientRequestArgs, allowPrivate: boolean) => {
  if (allowPrivate) return undefined;
  const host = String(options.host ?? options.hostname ?? '').replace(/^\[|\]$/g, '');
  return isIP(host) && isPrivateAddress(host) ? new PrivateAddressError(host) : undefined;
};

type ConnectionCallback = (err: Error | null, stream: Duplex) => void;

export interface SafeAgentOptions extends https.AgentOptions {
  /** ALLOW_PRIVATE_FETCH: local test peers on 127.0.0.1 are allowed. */
  allowPrivate: boolean;
  /** Resolver for the checked lookup (tests point a name at 127.0.0.1 with it); default node:dns. */
  resolve?: LookupFunction;
}

class SafeHttpsAgent extends https.Agent {
  constructor(
    private readonly allowPrivate: boolean,
    options: https.AgentOptions,
  ) {
    super(options);
  }
  override createConnection(options: http.ClientRequestArgs, callback?: ConnectionCallback) {
    const refused = literalRefusal(options, this.allowPrivate);
    if (!refused) return super.createConnection(options, callback);
    process.nextTick(() => callback?.(refused, undefined as unknown as Duplex));
    return undefined;
  }
}

class SafeHttpAgent extends http.Agent {
  constructor(
    private readonly allowPrivate: boolean,
    options: http.AgentOptions,
  ) {
    super(options);
  }
  override createConnection(options: http.ClientRequestArgs, callback?: ConnectionCallback) {
    const refused = literalRefusal(options, this.allowPrivate);
    if (!refused) return super.createConnection(options, callback);
    process.nextTick(() => callback?.(refused, undefined as unknown as Duplex));
    return undefined;
  }
}

/**
 * An http and an https agent that connect only to public addresses (unless `allowPrivate`): the channel adapters'
 * way out to any URL a user or a visitor can influence. A refused connection fails the request with a
 * `PrivateAddressError` (code EPRIVATEADDRESS) before a byte is sent.
 */
export function createSafeAgents({ allowPrivate, resolve, ...options }: SafeAgentOptions) {
  const lookup = checkedLookup(allowPrivate, resolve);
  return {
    http: new SafeHttpAgent(allowPrivate, { ...options, lookup } as http.AgentOptions),
    https: new SafeHttpsAgent(allowPrivate, { ...options, lookup } as https.AgentOptions),
  };
}
export type SafeAgents = ReturnType<typeof createSafeAgents>;

/** True when a request failed because the safe agents refused a non-public address. */
export const isPrivateAddressError = (err: unknown): err is PrivateAddressError =>
  err instanceof PrivateAddressError || (err as { code?: string } | undefined)?.code === 'EPRIVATEADDRESS';
