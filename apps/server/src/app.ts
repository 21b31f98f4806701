import { existsSync } from 'node:fs';
import path from 'node:path';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { isEnvelope, msg } from '@impeto/shared';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import { createAknaAdapter } from './channels/akna.ts';
import { createSesAdapter } from './channels/aws-ses.ts';
import { createOneSignalAdapter } from './channels/onesignal.ts';
import { createOnsiteAdapter } from './channels/onsite.ts';
import { createWebPushAdapter } from './channels/web-push.ts';
import { createZenviaAdapter } from './channels/zenvia.ts';
import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { createEngine, type Engine } from './engine/engine.ts';
import { requireAuth } from './lib/auth-guard.ts';
import { type AppContext, type Clock, systemClock } from './lib/context.ts';
import { createDemoClock } from './lib/demo-clock.ts';
import { createEnvelopeKey, redact } from './lib/envelope.ts';
import { installErrorHandler } from './lib/error-handler.ts';
import { isJsonTooDeep, jsonTooDeep } from './lib/json-depth.ts';
import { loggerOptions } from './lib/log.ts';
import { createMailer, type Mailer } from './lib/mailer.ts';
import { registerSecurityHeaders } from './lib/security-headers.ts';
import { loadTagCatalog } from './lib/tag-catalog.ts';
import { installTextGuard } from './lib/text-guard.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { createAttribution } from './modules/analytics/attribution.ts';
import { authPrivateRoutes, authPublicRoutes } from './modules/auth/auth.routes.ts';
import { createCaptcha } from './modules/auth/captcha.ts';
import { calendarRoutes } from './modules/calendar/calendar.routes.ts';
import { channelsRoutes } from './modules/channels/channels.routes.ts';
import { collectRoutes } from './modules/collect/collect.routes.ts';
import { createIngestor, type Ingestor } from './modules/collect/ingest.ts';
import { createSpool } from './modules/collect/spool.ts';
import { companyRoutes } from './modules/company/company.routes.ts';
import { createDcm } from './modules/dcm/dcm.service.ts';
import { deliveriesRoutes } from './modules/deliveries/deliveries.routes.ts';
import { domainsRoutes } from './modules/domains/domains.routes.ts';
import { mediaFileRoutes, mediaRoutes } from './modules/media/media.routes.ts';
import { momentumsRoutes } from './modules/momentums/momentums.routes.ts';
import { personsRoutes } from './modules/persons/persons.routes.ts';
import { createRetention } from './modules/persons/retention.ts';
import { profileRoutes } from './modules/profile/profile.routes.ts';
import { simulateRoutes } from './modules/simulate/simulate.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { tagRoutes } from './modules/tag/tag.routes.ts';
import { unsubscribeRoutes } from './modules/unsubscribe/unsubscribe.routes.ts';
import { usageRoutes } from './modules/usage/usage.routes.ts';

export interface AppDeps {
  /** An already open database (tests hand in a per-file copy); otherwise opened from the config. */
  database?: Database;
  mailer?: Mailer;
  clock?: Clock;
  /** Where the log goes (default stdout); tests read it. */
  logStream?: DestinationStream;
  /** Apply migrations at start-up (default true). */
  migrate?: boolean;
  engine?: {
    /** Run the send loop and pg-boss workers here (default: unless ROLE=api). Tests drive the engine by hand. */
    work?: boolean;
    /** Extra CA for push services (the tests' local push service has a self-signed certificate). */
    pushCa?: string | Buffer;
    batchSize?: number;
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    ingestor: Ingestor;
    engine: Engine;
  }
}

/** A database's identity for the spool: host, port and name, never the password. */
const databaseIdentity = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return url;
  }
};

