import { type DevClockState, devClockMessages, devClockSchema, msg } from '@impeto/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../lib/context.ts';
import type { DemoClock } from '../../lib/demo-clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { isLocalRequest } from '../../lib/loopback.ts';
import { ok } from '../../lib/reply.ts';

/** The demonstration clock and what must be stored and sent before it moves (buildApp, DEMO_CLOCK=1 only). */
export interface DevClockHooks {
  clock: DemoClock;
  /** Stores what the collector accepted, runs the timed jobs that came due and sends the deliveries due. */
  settle(): Promise<void>;
}

export function systemRoutes(ctx: AppContext, devClock?: DevClockHooks) {
  /** Like the outbox: only with the demonstration clock, never in production, only to this machine (never behind a proxy). */
  const guardDevClock = async (request: FastifyRequest) => {
    if (!devClock || ctx.config.nodeEnv === 'production' || !isLocalRequest(request, ctx.config.trustProxy))
      throw notFound(msg.common.routeNotFound, 'ROUTE_NOT_FOUND');
  };
  const clockState = (): DevClockState => ({
    now: ctx.clock.now().toISOString(),
    shifted: devClock?.clock.shifted() ?? false,
  });

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
        if (
          !ctx.mailer.outbox ||
          ctx.config.nodeEnv === 'production' ||
          !isLocalRequest(request, ctx.config.trustProxy)
        )
          throw notFound(msg.common.routeNotFound, 'ROUTE_NOT_FOUND');
        return ok(msg.common.ok, ctx.mailer.outbox);
      },
    );

    const devClockDoc = {
      tags: ['system'],
      summary: 'Relógio de demonstração (DEMO_CLOCK=1, fora de produção, só para quem está neste computador)',
    };
    app.get('/dev/clock', { onRequest: guardDevClock, schema: devClockDoc }, async () =>
      ok(msg.common.ok, clockState()),
    );
    app
      .withTypeProvider<ZodTypeProvider>()
      .put(
        '/dev/clock',
        { onRequest: guardDevClock, schema: { ...devClockDoc, body: devClockSchema } },
        async (request) => {
          const hooks = devClock!;
          const at = request.body.clock.at === null ? null : new Date(request.body.clock.at);
          if (at && at > hooks.clock.real()) throw new AppError('DEV_CLOCK_FUTURE', 400, devClockMessages.future);
          // What arrived and came due before the move happens at the old instant, what comes due by the new one at
          // the new instant: the rollups come out as if the days had really gone by.
          await hooks.settle();
          hooks.clock.set(at);
          await hooks.settle();
          return ok(at ? devClockMessages.moved : devClockMessages.reset, clockState());
        },
      );
  };
}
