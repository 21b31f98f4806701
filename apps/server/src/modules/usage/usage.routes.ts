import { msg, usageQuerySchema, usageSchema } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok, successSchema } from '../../lib/reply.ts';
import { usageOf } from './usage.service.ts';

/** /payment's data: the plan and this (or a given) month's usage per domain of the caller's company. */
export function usageRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/usage',
      { schema: { tags: ['usage'], querystring: usageQuerySchema, response: { 200: successSchema(usageSchema) } } },
      async (req) => ok(msg.usage.loaded, await usageOf(ctx, principalOf(req).companyUuid, req.query.month)),
    );
  };
}
