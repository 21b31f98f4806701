import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import type { AppContext } from './context.ts';
import { hashToken } from './crypto.ts';

/** The live session behind a token hash, with its user; expired or revoked sessions are not found. */
export const findLiveSession = async (db: Db, tokenHash: string, now: Date) =>
  (
    await db
      .select({
        tokenHash: sessions.tokenHash,
        expiresAt: sessions.expiresAt,
        userUuid: users.uuid,
        companyUuid: users.companyUuid,
        username: users.username,
        role: users.role,
      })
      .from(sessions)
      .innerJoin(users, eq(users.uuid, sessions.userUuid))
      .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .limit(1)
  )[0];

/** The session a bearer token opens, if it is live. Sessions are created by modules/auth; every private route reads them here. */
export const authenticate = (ctx: AppContext, token: string) =>
  findLiveSession(ctx.db, hashToken(token), ctx.clock.now());
