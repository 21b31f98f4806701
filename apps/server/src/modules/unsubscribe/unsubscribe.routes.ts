import { msg } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type Db, queryRows } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';
import { readUnsubscribeToken } from '../../lib/unsubscribe-token.ts';

/*
 * The unsubscribe link of every e-mail (public, no sign-in). `POST` is RFC 8058's one-click: mail clients post
 * `List-Unsubscribe=One-Click` as a form, and it also serves the confirmation page's button; `GET` only shows
 * that page (a link scanner following the link must not unsubscribe anyone). The person gets `email.optout`,
 * which every e-mail channel honours, and an `optout` event records when.
 */

const page = (title: string, body: string) => `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}
button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:6px;background:#C04848;color:#fff;cursor:pointer}</style>
</head><body><h1>${title}</h1>${body}</body></html>`;

export function unsubscribeRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const r = app.withTypeProvider<ZodTypeProvider>();
    const params = z.object({ token: z.string().max(200) });
    const u = msg.unsubscribe;

    r.get('/unsubscribe/:token', { schema: { tags: ['unsubscribe'], params } }, async (req, reply) => {
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      if (!readUnsubscribeToken(ctx.config.secretKey, req.params.token))
        return reply.code(404).send(page(u.title, `<p>${u.invalid}</p>`));
      return page(
        u.title,
        `<p>${u.question}</p><form method="post"><button type="submit">${u.confirm}</button></form>`,
      );
    });

    r.post('/unsubscribe/:token', { schema: { tags: ['unsubscribe'], params } }, async (req, reply) => {
      const personUuid = readUnsubscribeToken(ctx.config.secretKey, req.params.token);
      const oneClick = (req.body as Record<string, unknown> | undefined)?.['List-Unsubscribe'] === 'One-Click';
      if (!personUuid) {
        return oneClick
          ? reply.code(404).send({ message: u.invalid, code: 'UNSUBSCRIBE_INVALID' })
          : reply
              .code(404)
              .type('text/html; charset=utf-8')
              .send(page(u.title, `<p>${u.invalid}</p>`));
      }
      const now = ctx.clock.now();
      await ctx.db.transaction(async (tx) => {
        const updated = await queryRows<{ domain_uuid: string }>(
          tx as unknown as Db,
          sql`
          UPDATE persons SET attributes = attributes || jsonb_build_object('email.optout', true, 'email.optout_at', ${now.toISOString()}::text)
          WHERE uuid = ${personUuid}::uuid AND coalesce(attributes ->> 'email.optout', 'false') <> 'true'
          RETURNING domain_uuid`,
        );
        if (updated.length)
          await tx.execute(sql`
            INSERT INTO events (domain_uuid, person_uuid, kind, props, device, ts)
            SELECT domain_uuid, uuid, 'optout', '{"channel":"email","reason":"unsubscribe"}'::jsonb, NULL, ${now}
            FROM persons WHERE uuid = ${personUuid}::uuid`);
      });
      if (oneClick) return { message: u.done };
      return reply.type('text/html; charset=utf-8').send(page(u.title, `<p>${u.done}</p>`));
    });
  };
}
