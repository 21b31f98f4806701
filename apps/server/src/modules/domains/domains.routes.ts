import { msg } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok } from '../../lib/reply.ts';
import { listCompanyDomains } from './domains.service.ts';

export function domainsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/domain/list/:company_uuid',
      { schema: { tags: ['domains'], params: z.object({ company_uuid: z.uuid(msg.common.notFound) }) } },
      async (req) =>
        ok(msg.domain.listed, await listCompanyDomains(ctx, principalOf(req).companyUuid, req.params.company_uuid)),
    );
  };
}
