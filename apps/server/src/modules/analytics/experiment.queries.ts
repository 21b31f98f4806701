import type { AnalyticsRange } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

// The experiment report reads the per-arm daily counters (daily_arm_stats), one indexed range read per query.

/** The momentum, if it belongs to this company and domain. */
export const findMomentum = async (db: Db, companyUuid: string, domainUuid: string, momentumUuid: string) =>
  (
    await queryRows<{ uuid: string; title: string; type: string; experiment: unknown; experiment_decision: unknown }>(
      db,
      sql`SELECT uuid, momentum_title AS title, type, experiment, experiment_decision FROM momentums
          WHERE uuid = ${momentumUuid}::uuid AND company_uuid = ${companyUuid}::uuid
            AND domain_uuid = ${domainUuid}::uuid AND status <> 'Deleted'`,
    )
  )[0];

export interface ArmCounters {
  arm: string;
  assigned: number;
  sent: number;
  viewed: number;
  clicked: number;
  conversions: number;
  converted: number;
  revenue_cents: number;
}

export const armTotals = (db: Db, momentumUuid: string, r: AnalyticsRange) =>
  queryRows<ArmCounters>(
    db,
    sql`SELECT arm, sum(assigned)::int AS assigned, sum(sent)::int AS sent, sum(viewed)::int AS viewed,
          sum(clicked)::int AS clicked, sum(conversions)::int AS conversions, sum(converted)::int AS converted,
          sum(revenue_cents)::bigint AS revenue_cents
        FROM daily_arm_stats
        WHERE momentum_uuid = ${momentumUuid}::uuid AND day BETWEEN ${r.start}::date AND ${r.end}::date
        GROUP BY arm ORDER BY arm`,
  ).then((rows) => rows.map((x) => ({ ...x, revenue_cents: Number(x.revenue_cents) })));

export const armDaily = (db: Db, momentumUuid: string, r: AnalyticsRange) =>
  queryRows<{
    day: string;
    arm: string;
    assigned: number;
    sent: number;
    clicked: number;
    converted: number;
    conversions: number;
  }>(
    db,
    sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, arm, assigned::int, sent::int, clicked::int, converted::int,
          conversions::int
        FROM daily_arm_stats
        WHERE momentum_uuid = ${momentumUuid}::uuid AND day BETWEEN ${r.start}::date AND ${r.end}::date
        ORDER BY day, arm`,
  );

/** Momentums of a domain with an experiment, for the CSV export. */
export const experimentMomentums = (db: Db, domainUuid: string) =>
  queryRows<{ uuid: string }>(
    db,
    sql`SELECT uuid FROM momentums
        WHERE domain_uuid = ${domainUuid}::uuid AND experiment IS NOT NULL AND status <> 'Deleted'
        ORDER BY created_at`,
  );
