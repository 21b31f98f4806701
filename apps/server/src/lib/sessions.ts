import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
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
        sessionId: sessions.id,
        expiresAt: sessions.expiresAt,
        lastUsedAt: sessions.lastUsedAt,
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
export async function authenticate(ctx: AppContext, token: string) {
  const now = ctx.clock.now();
  const session = await findLiveSession(ctx.db, hashToken(token), now);
  if (session && (!session.lastUsedAt || now.getTime() - session.lastUsedAt.getTime() >= LAST_USE_STEP_MS)) {
    await touchSession(ctx.db, session.tokenHash, now);
  }
  return session;
}

/** /profile shows when each session was last used; a minute's precision keeps it to one write a minute at most. */
const LAST_USE_STEP_MS = 60_000;

const touchSession = (db: Db, tokenHash: string, now: Date) =>
  db
    .update(sessions)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        or(isNull(sessions.lastUsedAt), lt(sessions.lastUsedAt, new Date(now.getTime() - LAST_USE_STEP_MS))),
      ),
    );
