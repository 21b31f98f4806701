import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies, oneTimeTokens, sessions, users } from '../../db/schema.ts';

export const findUserByUsername = async (db: Db, username: string) =>
  (await db.select().from(users).where(sql`lower(${users.username}) = lower(${username})`).limit(1))[0];

export const findUserByEmail = async (db: Db, email: string) =>
  (await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1))[0];

export const insertUser = (db: Db, row: typeof users.$inferInsert) => db.insert(users).values(row);

export const insertSession = (db: Db, row: typeof sessions.$inferInsert) => db.insert(sessions).values(row);

export const revokeSession = (db: Db, tokenHash: string, now: Date) =>
  db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));

export const revokeUserSessions = (db: Db, userUuid: string, now: Date) =>
  db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userUuid, userUuid), isNull(sessions.revokedAt)));

export const insertOneTimeToken = (db: Db, row: typeof oneTimeTokens.$inferInsert) =>
  db.insert(oneTimeTokens).values(row);

/** A one-time token's user while it is still good, without spending it. */
export const findOneTimeToken = async (db: Db, hash: string, kind: 'validate' | 'reset', now: Date) =>
  (
    await db
      .select({ userUuid: oneTimeTokens.userUuid })
      .from(oneTimeTokens)
      .where(
        and(
          eq(oneTimeTokens.hash, hash),
          eq(oneTimeTokens.kind, kind),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, now),
        ),
      )
      .limit(1)
  )[0];

/** Marks a one-time token used and returns its user, in one statement, so a token is never used twice. */
export const consumeOneTimeToken = async (db: Db, hash: string, kind: 'validate' | 'reset', now: Date) =>
  (
    await db
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(oneTimeTokens.hash, hash),
          eq(oneTimeTokens.kind, kind),
          isNull(oneTimeTokens.usedAt),
          gt(oneTimeTokens.expiresAt, now),
        ),
      )
      .returning({ userUuid: oneTimeTokens.userUuid })
  )[0];

export const markValidated = (db: Db, userUuid: string, now: Date) =>
  db
    .update(users)
    .set({ validatedAt: now })
    .where(and(eq(users.uuid, userUuid), isNull(users.validatedAt)));

export const setPasswordHash = (db: Db, userUuid: string, passwordHash: string) =>
  db.update(users).set({ passwordHash }).where(eq(users.uuid, userUuid));

export const findCompany = async (db: Db, uuid: string) =>
  (await db.select().from(companies).where(eq(companies.uuid, uuid)).limit(1))[0];

export const findUserByUuid = async (db: Db, uuid: string) =>
  (await db.select().from(users).where(eq(users.uuid, uuid)).limit(1))[0];

export const countCompanyUsers = async (db: Db, companyUuid: string) =>
  (await db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.companyUuid, companyUuid)))[0]?.n ?? 0;

export const insertCompany = (db: Db, row: typeof companies.$inferInsert) =>
  db.insert(companies).values(row).returning({ uuid: companies.uuid, name: companies.name });

export const activateCompany = (db: Db, uuid: string) =>
  db.update(companies).set({ status: 'active' }).where(eq(companies.uuid, uuid));

export const deleteUnfinishedCompany = (db: Db, uuid: string) =>
  db.delete(companies).where(and(eq(companies.uuid, uuid), eq(companies.status, 'unfinished')));
