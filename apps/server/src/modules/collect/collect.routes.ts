import { COLLECT_LIMITS, collectBatchSchema, collectMessages, isIanaTimeZone } from '@impeto/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { dbErrorReason } from '../../db/client.ts';
import { domains } from '../../db/schema.ts';
import type { Engine } from '../../engine/engine.ts';
import type { AppContext } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { isJsonTooDeep, jsonTooDeep } from '../../lib/json-depth.ts';
import { createEnricher } from './enrich.ts';
import { guardEvents } from './guard-events.ts';
import type { Ingestor } from './ingest.ts';
import { requestAttributes } from './person-upsert.ts';
import { isStorable, mayHoldUnstorable, storableText } from './storable-text.ts';

interface DomainTarget {
  uuid: string;
  root: URL;
  active: boolean;
  geroValidate: boolean;
}

const CACHE_MS = 10_000;

/** Origin = the domain root, or a subdomain of its host on the same scheme (DESIGN.md §11). */
export function isOriginAllowed(origin: string | undefined, root: URL) {
  if (!origin) return false;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.protocol !== root.protocol) return false;
  if (o.host === root.host) return true;
  return o.hostname.endsWith(`.${root.hostname}`) && (root.port === '' || o.port === root.port);
}

const identifier = z.string().min(1).max(64).refine(isStorable);
const pendingQuery = z.object({ id: identifier, vid: identifier });
const profileQuery = pendingQuery.extend({ l: z.string().max(35).refine(isStorable).optional() });

const knownZones = new Map<string, boolean>();
/** The tag's time zone is an IANA name this runtime knows (answers kept: a site's visitors report a handful). */
const isKnownZone = (name: string) => {
  let known = knownZones.get(name);
  if (known === undefined) {
    known = isIanaTimeZone(name);
    if (knownZones.size < 2000) knownZones.set(name, known);
  }
  return known;
};

