import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { msg } from '@impeto/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { domains } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const JS = 'application/javascript; charset=utf-8';

const findByGeroId = async (ctx: AppContext, geroId: string) =>
  (
    await ctx.db
      .select()
      .from(domains)
      .where(and(eq(domains.geroId, geroId), isNull(domains.removedAt)))
      .limit(1)
  )[0];

const tagNotFound = () => notFound(msg.common.notFound, 'TAG_NOT_FOUND');

/** The tag's public files (DESIGN.md §5 and §11): loader, per-domain config, versioned tracker and service worker. */
export function tagRoutes(ctx: AppContext) {
  const files = new Map<string, string>();
  const FILE = { gero: 'gero.min.js', cnsw: 'sw.js', dcm: 'dcm.min.js' } as const;
  const versioned = async (kind: 'gero' | 'cnsw' | 'dcm', version: string) => {
    const list = ctx.tag[kind];
    if (!list.includes(version)) throw tagNotFound();
    const key = `${kind}/${version}`;
    let body = files.get(key);
    if (body === undefined) {
      body = await readFile(path.join(ctx.tag.dir, kind === 'cnsw' ? 'cnsw' : 'gero', version, FILE[kind]), 'utf8');
      files.set(key, body);
    }
    return body;
  };
  const js = (reply: FastifyReply, cache: string, body: string) =>
    reply
      .header('content-type', JS)
      .header('cache-control', cache)
      .header('access-control-allow-origin', '*')
      .send(body);

  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['tag'];
    const version = z.string().regex(/^[0-9A-Za-z.-]{1,40}$/);

    r.get('/t/loader.js', { schema: { tags } }, (_req, reply) => js(reply, NO_CACHE, ctx.tag.loader));

    r.get(
      '/t/config/:gero_id',
      { schema: { tags, params: z.object({ gero_id: z.string().max(64) }) } },
      async (req, reply) => {
        const row = await findByGeroId(ctx, req.params.gero_id);
        if (!row) throw tagNotFound();
        // The GCD injector is a separate chunk: only domains with active GCD items, on a version that has it, load it.
        const dcm =
          row.status === 'Active' && ctx.tag.dcm.includes(row.geroVersion)
            ? await ctx.dcm.revision({ uuid: row.uuid, geroValidate: row.geroValidate })
            : null;
        return reply
          .header('cache-control', NO_CACHE)
          .header('access-control-allow-origin', '*')
          .send({
            id: row.geroId,
            root: row.domainRoot,
            enabled: row.status === 'Active',
            version: row.geroVersion,
            sw_version: row.cnSwVersion,
            vapid_public: row.vapidPublic,
            collect: `${ctx.config.publicUrl}/collect`,
            ...(dcm && { dcm }),
          });
      },
    );

    r.get('/t/gero/:version/gero.min.js', { schema: { tags, params: z.object({ version }) } }, async (req, reply) =>
      js(reply, IMMUTABLE, await versioned('gero', req.params.version)),
    );
    r.get('/t/gero/:version/dcm.min.js', { schema: { tags, params: z.object({ version }) } }, async (req, reply) =>
      js(reply, IMMUTABLE, await versioned('dcm', req.params.version)),
    );
    // The domain's GCD rules. The injector asks with `r` = the revision /t/config gave: that answer never changes
    // (a new revision is a new URL), so browsers keep it; without `r`, or with an old one, it is not cached.
    r.get(
      '/t/dcm/:gero_id',
      {
        schema: {
          tags,
          params: z.object({ gero_id: z.string().max(64) }),
          querystring: z.object({ r: z.string().max(64).optional() }),
        },
      },
      async (req, reply) => {
        const row = await findByGeroId(ctx, req.params.gero_id);
        if (row?.status !== 'Active') throw tagNotFound();
        const { rev, rules } = await ctx.dcm.rules({ uuid: row.uuid, geroValidate: row.geroValidate });
        return reply
          .header('cache-control', rev && req.query.r === rev ? IMMUTABLE : NO_CACHE)
          .header('access-control-allow-origin', '*')
          .send({ rev, rules });
      },
    );
    r.get('/t/cnsw/:version/sw.js', { schema: { tags, params: z.object({ version }) } }, async (req, reply) =>
      js(reply, IMMUTABLE, await versioned('cnsw', req.params.version)),
    );

    // The site's /cn_sw.min.js imports this URL; it serves the domain's chosen version, so a version change
    // never asks the customer to edit their file.
    r.get('/t/sw.js', { schema: { tags, querystring: z.object({ id: z.string().max(64) }) } }, async (req, reply) => {
      const row = await findByGeroId(ctx, req.query.id);
      if (!row) throw tagNotFound();
      const head = `self.__GERO=${JSON.stringify({ base: ctx.config.publicUrl, id: row.geroId })};\n`;
      return js(reply, NO_CACHE, head + (await versioned('cnsw', row.cnSwVersion)));
    });
  };
}
