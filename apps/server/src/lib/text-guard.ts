import { msg } from '@impeto/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/** NUL, or a UTF-16 surrogate without its pair (only a JSON `\uD800` escape makes one). */
const UNSTORABLE = /\0|\p{Cs}/u;

/**
 * Where the first text PostgreSQL cannot store is in a parsed value (a text or a key), as a dotted path, and
 * why; undefined when there is none.
 */
export function findUnstorable(value: unknown, at = ''): { path: string; nul: boolean } | undefined {
  const check = (text: string, path: string) => {
    const hit = text.match(UNSTORABLE);
    return hit ? { path: path || 'body', nul: hit[0] === '\0' } : undefined;
  };
  if (typeof value === 'string') return check(value, at);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], at ? `${at}.${i}` : String(i));
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const path = at ? `${at}.${key}` : key;
      const found = check(key, path) ?? findUnstorable((value as Record<string, unknown>)[key], path);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * One rule for every text the API receives: PostgreSQL cannot store NUL (U+0000) in text or jsonb, nor an
 * unpaired surrogate in jsonb (the driver would silently turn it into U+FFFD in text), so a JSON body, query
 * string or path parameter carrying one is refused with a 400 before any route sees it.
 * Runs after the envelope is opened. The collector's body is left to the collector, which decides per field
 * (one bad event must not cost the other events of a beacon); its query string is checked here like any other.
 */
export function installTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const found =
      findUnstorable(request.params) ??
      findUnstorable(request.query) ??
      (ownsItsBody(request) ? undefined : findUnstorable(request.body));
    if (found) {
      const [code, message] = found.nul
        ? ['NUL_CHARACTER', msg.input.nulCharacter]
        : ['MALFORMED_TEXT', msg.input.malformedText];
      throw new AppError(code, 400, message, { [found.path]: message });
    }
  });
}

const ownsItsBody = (request: FastifyRequest) => request.routeOptions.url === '/collect';
