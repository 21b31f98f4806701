import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
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
      | 'timezone'
      | 'quietHours'
      | 'extraHolidays'
      | 'controlGroupPercent'
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

const exists = async (db: Db, query: SQL) =>
  (await queryRows<{ found: boolean }>(db, sql`SELECT EXISTS (${query}) AS found`))[0]?.found === true;

/**
 * The facts behind a domain's first steps, each one indexed lookup that stops at the first row (daily_stats by
 * its primary key, persons by the partial push index, channels by (domain, type), momentums by (domain, type), daily_momentum_stats by (domain, day)).
 * The domain is one the service resolved within the caller's company.
 */
export async function onboardingFacts(db: Db, domainUuid: string) {
  const collected = await exists(db, sql`SELECT 1 FROM daily_stats WHERE domain_uuid = ${domainUuid}::uuid`);
  const pushIntegrated = await exists(
    db,
    sql`SELECT 1 FROM channels
        WHERE domain_uuid = ${domainUuid}::uuid AND channel_type = 'CELL_NOTIFICATION' AND active`,
  );
  // A visitor subscribed now, or an opt-in counted once (they may have opted out since).
  const optedIn =
    (await exists(
      db,
      sql`SELECT 1 FROM persons WHERE domain_uuid = ${domainUuid}::uuid AND push_status = 'subscribed'`,
    )) ||
    (await exists(
      db,
      sql`SELECT 1 FROM daily_stats WHERE domain_uuid = ${domainUuid}::uuid AND dimension = 'optins' AND count > 0`,
    ));
  const momentumActive = await exists(
    db,
    sql`SELECT 1 FROM momentums
        WHERE domain_uuid = ${domainUuid}::uuid AND type = 'momentum' AND status IN ('Active', 'Done')`,
  );
  // A message went out: the engine bumps `sent` in the statement that marks a delivery sent (viewed and clicked
  // follow a send), so the per-momentum counters answer by their (domain, day) index without reading deliveries.
  const delivered = await exists(
    db,
    sql`SELECT 1 FROM daily_momentum_stats WHERE domain_uuid = ${domainUuid}::uuid AND sent > 0`,
  );
  return { collected, pushIntegrated, optedIn, momentumActive, delivered };
}

/** Whether the database's own time zone data knows `name` (it computes the analytics days with AT TIME ZONE). */
export const isKnownTimeZone = async (db: Db, name: string) =>
  (
    await queryRows<{ known: boolean }>(
      db,
      sql`SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = ${name}) AS known`,
    )
  )[0]?.known === true;

/**
 * Sets the zone the domain's analytics days are counted in, and counts its base by channel again in the new days
 * (base_daily, migration 0015), in one transaction. Days already rolled up keep the zone they were counted in.
 */
export const setTimezone = (db: Db, companyUuid: string, uuid: string, timezone: string) =>
  db.transaction(async (tx) => {
    const row = await updateDomain(tx as unknown as Db, companyUuid, uuid, { timezone });
    if (row) await tx.execute(sql`SELECT base_rebuild(${uuid}::uuid)`);
    return row;
  });
