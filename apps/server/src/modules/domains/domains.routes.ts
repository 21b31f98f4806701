import {
  createDomainSchema,
  domainOnboardingSchema,
  domainUuidBodySchema,
  msg,
  updateDomainSchema,
  validateScriptSchema,
} from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { errorSchema, ok, successSchema } from '../../lib/reply.ts';
import * as domains from './domains.service.ts';

const uuidParam = z.object({ uuid: z.uuid(msg.common.notFound) });
const versionParams = z.object({ uuid: z.uuid(msg.common.notFound), version: z.string().max(40) });

type DomainUpdate = z.infer<ReturnType<typeof updateDomainSchema>>['domain'];
/** Quiet hours or own holidays without name and address (issue #27); with them, the edit takes them along. */
const isTimingOnly = (
  d: DomainUpdate,
): d is Extract<DomainUpdate, { quiet_hours: unknown } | { extra_holidays: unknown }> =>
  !('name' in d) && ('quiet_hours' in d || 'extra_holidays' in d);

export function domainsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const allowPrivate = ctx.config.allowPrivateFetch;
    const tags = ['domains'];

    r.get(
      '/domain/list/:company_uuid',
      { schema: { tags, params: z.object({ company_uuid: z.uuid(msg.common.notFound) }) } },
      async (req) =>
        ok(
          msg.domain.listed,
          await domains.listCompanyDomains(ctx, principalOf(req).companyUuid, req.params.company_uuid),
        ),
    );

    r.post('/domain/create', { schema: { tags, body: createDomainSchema(allowPrivate) } }, async (req) =>
      ok(msg.domain.created, await domains.createDomain(ctx, principalOf(req).companyUuid, req.body.domain)),
    );

    const update = async (
      companyUuid: string,
      uuid: string | undefined,
      body: z.infer<ReturnType<typeof updateDomainSchema>>,
    ) => {
      if (!uuid) throw notFound(msg.common.notFound, 'DOMAIN_NOT_FOUND');
      if ('status' in body.domain)
        return ok(msg.domain.enabled, await domains.setDomainStatus(ctx, companyUuid, uuid, 'Active'));
      if (isTimingOnly(body.domain))
        return ok(msg.domain.updated, await domains.setDomainTiming(ctx, companyUuid, uuid, body.domain));
      if (!('name' in body.domain) && 'timezone' in body.domain)
        return ok(msg.domain.updated, await domains.setTimezone(ctx, companyUuid, uuid, body.domain.timezone));
      if (!('name' in body.domain))
        return ok(
          msg.domain.updated,
          await domains.setControlGroup(ctx, companyUuid, uuid, body.domain.control_group_percent),
        );
      return ok(msg.domain.updated, await domains.editDomain(ctx, companyUuid, uuid, body.domain));
    };
    r.put(
      '/domain/update/:uuid',
      { schema: { tags, params: uuidParam, body: updateDomainSchema(allowPrivate) } },
      (req) => update(principalOf(req).companyUuid, req.params.uuid, req.body),
    );
    r.put('/domain/update', { schema: { tags, body: updateDomainSchema(allowPrivate) } }, (req) =>
      update(principalOf(req).companyUuid, req.body.domain.uuid, req.body),
    );

    r.delete(
      '/domain/remove',
      { schema: { tags, summary: 'Desativa o domínio', body: domainUuidBodySchema } },
      async (req) =>
        ok(
          msg.domain.disabled,
          await domains.setDomainStatus(ctx, principalOf(req).companyUuid, req.body.domain.uuid, 'Inactive'),
        ),
    );
    r.delete(
      '/domain/remove/:uuid',
      { schema: { tags, summary: 'Remove o domínio', params: uuidParam } },
      async (req) => {
        await domains.removeDomain(ctx, principalOf(req).companyUuid, req.params.uuid);
        return ok(msg.domain.removed, null);
      },
    );

    r.get(
      '/domain/onboarding/:uuid',
      {
        schema: {
          tags,
          summary: 'Primeiros passos do domínio',
          description:
            'Script instalado (o coletor já recebeu eventos), domínio validado, canal push integrado, primeiro opt-in recebido e primeiro momentum ativo, cada um lido dos dados reais.',
          params: uuidParam,
          response: { 200: successSchema(domainOnboardingSchema), 404: errorSchema },
        },
      },
      async (req) =>
        ok(msg.domain.onboardingLoaded, await domains.onboarding(ctx, principalOf(req).companyUuid, req.params.uuid)),
    );

    r.post('/gero/validate', { schema: { tags, body: validateScriptSchema } }, async (req) =>
      ok(
        msg.domain.validated,
        await domains.validateScript(ctx, principalOf(req).companyUuid, req.body.gero.domain_uuid),
      ),
    );
    r.get('/check-gero-script/:uuid', { schema: { tags, params: uuidParam } }, async (req) =>
      ok(msg.domain.validated, await domains.validateScript(ctx, principalOf(req).companyUuid, req.params.uuid)),
    );

    r.get('/gero/version/list', { schema: { tags } }, async () =>
      ok(
        msg.version.listed,
        ctx.tag.gero.map((version) => ({ version })),
      ),
    );
    r.get('/cnsw/version/list', { schema: { tags } }, async () =>
      ok(
        msg.version.listed,
        ctx.tag.cnsw.map((version) => ({ version })),
      ),
    );
    for (const kind of ['gero', 'cnsw'] as const) {
      r.put(`/${kind}/domain/:uuid/version/:version`, { schema: { tags, params: versionParams } }, async (req) =>
        ok(
          msg.version.changed(kind),
          await domains.changeVersion(ctx, principalOf(req).companyUuid, req.params.uuid, kind, req.params.version),
        ),
      );
    }
  };
}
