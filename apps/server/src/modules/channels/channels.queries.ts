import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { channels, domains } from '../../db/schema.ts';

export type ChannelRow = typeof channels.$inferSelect;

const ofCompanyDomain = (companyUuid: string) => and(eq(domains.companyUuid, companyUuid), isNull(domains.removedAt));

export const listDomainChannels = async (db: Db, companyUuid: string, domainUuid: string) =>
  (
    await db
      .select({ channel: channels })
      .from(channels)
      .innerJoin(domains, eq(domains.uuid, channels.domainUuid))
      .where(and(eq(channels.domainUuid, domainUuid), ofCompanyDomain(companyUuid)))
      .orderBy(asc(channels.createdAt))
  ).map((r) => r.channel);

export const findDomainChannelByType = async (db: Db, companyUuid: string, domainUuid: string, channelType: string) =>
  (
    await db
      .select({ channel: channels })
      .from(channels)
      .innerJoin(domains, eq(domains.uuid, channels.domainUuid))
      .where(
        and(eq(channels.domainUuid, domainUuid), eq(channels.channelType, channelType), ofCompanyDomain(companyUuid)),
      )
      .limit(1)
  )[0]?.channel;

/** A channel of a live domain of the company, or nothing: another company's uuid is simply not found. */
export const findCompanyChannel = async (db: Db, companyUuid: string, channelUuid: string) =>
  (
    await db
      .select({ channel: channels })
      .from(channels)
      .innerJoin(domains, eq(domains.uuid, channels.domainUuid))
      .where(and(eq(channels.uuid, channelUuid), ofCompanyDomain(companyUuid)))
      .limit(1)
  )[0]?.channel;

/** The caller has already checked the domain belongs to the company (lib/tenancy). */
export const insertChannel = async (db: Db, row: typeof channels.$inferInsert) =>
  (await db.insert(channels).values(row).returning())[0]!;

export const updateChannel = async (
  db: Db,
  companyUuid: string,
  channelUuid: string,
  set: Pick<ChannelRow, 'properties' | 'secrets' | 'updatedAt' | 'refusedAt' | 'refusedReason'>,
) => {
  const owned = db
    .select({ uuid: domains.uuid })
    .from(domains)
    .where(and(eq(domains.companyUuid, companyUuid), isNull(domains.removedAt)));
  const [row] = await db
    .update(channels)
    .set(set)
    .where(and(eq(channels.uuid, channelUuid), inArray(channels.domainUuid, owned)))
    .returning();
  return row;
};

/** For the engine (no HTTP caller, no company): the active channel of a type on a domain that was not removed. */
export const findActiveChannel = async (db: Db, domainUuid: string, channelType: string) =>
  (
    await db
      .select({ channel: channels })
      .from(channels)
      .innerJoin(domains, eq(domains.uuid, channels.domainUuid))
      .where(
        and(
          eq(channels.domainUuid, domainUuid),
          eq(channels.channelType, channelType),
          eq(channels.active, true),
          isNull(domains.removedAt),
        ),
      )
      .limit(1)
  )[0]?.channel;
