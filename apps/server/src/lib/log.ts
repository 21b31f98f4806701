import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream } from 'pino';

/**
 * Paths that customer sites' visitors and e-mail recipients call: the collector, the tag files, media shown on their
 * pages, and the unsubscribe link (whose token names the person: logged as `:token`).
 */
const VISITOR_PATHS = /^\/(collect|t|media|api\/unsubscribe)(\/|\?|$)/;
const PERSONAL_SEGMENTS = /^(\/api\/unsubscribe\/)[^/]+/;

/** Query parameters whose value is a secret in a link we mail or show: password reset, e-mail validation, … */
const SECRET_PARAMS = /([?&](?:token|cid|code|key|secret|password|signature|sig|hash)=)[^&#]*/gi;
const redactSecrets = (url: string) => url.replace(SECRET_PARAMS, '$1:redacted');

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip: string;
  socket?: { remotePort?: number };
}

/**
 * Fastify's request line, minus what identifies a visitor: for the collector, the tag files, media and the
 * unsubscribe link, no address (raw IPs are personal data the product never stores), no query string (it carries
 * visitor ids) and no unsubscribe token. Dashboard requests keep the address, for security, but not the secrets of
 * the links we mail (a password-reset token, a validation id).
 */
export function serializeRequest(req: LoggedRequest) {
  if (VISITOR_PATHS.test(req.url)) {
    const url = (req.url.split('?')[0] ?? '').replace(PERSONAL_SEGMENTS, '$1:token');
    return { method: req.method, url, host: req.host };
  }
  return {
    method: req.method,
    url: redactSecrets(req.url),
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
