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

const PRIVATE_V4 = [
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
] as const;

/**
 * IPv6 prefixes whose last 32 bits are an IPv4 address that the connection reaches or stands for: IPv4-compatible
 * (`::a.b.c.d`), IPv4-mapped, IPv4-translated (RFC 6145) and NAT64's well-known prefix (RFC 6052; DNS64 answers
 * public IPv4 hosts this way on IPv6-only networks, so a public one stays allowed).
 */
const EMBEDDING_V6 = ['::', '::ffff:', '::ffff:0:', '64:ff9b::'] as const;

const privateV4 = new BlockList();
const embedding = new BlockList();
const privateEmbedded = new BlockList();
for (const prefix of EMBEDDING_V6) embedding.addSubnet(`${prefix}0.0.0.0`, 96, 'ipv6');
for (const [net, bits] of PRIVATE_V4) {
  privateV4.addSubnet(net, bits, 'ipv4');
  for (const prefix of EMBEDDING_V6) privateEmbedded.addSubnet(`${prefix}${net}`, 96 + bits, 'ipv6');
}

/**
 * Global unicast (2000::/3) is the only public IPv6 space: everything outside it is not (::1, fc00::/7, fe80::/10,
 * fec0::/10, ff00::/8, the local-use NAT64 prefix 64:ff9b:1::/48, …).
 */
const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');
/**
 * Inside 2000::/3 but not public: Teredo (2001::/32, embeds a NAT's address), 6to4 (2002::/16, deprecated by RFC
 * 7526: refused whole rather than by its embedded address), documentation, benchmarking, ORCHID.
 */
const specialV6 = new BlockList();
for (const [net, bits] of [
  ['2001::', 32],
  ['2001:2::', 48],
  ['2001:10::', 28],
  ['2001:20::', 28],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
] as const)
  specialV6.addSubnet(net, bits, 'ipv6');

/**
 * Private, loopback, link-local and other non-public addresses, in every IPv6 form that carries one (IPv4-mapped,
 * IPv4-compatible, NAT64, 6to4, Teredo); anything that is not an address counts as private.
 */
export function isPrivateAddress(address: string) {
  const family = isIP(address);
  if (family === 4) return privateV4.check(address, 'ipv4');
  if (family !== 6 || address.includes('%')) return true;
  if (embedding.check(address, 'ipv6')) return privateEmbedded.check(address, 'ipv6');
  return !globalV6.check(address, 'ipv6') || specialV6.check(address, 'ipv6');
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
