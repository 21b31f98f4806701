import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains, media } from '../../db/schema.ts';

export type MediaRow = typeof media.$inferSelect;

const ofCompany = (companyUuid: string) => and(eq(domains.companyUuid, companyUuid), isNull(domains.removedAt));

export const listDomainMedia = async (db: Db, companyUuid: string, domainUuid: string) =>
  (
    await db
      .select({ media })
      .from(media)
      .innerJoin(domains, eq(domains.uuid, media.domainUuid))
      .where(and(eq(media.domainUuid, domainUuid), ofCompany(companyUuid)))
      .orderBy(desc(media.createdAt), desc(media.id))
  ).map((r) => r.media);

/** The caller has already checked the domain belongs to the company (lib/tenancy). */
export const insertMedia = (db: Db, rows: (typeof media.$inferInsert)[]) => db.insert(media).values(rows).returning();

/** An image of a live domain of the company, with the domain's gero_id; another company's id is not found. */
export const findCompanyMedia = async (db: Db, companyUuid: string, id: string) =>
  (
    await db
      .select({ media, geroId: domains.geroId })
      .from(media)
      .innerJoin(domains, eq(domains.uuid, media.domainUuid))
      .where(and(eq(media.id, id), ofCompany(companyUuid)))
      .limit(1)
  )[0];

export const deleteMedia = async (db: Db, companyUuid: string, id: string) => {
  const owned = db.select({ uuid: domains.uuid }).from(domains).where(ofCompany(companyUuid));
  const [row] = await db
    .delete(media)
    .where(and(eq(media.id, id), inArray(media.domainUuid, owned)))
    .returning();
  return row;
};
