import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type ContentEncoding = 'br' | 'gzip' | 'identity';

/**
 * The encoding to answer `accept-encoding` with: the highest q-value among br and gzip (br on a tie, `*` counting
 * for whichever is not named), identity when neither is acceptable.
 */
export function pickEncoding(header: string | string[] | undefined): ContentEncoding {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const q = new Map<string, number>();
  for (const part of text.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const weight = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const br = weight('br');
  const gzip = Math.max(weight('gzip'), q.get('x-gzip') ?? 0);
  if (br <= 0 && gzip <= 0) return 'identity';
  return br >= gzip ? 'br' : 'gzip';
}

export interface Encoded {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** A body with its brotli and gzip copies; `quality: 'max'` for bodies compressed once and kept. */
export function encodeAll(body: string | Buffer, quality: 'max' | 'fast' = 'max'): Encoded {
  const identity = Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: quality === 'max' ? constants.BROTLI_MAX_QUALITY : 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
      },
    }),
    gzip: gzipSync(identity, { level: quality === 'max' ? constants.Z_BEST_COMPRESSION : 6 }),
  };
}

/** Sends the variant the client accepts, with `content-encoding` and `vary: accept-encoding`. */
export function sendEncoded(request: FastifyRequest, reply: FastifyReply, encoded: Encoded) {
  const encoding = pickEncoding(request.headers['accept-encoding']);
  reply.header('vary', 'accept-encoding');
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(encoded[encoding]);
}
