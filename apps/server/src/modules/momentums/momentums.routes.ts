import {
  createMomentumSchema,
  MOMENTUM_TYPES,
  momentumMessages as m,
  momentumStatusSchema,
  updateMomentumSchema,
} from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok } from '../../lib/reply.ts';
import * as momentums from './momentums.service.ts';

const uuid = z.uuid(m.notFound);

/** The momentum service of spec doc 2 §7 (momentums, campaigns and DCM rules share it). */
export function momentumsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['momentums'];

    r.get(
      '/momentum/list/:domainUuid',
      {
        schema: {
          tags,
          params: z.object({ domainUuid: uuid }),
          querystring: z.object({ type: z.enum(MOMENTUM_TYPES).default('momentum') }),
        },
      },
      async (req) =>
        ok(m.listed, await momentums.listForDomain(ctx, principalOf(req), req.params.domainUuid, req.query.type)),
    );
    r.get('/momentum/list', { schema: { tags, querystring: z.object({ id: uuid }) } }, async (req) =>
      ok(m.loaded, await momentums.getOne(ctx, principalOf(req), req.query.id)),
    );

    for (const url of ['/momentum/create', '/momentum/create/']) {
      r.post(url, { schema: { tags, body: createMomentumSchema } }, async (req) => {
        const { item, message } = await momentums.create(ctx, principalOf(req), req.body);
        return ok(message, item);
      });
    }
    r.put('/momentum/update', { schema: { tags, body: updateMomentumSchema } }, async (req) => {
      const { item, message } = await momentums.update(ctx, principalOf(req), req.body);
      return ok(message, item);
    });
    r.put(
      '/momentum/status/:uuid',
      { schema: { tags, params: z.object({ uuid }), body: momentumStatusSchema } },
      async (req) => {
        const { item, message } = await momentums.changeStatus(ctx, principalOf(req), req.params.uuid, req.body.status);
        return ok(message, item);
      },
    );
    r.delete('/momentum/remove/:id', { schema: { tags, params: z.object({ id: uuid }) } }, async (req) => {
      const { message } = await momentums.remove(ctx, principalOf(req), req.params.id);
      return ok(message, null);
    });
  };
}
