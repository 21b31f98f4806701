import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channels, domains, momentums } from '../../db/schema.ts';

export type MomentumRow = typeof momentums.$inferSelect;

export const listMomentums = (db: Db, companyUuid: string, domainUuid: string, type: MomentumRow['type']) =>
  db
    .select()
    .from(momentums)
    .where(and(eq(momentums.companyUuid, companyUuid), eq(momentums.domainUuid, domainUuid), eq(momentums.type, type)))
    .orderBy(desc(momentums.createdAt));

export const findMomentum = async (db: Db, companyUuid: string, uuid: string) =>
  (
    await db
      .select()
      .from(momentums)
      .where(and(eq(momentums.companyUuid, companyUuid), eq(momentums.uuid, uuid)))
      .limit(1)
  )[0];

/** Another live item of the same domain and type already using this title (READINGS A-41). */
export const findTitleClash = async (
  db: Db,
  row: { domainUuid: string; type: MomentumRow['type']; title: string; except?: string },
) =>
  (
    await db
      .select({ uuid: momentums.uuid })
      .from(momentums)
      .where(
        and(
          eq(momentums.domainUuid, row.domainUuid),
          eq(momentums.type, row.type),
          ne(momentums.status, 'Deleted'),
          sql`lower(${momentums.title}) = lower(${row.title})`,
          row.except ? ne(momentums.uuid, row.except) : undefined,
        ),
      )
      .limit(1)
  )[0];

export const insertMomentum = async (db: Db, row: typeof momentums.$inferInsert) =>
  (await db.insert(momentums).values(row).returning())[0]!;

export const updateMomentum = async (
  db: Db,
  companyUuid: string,
  uuid: string,
  set: Partial<typeof momentums.$inferInsert>,
) =>
  (
    await db
      .update(momentums)
      .set({ ...set, version: sql`${momentums.version} + 1`, updatedAt: new Date() })
      .where(and(eq(momentums.companyUuid, companyUuid), eq(momentums.uuid, uuid)))
      .returning()
  )[0];

/** The domain's tag release (GCD A/B tests need one whose injector draws the arm). */
export const findDomainTagVersion = async (db: Db, domainUuid: string) =>
  (await db.select({ v: domains.geroVersion }).from(domains).where(eq(domains.uuid, domainUuid)).limit(1))[0]?.v;

export const findDomainChannel = async (db: Db, domainUuid: string, channelUuid: string) =>
  (
    await db
      .select({ uuid: channels.uuid, type: channels.channelType })
      .from(channels)
      .where(and(eq(channels.domainUuid, domainUuid), eq(channels.uuid, channelUuid)))
      .limit(1)
  )[0];

/** The domain's channel of a type (one at most: channels_domain_type_key). */
export const findDomainChannelOfType = async (db: Db, domainUuid: string, channelType: string) =>
  (
    await db
      .select({ uuid: channels.uuid })
      .from(channels)
      .where(and(eq(channels.domainUuid, domainUuid), eq(channels.channelType, channelType)))
      .limit(1)
  )[0];

/** Per momentum of a domain: what its deliveries became (sent counts viewed and clicked ones too). */
export const deliveryCounts = async (db: Db, companyUuid: string, domainUuid: string) =>
  (
    (await db.execute(sql`
      SELECT d.momentum_uuid,
             count(*) FILTER (WHERE d.status IN ('queued', 'sending'))::int AS waiting,
             count(*) FILTER (WHERE d.status IN ('sent', 'viewed', 'clicked'))::int AS sent,
             count(*) FILTER (WHERE d.viewed_at IS NOT NULL)::int AS viewed,
             count(*) FILTER (WHERE d.clicked_at IS NOT NULL)::int AS clicked,
             count(*) FILTER (WHERE d.status = 'failed')::int AS failed
      FROM deliveries d JOIN momentums m ON m.uuid = d.momentum_uuid
      WHERE m.company_uuid = ${companyUuid}::uuid AND m.domain_uuid = ${domainUuid}::uuid
      GROUP BY d.momentum_uuid`)) as unknown as {
      rows: { momentum_uuid: string; waiting: number; sent: number; viewed: number; clicked: number; failed: number }[];
    }
  ).rows;