/** Builds the same app main.ts runs: API, dashboard and (later) collector and tag files on one server. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, deps.logStream),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  const database = deps.database ?? (await openDatabase(config));
  if (deps.migrate !== false) {
    try {
      const applied = await database.migrate(config.migrationsDir);
      if (applied.length) app.log.info({ migrations: applied }, `migrações aplicadas: ${applied.join(', ')}`);
    } catch (err) {
      if (!deps.database) await database.close();
      throw err;
    }
  }
  // The demonstration clock exists only with DEMO_CLOCK=1 outside production (config.ts refuses the pair too).
  const demoClock =
    config.demoClock && config.nodeEnv !== 'production' ? createDemoClock(deps.clock ?? systemClock) : undefined;
  const clock = demoClock ?? deps.clock ?? systemClock;
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    mailer: deps.mailer ?? createMailer(config, app.log),
    clock,
    envelope: await createEnvelopeKey(config.secretKey),
    tag: loadTagCatalog(config.trackerDist),
    log: app.log,
    dcm: createDcm({ db: database.db, clock, log: app.log }),
  };
  app.decorate('ctx', ctx);
  const work = deps.engine?.work ?? config.role !== 'api';
  const retention = createRetention(ctx, () => engine.jobs);
  const engine: Engine = createEngine(ctx, {
    work,
    jobs: [retention.job],
    batchSize: deps.engine?.batchSize ?? config.engineBatchSize,
    concurrency: config.engineConcurrency,
    adapters: [
      createWebPushAdapter({
        subject: config.vapidSubject,
        allowPrivate: config.allowPrivateFetch,
        encryptThreads: config.pushEncryptThreads,
        ...(deps.engine?.pushCa ? { ca: deps.engine.pushCa } : {}),
      }),
      createOnsiteAdapter(ctx.db, ctx.clock, (domainUuid, visitorId) => engine.noteOnsite(domainUuid, visitorId)),
      createZenviaAdapter({ baseUrl: config.providers.zenvia }),
      createSesAdapter({ endpoint: config.providers.sesEndpoint }),
      createAknaAdapter({ baseUrl: config.providers.akna }),
      createOneSignalAdapter({ baseUrl: config.providers.oneSignal }),
    ],
  });
  ctx.engine = engine;
  app.decorate('engine', engine);
  const attribution = createAttribution(ctx.db);
  ctx.attribution = attribution;
  const ingestor = createIngestor(ctx, {
    // Reports move deliveries first, so a conversion in the same batch as its click is credited to it.
    onStored: async (events) => {
      await engine.onEventsStored(events).finally(() => attribution.onEventsStored(events));
    },
    maxQueued: config.collectMemoryEvents,
    maxDeferredBytes: config.collectSpoolMaxBytes,
    // Only where the collector runs; a process of this role on the same machine replays what a dead one left.
    spool:
      config.collectSpool && config.role !== 'worker'
        ? createSpool(config.collectSpool, config.databaseUrl ? databaseIdentity(config.databaseUrl) : config.dataDir)
        : undefined,
  });
  app.decorate('ingestor', ingestor);
  app.addHook('onReady', async () => {
    await engine.start();
    if (work) await retention.schedule();
    // What a crashed process accepted and never stored, in the background (drain waits for it).
    void ingestor.recover();
  });
  app.addHook('onClose', async () => {
    await ingestor.close();
    await engine.stop();
    ctx.mailer.close();
    await database.close();
  });

  // An empty body is no body on every method (DESIGN.md §11), e.g. a DELETE sent with a JSON content type.
  // A body nested past MAX_JSON_DEPTH is refused before it is parsed: every later walk of it recurses.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    if (isJsonTooDeep(body as string)) return done(jsonTooDeep(), undefined);
    defaultJson(req, body as string, done);
  });

  // The dashboard seals JSON bodies (HPKE); open them before validation. Plain JSON stays accepted.
  app.addHook('preValidation', async (request) => {
    if (!isEnvelope(request.body)) return;
    request.body = await ctx.envelope.open(request.body);
    request.log.debug({ body: redact(request.body) }, 'envelope aberto');
  });
  installTextGuard(app);

  await app.register(cors, { origin: false });
  await registerSecurityHeaders(app, config);
  await app.register(swagger, {
    openapi: { info: { title: 'Ímpeto API', version: '0.1.0', description: 'API do painel, do coletor e da tag.' } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    systemRoutes(
      ctx,
      demoClock && {
        clock: demoClock,
        settle: async () => {
          await ingestor.drain();
          if (work) await engine.settle();
        },
      },
    ),
    { prefix: '/api' },
  );
  await app.register(tagRoutes(ctx));
  await app.register(collectRoutes(ctx, ingestor, engine));
  const captcha = createCaptcha(config.secretKey, config.captcha);
  await app.register(authPublicRoutes(ctx, captcha), { prefix: '/api' });
  await app.register(unsubscribeRoutes(ctx), { prefix: '/api' });
  await app.register(calendarRoutes(ctx), { prefix: '/api' });
  // company, channels, media (helper): media files are public, outside /api
  await app.register(mediaFileRoutes(ctx));
  await app.register(
    async (priv) => {
      priv.addHook('onRequest', requireAuth(ctx));
      await priv.register(authPrivateRoutes(ctx));
      await priv.register(domainsRoutes(ctx));
      await priv.register(personsRoutes(ctx));
      await priv.register(analyticsRoutes(ctx));
      await priv.register(momentumsRoutes(ctx));
      await priv.register(simulateRoutes(ctx));
      // company, channels, media (helper)
      await priv.register(companyRoutes(ctx));
      await priv.register(profileRoutes(ctx));
      await priv.register(usageRoutes(ctx));
      await priv.register(channelsRoutes(ctx));
      await priv.register(deliveriesRoutes(ctx));
      await priv.register(mediaRoutes(ctx));
    },
    { prefix: '/api' },
  );

  await serveDashboard(app, config);
  return app;
}

/** The built dashboard on the same port; unknown non-API GETs get index.html so the SPA routes them. */
async function serveDashboard(app: FastifyInstance, config: Config) {
  const hasDashboard = existsSync(path.join(config.webDist, 'index.html'));
  if (hasDashboard) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      // The build writes .br and .gz copies next to each file; Accept-Encoding picks one (Vary: accept-encoding).
      preCompressed: true,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders: (res, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    const isApi = url.startsWith('/api') || url.startsWith('/t/') || url.startsWith('/collect');
    if (hasDashboard && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).send({ message: msg.common.routeNotFound, code: 'ROUTE_NOT_FOUND' });
  });
}