export function collectRoutes(
  ctx: AppContext,
  ingestor: Ingestor,
  engine?: Pick<Engine, 'takeOnsite' | 'mayHaveOnsite'>,
) {
  const enrich = createEnricher(ctx);
  const busy = () => new AppError('COLLECTOR_BUSY', 503, collectMessages.busy);
  const cache = new Map<string, { at: number; target: DomainTarget | null }>();
  const findTarget = async (geroId: string, reply: FastifyReply) => {
    const hit = cache.get(geroId);
    const now = Date.now();
    if (hit && now - hit.at < CACHE_MS) return hit.target;
    let row: { uuid: string; root: string; status: string; geroValidate: boolean } | undefined;
    try {
      [row] = await ctx.db
        .select({
          uuid: domains.uuid,
          root: domains.domainRoot,
          status: domains.status,
          geroValidate: domains.geroValidate,
        })
        .from(domains)
        .where(and(eq(domains.geroId, geroId), isNull(domains.removedAt)))
        .limit(1);
    } catch (err) {
      // The database is away (a restart, a failover): keep collecting for the domains already known, into the spool;
      // an unknown one is asked to come back. The known answer is kept for another while, so requests do not queue on
      // a database that is not there.
      if (hit) {
        cache.set(geroId, { at: now, target: hit.target });
        return hit.target;
      }
      ctx.log.warn({ reason: dbErrorReason(err) }, 'coletor: banco indisponível ao buscar o domínio');
      reply.header('retry-after', '2');
      throw busy();
    }
    const target = row
      ? { uuid: row.uuid, root: new URL(row.root), active: row.status === 'Active', geroValidate: row.geroValidate }
      : null;
    if (cache.size > 10_000) cache.clear();
    cache.set(geroId, { at: now, target });
    return target;
  };

  const cors = (request: FastifyRequest, reply: FastifyReply) => {
    reply
      .header('access-control-allow-origin', request.headers.origin ?? '*')
      .header('vary', 'Origin')
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '86400');
  };

  return async (app: FastifyInstance) => {
    // sendBeacon posts text/plain (no CORS preflight); parse it as JSON here, in pt_BR on failure.
    app.addContentTypeParser(
      'text/plain',
      { parseAs: 'string', bodyLimit: COLLECT_LIMITS.bodyBytes },
      (req, body, done) => {
        // Nested past MAX_JSON_DEPTH: no batch is, and walking it would run out of stack.
        if (isJsonTooDeep(body as string)) return done(jsonTooDeep(), undefined);
        try {
          const parsed = JSON.parse(body as string);
          if (!mayHoldUnstorable(body as string)) storableBodies.add(req);
          done(null, parsed);
        } catch {
          done(new AppError('INVALID_JSON', 400, collectMessages.invalidJson), undefined);
        }
      },
    );
    app.addHook('onRequest', async (request, reply) => cors(request, reply));

    app.options('/collect', async (_req, reply) => reply.code(204).send());
    app.options('/collect/*', async (_req, reply) => reply.code(204).send());

    app.post(
      '/collect',
      { bodyLimit: COLLECT_LIMITS.bodyBytes, schema: { tags: ['collect'] } },
      async (request, reply) => {
        const parsed = collectBatchSchema.safeParse(request.body);
        if (!parsed.success) throw new AppError('INVALID_BATCH', 400, collectMessages.invalidBatch);
        const batch = parsed.data;
        if (batch.e.length > COLLECT_LIMITS.events)
          throw new AppError('TOO_MANY_EVENTS', 413, collectMessages.tooManyEvents);
        // Strings PostgreSQL cannot store (NUL, unpaired surrogates) are refused or cleaned here, never left to sink
        // a batch of other requests in the database (storable-text.ts).
        const careful = !storableBodies.has(request);
        if (careful) {
          if (!isStorable(batch.id)) throw new AppError('INVALID_BATCH', 400, collectMessages.invalidBatch);
          if (batch.vid !== undefined && !isStorable(batch.vid))
            throw new AppError('INVALID_VISITOR', 400, collectMessages.invalidVisitor);
          if (batch.l !== undefined) batch.l = storableText(batch.l);
          if (batch.tz !== undefined) batch.tz = storableText(batch.tz);
        }
        const target = await findTarget(batch.id, reply);
        if (!target) throw new AppError('UNKNOWN_GERO_ID', 404, collectMessages.unknownId);
        if (!target.active) throw new AppError('DOMAIN_DISABLED', 403, collectMessages.disabled);
        if (!isOriginAllowed(request.headers.origin, target.root)) {
          throw new AppError('FOREIGN_ORIGIN', 403, collectMessages.foreignOrigin);
        }
        if (enrich.isBot(request.headers['user-agent']))
          return reply.code(202).send({ accepted: 0, rejected: [], onsite: [], bot: true });

        const { accepted, rejected } = guardEvents(batch.e, {
          careful,
          hasVisitor: Boolean(batch.vid),
          allowPrivateFetch: ctx.config.allowPrivateFetch,
        });
        if (accepted.length) {
          const { device, geo, language } = enrich.senderOf(request, batch.l);
          const queued = ingestor.push({
            domainUuid: target.uuid,
            visitorId: batch.vid,
            device,
            geo,
            language,
            ...(batch.tz && isKnownZone(batch.tz) ? { timezone: batch.tz } : {}),
            receivedAt: ctx.clock.now(),
            events: accepted,
          });
          if (!queued) {
            reply.header('retry-after', '2');
            throw busy();
          }
          await ingestor.durable();
        }
        // On-site messages ride on the answer when this process knows some may wait (the tag also polls);
        // never on a sendBeacon (no-cors), whose answer the page cannot read.
        const readable = request.headers['sec-fetch-mode'] !== 'no-cors';
        // The events are accepted: a database away now only means the messages wait for the tag's next poll.
        const onsite =
          engine && batch.vid && readable && engine.mayHaveOnsite(target.uuid, batch.vid)
            ? await engine.takeOnsite(target.uuid, batch.vid).catch(() => [])
            : [];
        return reply.code(202).send({ accepted: accepted.length, rejected, onsite });
      },
    );

    // The GCD injector's view of its visitor: the attributes its rules' filters read (dcm.service visitorProfile).
    // The visitor's own data, so only for a page of the domain (Origin), never cached.
    app.get('/collect/dcm', { schema: { tags: ['collect'] } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const parsed = profileQuery.safeParse(request.query);
      if (!parsed.success) throw new AppError('INVALID_BATCH', 400, collectMessages.invalidBatch);
      const target = await findTarget(parsed.data.id, reply);
      if (!target) throw new AppError('UNKNOWN_GERO_ID', 404, collectMessages.unknownId);
      if (!target.active) throw new AppError('DOMAIN_DISABLED', 403, collectMessages.disabled);
      if (!isOriginAllowed(request.headers.origin, target.root)) {
        throw new AppError('FOREIGN_ORIGIN', 403, collectMessages.foreignOrigin);
      }
      if (enrich.isBot(request.headers['user-agent'])) return reply.send({ a: {} });
      const fromRequest = requestAttributes(enrich.senderOf(request, parsed.data.l));
      const a = await ctx.dcm.visitorProfile(target, parsed.data.vid, fromRequest);
      // g: the visitor's person is in the domain's global control group (issue #25): no GCD test shows them anything.
      const g = await ctx.dcm.globalControl(target, parsed.data.vid);
      return reply.send({ a, ...(g && { g: 1 }) });
    });

    app.get('/collect/pending', { schema: { tags: ['collect'] } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const parsed = pendingQuery.safeParse(request.query);
      if (!parsed.success) throw new AppError('INVALID_BATCH', 400, collectMessages.invalidBatch);
      const target = await findTarget(parsed.data.id, reply);
      if (!target) throw new AppError('UNKNOWN_GERO_ID', 404, collectMessages.unknownId);
      if (!target.active) throw new AppError('DOMAIN_DISABLED', 403, collectMessages.disabled);
      const onsite = engine
        ? await engine.takeOnsite(target.uuid, parsed.data.vid).catch(() => {
            reply.header('retry-after', '5');
            throw busy();
          })
        : [];
      return reply.send({ onsite });
    });
  };
}

/** Text/plain bodies whose JSON text carries no escape PostgreSQL could refuse (most): their events are not walked. */
const storableBodies = new WeakSet<object>();
