import { deliveryLogQuerySchema, frequencyCapSchema, msg } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok } from '../../lib/reply.ts';
import * as deliveries from './deliveries.service.ts';

/** What was sent: a momentum's delivery log, and the domain's frequency cap across channels. */
export function deliveriesRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['deliveries'];

    r.get(
      '/momentum/deliveries/:uuid',
      { schema: { tags, params: z.object({ uuid: z.string() }), querystring: deliveryLogQuerySchema } },
      async (req) =>
        ok(
          msg.deliveryLog.listed,
          await deliveries.deliveryLog(ctx, principalOf(req).companyUuid, req.params.uuid, req.query),
        ),
    );

    r.get('/domain/frequency/:uuid', { schema: { tags, params: z.object({ uuid: z.string() }) } }, async (req) =>
      ok(msg.common.ok, await deliveries.readFrequencyCap(ctx, principalOf(req).companyUuid, req.params.uuid)),
    );

    r.put(
      '/domain/frequency/:uuid',
      { schema: { tags, params: z.object({ uuid: z.string() }), body: frequencyCapSchema } },
      async (req) =>
        ok(
          msg.frequencyCap.updated,
          await deliveries.updateFrequencyCap(ctx, principalOf(req).companyUuid, req.params.uuid, req.body.domain),
        ),
    );
  };
}
