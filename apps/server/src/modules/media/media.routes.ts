import { MEDIA_BODY_LIMIT, msg, uploadMediaSchema } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok } from '../../lib/reply.ts';
import { createMediaStorage, type Storage } from '../../lib/storage.ts';
import * as media from './media.service.ts';

/** The domain's gallery (spec doc 1 §2 media page, §7; doc 2 §7). Private, under /api. */
export function mediaRoutes(ctx: AppContext, storage: Storage = createMediaStorage(ctx.config)) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const domainParams = z.object({ domain_uuid: z.string() });

    r.get('/gallery/list/:domain_uuid/domain', { schema: { tags: ['media'], params: domainParams } }, async (req) =>
      ok(msg.media.listed, await media.listMedia(ctx, principalOf(req).companyUuid, req.params.domain_uuid)),
    );

    r.post(
      '/gallery/upload/:domain_uuid/domain',
      { bodyLimit: MEDIA_BODY_LIMIT, schema: { tags: ['media'], params: domainParams, body: uploadMediaSchema } },
      async (req) => {
        const caller = principalOf(req).companyUuid;
        const saved = await media.uploadMedia(ctx, storage, caller, req.params.domain_uuid, req.body.images);
        return ok(msg.media.uploaded, saved);
      },
    );

    r.delete(
      '/gallery/remove/:imageId/filename',
      { schema: { tags: ['media'], params: z.object({ imageId: z.string() }) } },
      async (req) =>
        ok(msg.media.removed, await media.removeMedia(ctx, storage, principalOf(req).companyUuid, req.params.imageId)),
    );
  };
}

/** Public, outside /api: `GET /media/:gero_id/:file`, the URLs the gallery hands out (DESIGN.md §11). */
export function mediaFileRoutes(ctx: AppContext, storage: Storage = createMediaStorage(ctx.config)) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/media/:gero_id/:file',
      { schema: { tags: ['media'], params: z.object({ gero_id: z.string(), file: z.string() }) } },
      async (req, reply) => {
        const file = await media.readMediaFile(storage, req.params.gero_id, req.params.file);
        return (
          reply
            .header('content-type', file.contentType)
            .header('x-content-type-options', 'nosniff')
            // Names are fresh uuids and never rewritten, so a file can be cached for good.
            .header('cache-control', 'public, max-age=31536000, immutable')
            // Customer sites show these images (notification icons, on-site messages).
            .header('cross-origin-resource-policy', 'cross-origin')
            .header('content-security-policy', "default-src 'none'; sandbox")
            .send(file.bytes)
        );
      },
    );
  };
}
