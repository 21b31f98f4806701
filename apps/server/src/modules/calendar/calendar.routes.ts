import { brazilianHolidays, calendarMessages, holidaySchema, holidaysQuerySchema } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../lib/context.ts';
import { ok, successSchema } from '../../lib/reply.ts';

const yearInSaoPaulo = (at: Date) =>
  Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', year: 'numeric' }).format(at));

/** Public (DESIGN.md §11): the national holidays of a year, computed, for the schedule pickers and API clients. */
export function calendarRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/calendar/holidays',
      {
        schema: {
          tags: ['calendar'],
          summary: 'Feriados nacionais do Brasil de um ano (fixos e móveis, a partir da Páscoa)',
          querystring: holidaysQuerySchema,
          response: { 200: successSchema(z.array(holidaySchema)) },
        },
      },
      async (req) =>
        ok(calendarMessages.holidaysLoaded, brazilianHolidays(req.query.year ?? yearInSaoPaulo(ctx.clock.now()))),
    );
  };
}
