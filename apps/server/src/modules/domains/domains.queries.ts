import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains } from '../../db/schema.ts';

const live = (companyUuid: string) => and(eq(domains.companyUuid, companyUuid), isNull(domains.removedAt));

/** The company's domains that were not removed, oldest first. */
export const listDomains = (db: Db, companyUuid: string) =>
  db.select().from(domains).where(live(companyUuid)).orderBy(asc(domains.createdAt));

export const findDomain = async (db: Db, companyUuid: string, uuid: string) =>
  (
    await db
      .select()
      .from(domains)
      .where(and(live(companyUuid), eq(domains.uuid, uuid)))
      .limit(1)
  )[0];

export const findDomainByRoot = async (db: Db, companyUuid: string, domainRoot: string) =>
  (
    await db
      .select()
      .from(domains)
      .where(and(live(companyUuid), eq(domains.domainRoot, domainRoot)))
      .limit(1)
  )[0];

export const insertDomain = async (db: Db, row: typeof domains.$inferInsert) =>
  (await db.insert(domains).values(row).returning())[0]!;

export const updateDomain = async (
  db: Db,
  companyUuid: string,
  uuid: string,
  set: Partial<
    Pick<
      typeof domains.$inferInsert,
      | 'name'
      | 'domain'
      | 'domainRoot'
      | 'status'
      | 'geroValidate'
      | 'geroVersion'
      | 'cnSwVersion'
      | 'removedAt'
      | 'retentionMonths'
    >
  >,
) =>
  (
    await db
      .update(domains)
      .set(set)
      .where(and(live(companyUuid), eq(domains.uuid, uuid)))
      .returning()
  )[0];
