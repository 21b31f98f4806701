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

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via'];

/**
 * The request comes from this machine: the socket's own peer is loopback (never X-Forwarded-For, which any
 * client can write) and no proxy says it forwarded it (a reverse proxy on the same machine connects from
 * loopback on behalf of anyone).
 */
export const isLocalRequest = (request: FastifyRequest) =>
  isLoopbackAddress(request.socket.remoteAddress) && !FORWARDING_HEADERS.some((h) => h in request.headers);
