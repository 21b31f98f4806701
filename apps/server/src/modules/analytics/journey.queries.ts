import { type AnalyticsRange, journeyMessages } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

// The journey report (issue #26): a momentum's positions and step deliveries, by step and branch, each figure on the
// days of the range in the domain's zone. Every read is scoped to one momentum (indexed by momentum).

/** The momentum, if it belongs to this company and domain (not removed), with its steps. */
export const findMomentum = async (db: Db, companyUuid: string, domainUuid: string, momentumUuid: string) =>
  (
    await queryRows<{ uuid: string; steps: unknown; timezone: string }>(
      db,
      sql`SELECT m.uuid, m.steps, dm.timezone FROM momentums m JOIN domains dm ON dm.uuid = m.domain_uuid
          WHERE m.uuid = ${momentumUuid}::uuid AND m.company_uuid = ${companyUuid}::uuid
            AND m.domain_uuid = ${domainUuid}::uuid AND m.status <> 'Deleted'`,
    )
  )[0];

/** The domain's momentums with journey steps (not removed), oldest first: the CSV export's journey tables. */
export const journeyMomentums = (db: Db, companyUuid: string, domainUuid: string) =>
  queryRows<{ uuid: string; title: string; steps: unknown; timezone: string }>(
    db,
    sql`SELECT m.uuid, m.momentum_title AS title, m.steps, dm.timezone
        FROM momentums m JOIN domains dm ON dm.uuid = m.domain_uuid
        WHERE m.company_uuid = ${companyUuid}::uuid AND m.domain_uuid = ${domainUuid}::uuid AND m.status <> 'Deleted'
          AND CASE WHEN jsonb_typeof(m.steps) = 'array' THEN jsonb_array_length(m.steps) > 0 ELSE false END
        ORDER BY m.created_at, m.uuid`,
  );

const inRange = (column: string, tz: string, r: AnalyticsRange) =>
  sql`(${sql.raw(column)} AT TIME ZONE ${tz})::date BETWEEN ${r.start}::date AND ${r.end}::date`;

/** Entries (by the day they entered), and ended positions by step (by the day they ended). */
export const positionCounts = (db: Db, momentumUuid: string, tz: string, r: AnalyticsRange) =>
  queryRows<{ entered: number; step: number; left_by_condition: number; exited_conversion: number }>(
    db,
    sql`SELECT 0 AS step, count(*)::int AS entered, 0 AS left_by_condition, 0 AS exited_conversion
        FROM journey_positions WHERE momentum_uuid = ${momentumUuid}::uuid AND ${inRange('entered_at', tz, r)}
        UNION ALL
        SELECT step, 0, count(*) FILTER (WHERE state = 'left')::int,
          count(*) FILTER (WHERE state = 'exited' AND reason = ${journeyMessages.exitedConversion})::int
        FROM journey_positions
        WHERE momentum_uuid = ${momentumUuid}::uuid AND state IN ('left', 'exited') AND ${inRange('updated_at', tz, r)}
        GROUP BY step`,
  );

/** Step deliveries by (step, branch): created (a step's run), sent, viewed, clicked, each on its own day. */
export const deliveryCounts = (db: Db, momentumUuid: string, tz: string, r: AnalyticsRange) =>
  queryRows<{ step: number; branch: string; created: number; sent: number; viewed: number; clicked: number }>(
    db,
    sql`SELECT step, coalesce(branch, 'main') AS branch,
          count(*) FILTER (WHERE ${inRange('created_at', tz, r)})::int AS created,
          count(*) FILTER (WHERE status IN ('sent', 'viewed', 'clicked') AND ${inRange('sent_at', tz, r)})::int AS sent,
          count(*) FILTER (WHERE ${inRange('viewed_at', tz, r)})::int AS viewed,
          count(*) FILTER (WHERE ${inRange('clicked_at', tz, r)})::int AS clicked
        FROM deliveries WHERE momentum_uuid = ${momentumUuid}::uuid
        GROUP BY 1, 2`,
  );

/** Conversions credited to the momentum's deliveries, by the delivery's (step, branch). */
export const conversionCounts = (db: Db, domainUuid: string, momentumUuid: string, tz: string, r: AnalyticsRange) =>
  queryRows<{ step: number; branch: string; conversions: number; revenue_cents: string | number }>(
    db,
    sql`SELECT d.step, coalesce(d.branch, 'main') AS branch, count(*)::int AS conversions,
          coalesce(sum(c.value_cents), 0)::bigint AS revenue_cents
        FROM conversions c JOIN deliveries d ON d.id = c.delivery_id
        WHERE c.domain_uuid = ${domainUuid}::uuid AND c.momentum_uuid = ${momentumUuid}::uuid
          AND ${inRange('c.ts', tz, r)}
        GROUP BY 1, 2`,
  );

/**
 * A/B variants of journey steps (main branch, step ≥ 1): sent/viewed/clicked by (step, arm), and the conversions
 * credited to those deliveries, each on its own day as above.
 */
export const variantCounts = (db: Db, domainUuid: string, momentumUuid: string, tz: string, r: AnalyticsRange) =>
  queryRows<{
    step: number;
    arm: string;
    sent: number;
    viewed: number;
    clicked: number;
    conversions: number;
    revenue_cents: string | number;
  }>(
    db,
    sql`SELECT d.step, d.arm,
          count(*) FILTER (WHERE d.status IN ('sent', 'viewed', 'clicked') AND ${inRange('d.sent_at', tz, r)})::int AS sent,
          count(*) FILTER (WHERE ${inRange('d.viewed_at', tz, r)})::int AS viewed,
          count(*) FILTER (WHERE ${inRange('d.clicked_at', tz, r)})::int AS clicked,
          coalesce(sum(c.conversions), 0)::int AS conversions,
          coalesce(sum(c.revenue_cents), 0)::bigint AS revenue_cents
        FROM deliveries d
        LEFT JOIN (
          SELECT delivery_id, count(*) AS conversions, sum(value_cents) AS revenue_cents FROM conversions
          WHERE domain_uuid = ${domainUuid}::uuid AND momentum_uuid = ${momentumUuid}::uuid AND ${inRange('ts', tz, r)}
          GROUP BY delivery_id
        ) c ON c.delivery_id = d.id
        WHERE d.momentum_uuid = ${momentumUuid}::uuid AND d.step > 0 AND d.branch IS NULL AND d.arm IS NOT NULL
        GROUP BY 1, 2`,
  );
