import {
  changeEmailSchema,
  changePasswordSchema,
  confirmEmailSchema,
  msg,
  profileSchema,
  sessionIdParamsSchema,
  updateProfileSchema,
  userSessionSchema,
} from '@impeto/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { createLimiter } from '../../lib/rate-limit.ts';
import { ok, successSchema } from '../../lib/reply.ts';
import * as profile from './profile.service.ts';

const answer = <T extends z.ZodType>(data: T) => ({ 200: successSchema(data) });

/** /profile: the user's name, e-mail (confirmed by a mailed link), password and sessions. */
export function profileRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['profile'];
    // Password checks and mailed links are what an attacker with a stolen token would hammer.
    const sensitive = createLimiter(ctx.config.authRateLimit, 60_000);
    const limitByUser = async (req: FastifyRequest) => sensitive(principalOf(req).userUuid);

    r.get('/profile', { schema: { tags, response: answer(profileSchema) } }, async (req) =>
      ok(msg.profile.loaded, await profile.getProfile(ctx, principalOf(req).userUuid)),
    );

    r.put('/profile', { schema: { tags, body: updateProfileSchema, response: answer(profileSchema) } }, async (req) =>
      ok(msg.profile.nameSaved, await profile.updateName(ctx, principalOf(req).userUuid, req.body.profile.name)),
    );

    r.post(
      '/profile/email',
      { onRequest: limitByUser, schema: { tags, body: changeEmailSchema, response: answer(profileSchema) } },
      async (req) =>
        ok(
          msg.profile.emailSent,
          await profile.requestEmailChange(ctx, principalOf(req).userUuid, req.body.profile.email),
        ),
    );

    r.put(
      '/profile/email',
      { onRequest: limitByUser, schema: { tags, body: confirmEmailSchema, response: answer(profileSchema) } },
      async (req) =>
        ok(
          msg.profile.emailConfirmed,
          await profile.confirmEmailChange(ctx, principalOf(req).userUuid, req.body.profile.token),
        ),
    );

    r.put(
      '/profile/password',
      { onRequest: limitByUser, schema: { tags, body: changePasswordSchema } },
      async (req) => {
        await profile.changePassword(ctx, principalOf(req), req.body.profile);
        return ok(msg.profile.passwordChanged, null);
      },
    );

    r.get('/profile/sessions', { schema: { tags, response: answer(z.array(userSessionSchema)) } }, async (req) =>
      ok(msg.profile.sessionsLoaded, await profile.listSessions(ctx, principalOf(req))),
    );

    r.delete('/profile/sessions/:id', { schema: { tags, params: sessionIdParamsSchema } }, async (req) => {
      await profile.endSession(ctx, principalOf(req), req.params.id);
      return ok(msg.profile.sessionEnded, null);
    });

    r.delete('/profile/sessions', { schema: { tags } }, async (req) => {
      await profile.endOtherSessions(ctx, principalOf(req));
      return ok(msg.profile.otherSessionsEnded, null);
    });
  };
}
