import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

/**
 * Every widget reads daily rollups (daily_stats, daily_momentum_stats) or an index, never a scan of raw events
 * (DESIGN.md §6). Every function takes the domain, which the service resolved within the caller's company.
 */
interface Range {
  start: string;
  end: string;
}

const num = (v: unknown) => Number(v ?? 0);

export const sumDimension = async (db: Db, domainUuid: string, dimension: string, r: Range) => {
  const [row] = await queryRows<{ n: string | null }>(
    db,
    sql`SELECT sum(count) AS n FROM daily_stats
        WHERE domain_uuid = ${domainUuid}::uuid AND dimension = ${dimension}
          AND day BETWEEN ${r.start}::date AND ${r.end}::date`,
  );
  return num(row?.n);
};

/** Per day of the range (days without rows are absent): the dimensions asked for. */
export const dailyByDimension = (db: Db, domainUuid: string, dimensions: string[], r: Range, value?: string) =>
  queryRows<{ day: string; dimension: string; n: string }>(
    db,
    sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, dimension, sum(count) AS n FROM daily_stats
        WHERE domain_uuid = ${domainUuid}::uuid
          AND dimension IN (SELECT jsonb_array_elements_text(${JSON.stringify(dimensions)}::jsonb))
          AND day BETWEEN ${r.start}::date AND ${r.end}::date
          ${value === undefined ? sql`` : sql`AND value = ${value}`}
        GROUP BY day, dimension`,
  ).then((rows) => rows.map((x) => ({ day: x.day, dimension: x.dimension, n: num(x.n) })));

export const mostViewed = (db: Db, domainUuid: string, r: Range, limit: number) =>
  queryRows<{ url: string; mobile: string; desktop: string }>(
    db,
    sql`SELECT value AS url,
          coalesce(sum(count) FILTER (WHERE dimension = 'page:mobile'), 0) AS mobile,
          coalesce(sum(count) FILTER (WHERE dimension = 'page:desktop'), 0) AS desktop
        FROM daily_stats
        WHERE domain_uuid = ${domainUuid}::uuid AND dimension IN ('page:mobile', 'page:desktop')
          AND day BETWEEN ${r.start}::date AND ${r.end}::date
        GROUP BY value ORDER BY sum(count) DESC, value LIMIT ${limit}`,
  ).then((rows) =>
    rows.map((x) => ({
      url: x.url,
      mobile: num(x.mobile),
      desktop: num(x.desktop),
      count: num(x.mobile) + num(x.desktop),
    })),
  );

/** One dimension's visitor sketches over the range ('visitors', 'visitors_device', 'event_visitors'), every day's. */
export const sketchRows = (db: Db, domainUuid: string, dimension: string, r: Range) =>
  queryRows<{ value: string; hashes: string[] | null; registers: Uint8Array | null }>(
    db,
    sql`SELECT value, hashes::text[] AS hashes, registers FROM daily_sketches
        WHERE domain_uuid = ${domainUuid}::uuid AND dimension = ${dimension}
          AND day BETWEEN ${r.start}::date AND ${r.end}::date`,
  );

export const momentumCounts = async (db: Db, domainUuid: string) => {
  const [row] = await queryRows<{ active: string; inactive: string }>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'Active') AS active,
               count(*) FILTER (WHERE status IN ('Paused', 'Draft', 'Done')) AS inactive
        FROM momentums WHERE domain_uuid = ${domainUuid}::uuid AND type IN ('momentum', 'campaign')`,
  );
  return { active: num(row?.active), inactive: num(row?.inactive) };
};

/** Distinct visitors whose events arrived in the last `minutes` (an index range read of recent events). */
export const liveVisitors = async (db: Db, domainUuid: string, since: Date) => {
  const [row] = await queryRows<{ n: string }>(
    db,
    sql`SELECT count(DISTINCT person_uuid) AS n FROM events
        WHERE domain_uuid = ${domainUuid}::uuid AND ts >= ${since.toISOString()}::timestamptz AND person_uuid IS NOT NULL`,
  );
  return num(row?.n);
};

/**
 * Persons reachable by each channel now, and those first seen in the range (by their current channels): sums of the
 * per-day counters the persons triggers keep (base_daily, migration 0015), a few hundred rows a year per domain
 * however large its base. The range's days are already the domain's own (base_daily.day).
 */
export const baseByChannel = async (db: Db, domainUuid: string, r: Range) => {
  const inRange = sql`day BETWEEN ${r.start}::date AND ${r.end}::date`;
  const [row] = await queryRows<Record<string, string>>(
    db,
    sql`SELECT sum(onsite) AS onsite, sum(push) AS push, sum(email) AS email, sum(sms) AS sms,
          sum(onsite) FILTER (WHERE ${inRange}) AS new_onsite, sum(push) FILTER (WHERE ${inRange}) AS new_push,
          sum(email) FILTER (WHERE ${inRange}) AS new_email, sum(sms) FILTER (WHERE ${inRange}) AS new_sms
        FROM base_daily WHERE domain_uuid = ${domainUuid}::uuid`,
  );
  return {
    push: { amount: num(row?.push), new: num(row?.new_push) },
    onsite: { amount: num(row?.onsite), new: num(row?.new_onsite) },
    email: { amount: num(row?.email), new: num(row?.new_email) },
    sms: { amount: num(row?.sms), new: num(row?.new_sms) },
  };
};

