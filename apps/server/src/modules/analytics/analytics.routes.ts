import {
  analyticsMessages as am,
  analyticsRangeSchema,
  conversionSettingsSchema,
  eventPeriodQuerySchema,
  experimentMessages,
  journeyMessages,
  mostViewedQuerySchema,
  msg,
} from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok } from '../../lib/reply.ts';
import * as analytics from './analytics.service.ts';
import { domainExperiments, experimentReport } from './experiment.service.ts';
import { domainJourneys, journeyReport } from './journey.service.ts';

const domainParam = z.object({ domainUuid: z.uuid(msg.common.notFound) });

/**
 * The analytics service (spec doc 1 §7, READINGS A-23): one GET per widget, each reading daily counters, each
 * answering only for a domain of the caller's company.
 */
export function analyticsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['analytics'];
    const company = (req: Parameters<typeof principalOf>[0]) => principalOf(req).companyUuid;
    const ranged = { tags, params: domainParam, querystring: analyticsRangeSchema };

    r.get('/analytics/:domainUuid/count/visits', { schema: ranged }, async (req) =>
      ok(am.loaded, await analytics.visits(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get('/analytics/:domainUuid/count/visitors', { schema: ranged }, async (req) =>
      ok(am.loaded, await analytics.visitors(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get(
      '/analytics/:domainUuid/count/momentums',
      { schema: { tags, params: domainParam, querystring: analyticsRangeSchema.optional() } },
      async (req) => ok(am.loaded, await analytics.momentumCounts(ctx, company(req), req.params.domainUuid)),
    );
    r.get('/analytics/:domainUuid/count/live', { schema: { tags, params: domainParam } }, async (req) =>
      ok(am.loaded, await analytics.liveVisitors(ctx, company(req), req.params.domainUuid)),
    );
    r.get(
      '/analytics/:domainUuid/pages/mostViewed',
      { schema: { tags, params: domainParam, querystring: mostViewedQuerySchema } },
      async (req) =>
        ok(am.mostViewedLoaded, await analytics.mostViewed(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get('/analytics/:domainUuid/visitors/category', { schema: ranged }, async (req) =>
      ok(am.loaded, await analytics.visitorsByCategory(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get('/analytics/:domainUuid/visitors/device', { schema: ranged }, async (req) =>
      ok(am.loaded, await analytics.visitorsByDevice(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get('/analytics/:domainUuid/base/channel', { schema: ranged }, async (req) =>
      ok(am.loaded, await analytics.baseByChannel(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get('/analytics/:domainUuid/momentums/performance', { schema: ranged }, async (req) =>
      ok(am.loaded, await analytics.momentumPerformance(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get('/analytics/:domainUuid/momentums/daily', { schema: ranged }, async (req) =>
      ok(am.loaded, await analytics.momentumDaily(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get(
      '/analytics/:domainUuid/momentum/:momentumUuid/experiment',
      {
        schema: {
          tags,
          summary: 'Resultado do teste A/B e do grupo de controle de um momentum',
          params: domainParam.extend({ momentumUuid: z.uuid(am.momentumNotFound) }),
          querystring: analyticsRangeSchema,
        },
      },
      async (req) =>
        ok(
          experimentMessages.reportLoaded,
          await experimentReport(ctx, company(req), req.params.domainUuid, req.params.momentumUuid, req.query),
        ),
    );
    r.get(
      '/analytics/:domainUuid/momentum/:momentumUuid/journey',
      {
        schema: {
          tags,
          summary: 'Resultado de cada etapa da jornada de um momentum (alcançaram, saíram, enviadas, conversões)',
          params: domainParam.extend({ momentumUuid: z.uuid(am.momentumNotFound) }),
          querystring: analyticsRangeSchema,
        },
      },
      async (req) =>
        ok(
          journeyMessages.reportLoaded,
          await journeyReport(ctx, company(req), req.params.domainUuid, req.params.momentumUuid, req.query),
        ),
    );
    r.get(
      '/analytics/:domainUuid/journeys',
      { schema: { ...ranged, summary: 'Resultados por etapa de todas as jornadas do domínio (exportação)' } },
      async (req) =>
        ok(journeyMessages.reportLoaded, await domainJourneys(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get(
      '/analytics/:domainUuid/experiments',
      { schema: { ...ranged, summary: 'Resultados dos testes A/B de todos os momentums do domínio (exportação)' } },
      async (req) =>
        ok(
          experimentMessages.reportLoaded,
          await domainExperiments(ctx, company(req), req.params.domainUuid, req.query),
        ),
    );
    r.get('/analytics/:domainUuid/optins/daily', { schema: ranged }, async (req) =>
      ok(am.loaded, await analytics.optinsDaily(ctx, company(req), req.params.domainUuid, req.query)),
    );
    r.get(
      '/analytics/momentum/:momentumUuid/count/dailyPeopleImpacted',
      {
        schema: {
          tags,
          params: z.object({ momentumUuid: z.uuid(am.momentumNotFound) }),
          querystring: analyticsRangeSchema,
        },
      },
      async (req) =>
        ok(am.loaded, await analytics.oneMomentumDaily(ctx, company(req), req.params.momentumUuid, req.query)),
    );
    r.get(
      '/analytics/event/:event/:domainUuid/count/dailyPeopleImpacted',
      {
        schema: {
          tags,
          params: domainParam.extend({ event: z.uuid(am.categoryNotFound) }),
          querystring: eventPeriodQuerySchema,
        },
      },
      async (req) =>
        ok(
          am.loaded,
          await analytics.eventDaily(ctx, company(req), req.params.event, req.params.domainUuid, req.query),
        ),
    );
    r.get('/analytics/:domainUuid/settings', { schema: { tags, params: domainParam } }, async (req) =>
      ok(am.loaded, await analytics.conversionSettings(ctx, company(req), req.params.domainUuid)),
    );
    r.put(
      '/analytics/:domainUuid/settings',
      { schema: { tags, params: domainParam, body: conversionSettingsSchema } },
      async (req) =>
        ok(
          am.settingsSaved,
          await analytics.saveConversionSettings(ctx, company(req), req.params.domainUuid, req.body.settings),
        ),
    );
  };
}
