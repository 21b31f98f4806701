import { msg, personEraseSchema, personLookupSchema } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok } from '../../lib/reply.ts';
import * as persons from './persons.service.ts';
import * as privacy from './privacy.service.ts';

const domainParam = z.object({ domain: z.uuid(msg.common.notFound) });
const categoryParam = z.object({ category: z.uuid(msg.common.notFound) });

/** The person API of spec doc 2 §7: filter keys and values, impact, event categories, and the visitor list. */
export function personsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['persons'];
    const company = (req: Parameters<typeof principalOf>[0]) => principalOf(req).companyUuid;

    r.get('/person/filter/:domain', { schema: { tags, params: domainParam } }, async (req) =>
      ok(msg.person.filters, await persons.listFilters(ctx, company(req), req.params.domain)),
    );

    r.get(
      '/person/search/:domain/filter/:key',
      {
        schema: {
          tags,
          params: z.object({ domain: z.uuid(msg.common.notFound), key: z.string().max(100) }),
          querystring: z.object({ search: z.string().max(100).optional() }),
        },
      },
      async (req) =>
        ok(
          msg.person.values,
          await persons.searchFilterValues(ctx, company(req), req.params.domain, req.params.key, req.query.search),
        ),
    );

    r.post(
      '/person/search/peopleImpacted/:domain',
      { schema: { tags, params: domainParam, body: z.object({ momentums: z.array(z.unknown()).max(10) }) } },
      async (req) =>
        ok(msg.person.impact, await persons.peopleImpacted(ctx, company(req), req.params.domain, req.body.momentums)),
    );

    r.get('/person/event/:domain', { schema: { tags, params: domainParam } }, async (req) =>
      ok(msg.person.categories, await persons.listEventCategories(ctx, company(req), req.params.domain)),
    );
    r.get('/person/event/filters/:category', { schema: { tags, params: categoryParam } }, async (req) =>
      ok(msg.person.keys, await persons.listEventKeys(ctx, company(req), req.params.category)),
    );
    r.get(
      '/person/event/filters/:category/key/:key',
      { schema: { tags, params: categoryParam.extend({ key: z.string().min(1).max(100) }) } },
      async (req) =>
        ok(msg.person.values, await persons.listEventValues(ctx, company(req), req.params.category, req.params.key)),
    );

    r.get(
      '/person/list/:domain',
      { schema: { tags, params: domainParam, querystring: z.object({ page: z.coerce.number().int().default(1) }) } },
      async (req) =>
        ok(msg.person.listed, await persons.listPersons(ctx, company(req), req.params.domain, req.query.page)),
    );

    // Visitors' rights (LGPD art. 18): find, export and erase a person by visitor id, e-mail or phone.
    const lookup = { tags, params: domainParam, querystring: personLookupSchema };
    r.get('/person/lookup/:domain', { schema: { ...lookup, summary: 'Localiza um visitante (LGPD)' } }, async (req) =>
      ok(msg.privacy.found, await privacy.lookupPersons(ctx, company(req), req.params.domain, req.query)),
    );
    r.get(
      '/person/export/:domain',
      { schema: { ...lookup, summary: 'Exporta os dados de um visitante em JSON (LGPD art. 18, V)' } },
      async (req, reply) => {
        const data = await privacy.exportPersons(ctx, company(req), req.params.domain, req.query);
        reply.header('content-disposition', `attachment; filename="visitante-${req.params.domain}.json"`);
        return ok(msg.privacy.exported, data);
      },
    );
    r.delete(
      '/person/erase/:domain',
      {
        schema: {
          tags,
          params: domainParam,
          body: personEraseSchema,
          summary: 'Apaga definitivamente os dados de um visitante (LGPD art. 18, VI)',
        },
      },
      async (req) =>
        ok(msg.privacy.erased, await privacy.erasePersons(ctx, company(req), req.params.domain, req.body.person)),
    );
  };
}
