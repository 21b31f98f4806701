import { simulateMessages, simulateMomentumSchema, simulationResultSchema } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { AppError } from '../../lib/errors.ts';
import { errorSchema, ok, successSchema } from '../../lib/reply.ts';
import { createSimulator } from './simulate.service.ts';

/** `POST /api/momentum/simulate`: a dry run of a momentum over the domain's history (issue #28). */
export function simulateRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const simulate = createSimulator(ctx);
    r.post(
      '/momentum/simulate',
      {
        schema: {
          tags: ['momentums'],
          summary: 'Simula um momentum sobre o histórico do domínio (1, 7 ou 30 dias), sem enviar nada',
          body: simulateMomentumSchema,
          response: {
            200: successSchema(simulationResultSchema),
            400: errorSchema,
            403: errorSchema,
            404: errorSchema,
            429: errorSchema,
          },
        },
      },
      async (req, reply) => {
        // The client went away (the panel closed, the page left): the replay stops at its next page.
        const abort = new AbortController();
        const onClose = () => {
          if (!reply.raw.writableFinished)
            abort.abort(new AppError('SIMULATION_CANCELLED', 499, simulateMessages.cancelled));
        };
        reply.raw.on('close', onClose);
        try {
          return ok(simulateMessages.done, await simulate(principalOf(req), req.body, abort.signal));
        } finally {
          reply.raw.off('close', onClose);
        }
      },
    );
  };
}
