import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

/** The engine statuses behind each status of the log. */
export const LOG_STATUS_SQL: Record<string, SQL> = {
  waiting: sql`d.status = 'queued'`,
  sending: sql`d.status = 'sending'`,
  sent: sql`d.status IN ('sent', 'viewed', 'clicked')`,
  failed: sql`d.status = 'failed'`,
  skipped: sql`d.status IN ('skipped', 'cancelled', 'expired')`,
};

export interface LogRow {
  id: string;
  channel_type: string;
  status: string;
  error: string | null;
  attempts: number;
  created_at: string | Date;
  due_at: string | Date;
  sent_at: string | Date | null;
  viewed_at: string | Date | null;
  clicked_at: string | Date | null;
  step: number;
  branch: string | null;
  visitor_id: string;
  email: string | null;
  phone: string | null;
}

/** A momentum of the company (not removed), or nothing. */
export const findCompanyMomentum = async (db: Db, companyUuid: string, momentumUuid: string) =>
  (
    await queryRows<{ uuid: string; domain_uuid: string }>(
      db,
      sql`SELECT m.uuid, m.domain_uuid FROM momentums m JOIN domains d ON d.uuid = m.domain_uuid
          WHERE m.uuid = ${momentumUuid}::uuid AND m.company_uuid = ${companyUuid}::uuid AND d.removed_at IS NULL`,
    )
  )[0];

/** One page of a momentum's deliveries, newest first, with the total for the filter. */
export async function deliveryPage(
  db: Db,
  momentumUuid: string,
  filter: SQL | undefined,
  limit: number,
  offset: number,
) {
  const where = sql`d.momentum_uuid = ${momentumUuid}::uuid${filter ? sql` AND ${filter}` : sql``}`;
  const [rows, count] = await Promise.all([
    queryRows<LogRow>(
      db,
      sql`SELECT d.id, d.channel_type, d.status, d.error, d.attempts, d.created_at, d.due_at, d.sent_at, d.viewed_at,
                 d.clicked_at, d.step, d.branch, p.visitor_id, p.email, p.phone
          FROM deliveries d JOIN persons p ON p.uuid = d.person_uuid
          WHERE ${where}
          ORDER BY d.created_at DESC, d.id LIMIT ${limit} OFFSET ${offset}`,
    ),
    queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM deliveries d WHERE ${where}`),
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}

export const readCaps = async (db: Db, domainUuid: string) =>
  (
    await queryRows<{ frequency_cap_day: number | null; frequency_cap_week: number | null }>(
      db,
      sql`SELECT frequency_cap_day, frequency_cap_week FROM domains WHERE uuid = ${domainUuid}::uuid`,
    )
  )[0];

export const writeCaps = (db: Db, domainUuid: string, day: number | null, week: number | null) =>
  db.execute(sql`UPDATE domains SET frequency_cap_day = ${day}, frequency_cap_week = ${week}
                 WHERE uuid = ${domainUuid}::uuid`);
