import { msg } from '@impeto/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/** Where the first NUL is in a parsed value (a text or a key), as a dotted path; undefined when there is none. */
export function findNul(value: unknown, at = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? at || 'body' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], at ? `${at}.${i}` : String(i));
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      const path = at ? `${at}.${key}` : key;
      if (key.includes('\0')) return path;
      const found = findNul((value as Record<string, unknown>)[key], path);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * One rule for every text the API receives: PostgreSQL cannot store NUL (U+0000) in text or jsonb, so a JSON
 * body, query string or path parameter carrying one is refused with a 400 before any route sees it.
 * Runs after the envelope is opened. The collector's body is left to the collector, which decides per field
 * (one bad event must not cost the other events of a beacon); its query string is checked here like any other.
 */
export function installTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const field =
      findNul(request.params) ?? findNul(request.query) ?? (ownsItsBody(request) ? undefined : findNul(request.body));
    if (field) {
      throw new AppError('NUL_CHARACTER', 400, msg.input.nulCharacter, { [field]: msg.input.nulCharacter });
    }
  });
}

const ownsItsBody = (request: FastifyRequest) => request.routeOptions.url === '/collect';
