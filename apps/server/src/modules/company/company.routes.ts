import { companyFormSchema, msg } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok } from '../../lib/reply.ts';
import * as company from './company.service.ts';

/** Company settings (spec doc 1 §2 settings page, §7): the company card and modal. */
export function companyRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const params = z.object({ id: z.string() });

    r.get('/company/list/:id', { schema: { tags: ['company'], params } }, async (req) =>
      ok(msg.company.listed, await company.getCompany(ctx, principalOf(req).companyUuid, req.params.id)),
    );

    r.post('/company/:id/step2', { schema: { tags: ['company'], params, body: companyFormSchema } }, async (req) => {
      const caller = principalOf(req).companyUuid;
      return ok(msg.company.saved, await company.saveCompanyForm(ctx, caller, req.params.id, req.body.company, 'add'));
    });

    r.put('/company/update/:id', { schema: { tags: ['company'], params, body: companyFormSchema } }, async (req) => {
      const caller = principalOf(req).companyUuid;
      return ok(
        msg.company.updated,
        await company.saveCompanyForm(ctx, caller, req.params.id, req.body.company, 'edit'),
      );
    });
  };
}
