import {
  createCompanySchema,
  msg,
  recoverySchema,
  resetPasswordSchema,
  signinSchema,
  signupEnvelopeSchema,
  signupKind,
  signupUserSchema,
  validateAccountSchema,
} from '@impeto/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { geoFromHeaders, placeLabel, processGeo } from '../../lib/geo.ts';
import { createLimiter } from '../../lib/rate-limit.ts';
import { ok } from '../../lib/reply.ts';
import { parseBody } from '../../lib/validate.ts';
import * as auth from './auth.service.ts';
import type { Captcha } from './captcha.ts';

/** Sign-up, validation, sign-in and recovery: the public half of accounts. */
export function authPublicRoutes(ctx: AppContext, captcha: Captcha) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const minute = 60_000;
    const signinByIp = createLimiter(ctx.config.authRateLimit, minute);
    const signinByUsername = createLimiter(ctx.config.authRateLimit, minute);
    const accountsByIp = createLimiter(ctx.config.authRateLimit * 6, minute);
    const perIp = async (req: FastifyRequest) => accountsByIp(req.ip);

    r.get('/captcha', { schema: { tags: ['auth'], summary: 'Desafio ALTCHA (prova de trabalho) para o login' } }, () =>
      captcha.challenge(),
    );

    r.post('/users/signin', { schema: { tags: ['auth'], body: signinSchema } }, async (req) => {
      signinByIp(req.ip);
      await captcha.verify(req.body.captcha);
      // Counted only once the captcha passed: otherwise anyone could lock a username with garbage requests.
      signinByUsername(req.body.user.username.toLowerCase());
      const data = await auth.signin(ctx, {
        ...req.body.user,
        keepConnected: req.body.keep_connected === true,
        userAgent: req.headers['user-agent'],
        ip: req.ip,
        location: placeLabel({
          ...processGeo().lookup(req.ip),
          ...Object.fromEntries(
            Object.entries(geoFromHeaders(ctx.config.trustedGeoHeaders, req.headers)).filter(([, v]) => v),
          ),
        }),
      });
      return ok(msg.signin.success, data);
    });

    r.post(
      '/company/create',
      { onRequest: perIp, schema: { tags: ['auth'], body: createCompanySchema } },
      async (req) => ok(msg.signup.companyCreated, { company: await auth.createCompany(ctx, req.body.company.name) }),
    );

    r.delete(
      '/company/notfinished/:id',
      { onRequest: perIp, schema: { tags: ['auth'], params: z.object({ id: z.uuid(msg.signup.companyNotFound) }) } },
      async (req) => {
        await auth.removeUnfinishedCompany(ctx, req.params.id);
        return ok(msg.signup.companyRemoved, null);
      },
    );

    r.post(
      '/users/signup',
      { onRequest: perIp, schema: { tags: ['auth'], body: signupEnvelopeSchema } },
      async (req) => {
        const kind = signupKind(req.body);
        if (kind === 'company') {
          const { company } = parseBody(createCompanySchema, req.body);
          return ok(msg.signup.companyCreated, { company: await auth.createCompany(ctx, company.name) });
        }
        if (kind === 'recovery') {
          await auth.requestRecovery(ctx, parseBody(recoverySchema, req.body).user.email);
          return ok(msg.recovery.requested, null);
        }
        const user = await auth.signupUser(ctx, parseBody(signupUserSchema, req.body).user);
        return ok(msg.signup.userCreated, { user, confirmation: msg.signup.confirmationSent });
      },
    );

    r.put(
      '/users/validate',
      { onRequest: perIp, schema: { tags: ['auth'], body: validateAccountSchema } },
      async (req) => {
        await auth.validateAccount(ctx, req.body.user.cid);
        return ok(msg.validation.success, null);
      },
    );

    r.put(
      '/users/password',
      { onRequest: perIp, schema: { tags: ['auth'], body: resetPasswordSchema } },
      async (req) => {
        await auth.resetPassword(ctx, req.body.user);
        return ok(msg.recovery.passwordChanged, null);
      },
    );
  };
}

export function authPrivateRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/users/logout', { schema: { tags: ['auth'] } }, async (req) => {
      await auth.logout(ctx, principalOf(req).token);
      return ok(msg.signin.loggedOut, null);
    });
  };
}
