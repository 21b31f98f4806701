import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/** Paths that customer sites' visitors call: the collector, the tag files and media shown on their pages. */
const VISITOR_PATHS = /^\/(collect|t|media)(\/|\?|$)/;

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip: string;
  socket?: { remotePort?: number };
}

/**
 * Fastify's request line, minus what identifies a visitor: for the collector, the tag files and media, no
 * address (raw IPs are personal data the product never stores) and no query string (it carries visitor ids).
 * Dashboard requests keep the address, for security.
 */
export function serializeRequest(req: LoggedRequest) {
  if (VISITOR_PATHS.test(req.url)) return { method: req.method, url: req.url.split('?')[0], host: req.host };
  return {
    method: req.method,
    url: req.url,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

export const loggerOptions = (level: string, stream?: DestinationStream): FastifyServerOptions['logger'] => ({
  level,
  serializers: { req: serializeRequest as (req: unknown) => Record<string, unknown> },
  ...(stream ? { stream } : {}),
});
