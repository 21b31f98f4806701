import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** 127.0.0.0/8 and ::1, IPv4-mapped forms included. */
export function isLoopbackAddress(address: string | undefined) {
  if (!address) return false;
  const v4 = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i)?.[1] ?? address;
  if (isIP(v4) === 4) return loopback.check(v4, 'ipv4');
  return isIP(address) === 6 && loopback.check(address, 'ipv6');
}

/** Headers that reverse proxies, CDNs and load balancers add to what they forward (Node lower-cases names). */
const PROXY_HEADERS = new Set([
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
  'x-proxyuser-ip',
  'true-client-ip',
  'fastly-client-ip',
  'akamai-client-ip',
  'fly-client-ip',
  'x-azure-clientip',
  'x-appengine-user-ip',
  'cdn-loop',
]);
const PROXY_PREFIXES = ['x-forwarded-', 'cf-', 'x-vercel-', 'x-envoy-', 'x-amzn-'];

/** Whether any header says a proxy forwarded the request. */
export const isForwarded = (headers: FastifyRequest['headers']) =>
  Object.keys(headers).some((name) => PROXY_HEADERS.has(name) || PROXY_PREFIXES.some((p) => name.startsWith(p)));

/**
 * The request comes from this machine: the server is not configured behind a reverse proxy (TRUST_PROXY; a proxy
 * that adds no header would make every visitor look local), the socket's own peer is loopback (never
 * X-Forwarded-For, which any client can write) and no header says a proxy forwarded it (a reverse proxy on the
 * same machine connects from loopback on behalf of anyone).
 */
export const isLocalRequest = (request: FastifyRequest, behindProxy: boolean | string) =>
  !behindProxy && isLoopbackAddress(request.socket.remoteAddress) && !isForwarded(request.headers);
