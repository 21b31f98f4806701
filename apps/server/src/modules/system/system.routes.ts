import { msg } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { isLocalRequest } from '../../lib/loopback.ts';
import { ok } from '../../lib/reply.ts';

export function systemRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get('/health', { schema: { tags: ['system'] } }, async () => {
      await ctx.database.db.execute('select 1');
      return ok(msg.common.healthy, { status: 'ok', database: ctx.database.kind });
    });

    app.get('/config', { schema: { tags: ['system'] } }, async () =>
      ok(msg.common.ok, {
        allowPrivate: ctx.config.allowPrivateFetch,
        envelope: { _pid: ctx.envelope.pid, _edv: 1 },
        captcha: 'altcha',
        publicUrl: ctx.config.publicUrl,
      }),
    );

    app.get('/envelope/key', { schema: { tags: ['system'] } }, async () =>
      ok(msg.common.ok, { _pid: ctx.envelope.pid, public_key: ctx.envelope.publicKey }),
    );

    app.get(
      '/dev/outbox',
      {
        schema: {
          tags: ['system'],
          summary: 'Caixa de saída de e-mails (sem SMTP, fora de produção, só para quem está neste computador)',
        },
      },
      async (request) => {
        // Reset links are account takeovers: the outbox is served to this machine only, and never in production.
        if (!ctx.mailer.outbox || ctx.config.nodeEnv === 'production' || !isLocalRequest(request))
          throw notFound(msg.common.routeNotFound, 'ROUTE_NOT_FOUND');
        return ok(msg.common.ok, ctx.mailer.outbox);
      },
    );
  };
}