interface MomentumSums {
  sent: number;
  viewed: number;
  clicked: number;
  conversions: number;
  revenue_cents: number;
  cart_accesses: number;
}
const sums = (x: Record<string, unknown>): MomentumSums => ({
  sent: num(x.sent),
  viewed: num(x.viewed),
  clicked: num(x.clicked),
  conversions: num(x.conversions),
  revenue_cents: num(x.revenue_cents),
  cart_accesses: num(x.cart_accesses),
});
const sumColumns = sql`sum(s.sent) AS sent, sum(s.viewed) AS viewed, sum(s.clicked) AS clicked,
  sum(s.conversions) AS conversions, sum(s.revenue_cents) AS revenue_cents, sum(s.cart_accesses) AS cart_accesses`;

export const momentumPerformance = (db: Db, domainUuid: string, r: Range) =>
  queryRows<Record<string, string>>(
    db,
    sql`SELECT m.uuid, m.momentum_title AS title, m.type, bool_or(m.experiment IS NOT NULL) AS has_experiment,
          bool_or(CASE WHEN jsonb_typeof(m.steps) = 'array' THEN jsonb_array_length(m.steps) > 0 ELSE false END)
            AS has_journey,
          ${sumColumns}
        FROM daily_momentum_stats s JOIN momentums m ON m.uuid = s.momentum_uuid
        WHERE s.domain_uuid = ${domainUuid}::uuid AND s.day BETWEEN ${r.start}::date AND ${r.end}::date
          AND m.status <> 'Deleted'
        GROUP BY m.uuid, m.momentum_title, m.type
        ORDER BY sum(s.sent) DESC, m.momentum_title`,
  ).then((rows) =>
    rows.map((x) => ({
      uuid: x.uuid as string,
      title: x.title as string,
      type: x.type as 'momentum' | 'campaign' | 'dcm',
      hasExperiment: (x.has_experiment as unknown) === true,
      hasJourney: (x.has_journey as unknown) === true,
      ...sums(x),
    })),
  );

export const momentumDaily = (db: Db, domainUuid: string, r: Range) =>
  queryRows<Record<string, string>>(
    db,
    sql`SELECT to_char(s.day, 'YYYY-MM-DD') AS day, m.uuid, m.momentum_title AS title, ${sumColumns}
        FROM daily_momentum_stats s JOIN momentums m ON m.uuid = s.momentum_uuid
        WHERE s.domain_uuid = ${domainUuid}::uuid AND s.day BETWEEN ${r.start}::date AND ${r.end}::date
          AND m.status <> 'Deleted'
        GROUP BY s.day, m.uuid, m.momentum_title
        ORDER BY s.day, m.momentum_title`,
  ).then((rows) =>
    rows.map((x) => ({ day: x.day as string, uuid: x.uuid as string, title: x.title as string, ...sums(x) })),
  );

export const oneMomentumDaily = (db: Db, momentumUuid: string, r: Range) =>
  queryRows<Record<string, string>>(
    db,
    sql`SELECT to_char(s.day, 'YYYY-MM-DD') AS day, ${sumColumns}
        FROM daily_momentum_stats s
        WHERE s.momentum_uuid = ${momentumUuid}::uuid AND s.day BETWEEN ${r.start}::date AND ${r.end}::date
        GROUP BY s.day`,
  ).then((rows) => rows.map((x) => ({ day: x.day as string, ...sums(x) })));

export const findMomentum = async (db: Db, companyUuid: string, momentumUuid: string) => {
  const [row] = await queryRows<{ uuid: string; domain_uuid: string }>(
    db,
    sql`SELECT m.uuid, m.domain_uuid FROM momentums m JOIN domains d ON d.uuid = m.domain_uuid
        WHERE m.uuid = ${momentumUuid}::uuid AND m.company_uuid = ${companyUuid}::uuid
          AND m.status <> 'Deleted' AND d.removed_at IS NULL`,
  );
  return row;
};

export const findCategory = async (db: Db, domainUuid: string, categoryUuid: string) => {
  const [row] = await queryRows<{ uuid: string; name: string }>(
    db,
    sql`SELECT uuid, name FROM event_categories WHERE uuid = ${categoryUuid}::uuid AND domain_uuid = ${domainUuid}::uuid`,
  );
  return row;
};

export const categoriesByName = (db: Db, domainUuid: string) =>
  queryRows<{ uuid: string; name: string }>(
    db,
    sql`SELECT uuid, name FROM event_categories WHERE domain_uuid = ${domainUuid}::uuid`,
  );

export const setCartUrl = (db: Db, domainUuid: string, cartUrl: string) =>
  db.execute(sql`UPDATE domains SET cart_url = ${cartUrl} WHERE uuid = ${domainUuid}::uuid`);
