import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from './context.ts';
import { unauthorized } from './errors.ts';
import { authenticate } from './sessions.ts';

export interface Principal {
  token: string;
  /** The session's public id (sessions.id): /profile marks it as the current one. */
  sessionId: string;
  userUuid: string;
  companyUuid: string;
  username: string;
  role: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export const bearerOf = (request: FastifyRequest) => {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
};

/** onRequest hook of every private route: a live session or 401. Tenancy always comes from here, never from the body. */
export const requireAuth = (ctx: AppContext) => async (request: FastifyRequest, _reply: FastifyReply) => {
  const token = bearerOf(request);
  if (!token || token.length > 200) throw unauthorized();
  const session = await authenticate(ctx, token);
  if (!session) throw unauthorized();
  request.principal = {
    token,
    sessionId: session.sessionId,
    userUuid: session.userUuid,
    companyUuid: session.companyUuid,
    username: session.username,
    role: session.role,
  };
};

/** The principal of a route behind requireAuth. */
export const principalOf = (request: FastifyRequest): Principal => {
  if (!request.principal) throw unauthorized();
  return request.principal;
};
