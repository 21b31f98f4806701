import type { AnalyticsRange } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

/**
 * The previous period, cut where the current one stands (issue #29). A range that reaches today holds only part of
 * today, so comparing it with the whole previous period showed about −96 % every morning. The previous period
 * [start − n days, end − n days] is then taken up to the same point: whole days from the daily rollups until the
 * day the cut falls on, and that one day from the events table up to the cut's instant (an index range scan of
 * `events (domain_uuid, ts)` over at most one day of one domain, in that month's partition). The rollups have no
 * hourly dimension; one day of events is cheaper than keeping one, and exact.
 *
 * `cut` is null when the range ended before today: then the whole previous period is compared.
 */
export interface PreviousCut {
  /** Whole days of the previous period before the cut's day (null when the cut falls on its first day). */
  full: AnalyticsRange | null;
  /** The cut's day, counted from its local midnight `from` until `until`. */
  partial: { day: string; from: Date; until: Date } | null;
  /** The instant the previous period is counted until (null: the whole period). */
  cut: Date | null;
}

const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const daysIn = (r: AnalyticsRange) =>
  Math.round((Date.parse(`${r.end}T00:00:00Z`) - Date.parse(`${r.start}T00:00:00Z`)) / 86_400_000) + 1;

export async function previousCut(db: Db, r: AnalyticsRange, now: Date, timeZone: string): Promise<PreviousCut> {
  const n = daysIn(r);
  const previous = { start: shiftDay(r.start, -n), end: shiftDay(r.start, -1) };
  const [row] = await queryRows<{ today: string; cut: Date | string; cut_day: string; cut_from: Date | string }>(
    db,
    sql`WITH c AS (
          -- To the minute: the card says 'até 09:41'.
          SELECT date_trunc('minute', (${previous.start}::date::timestamp AT TIME ZONE ${timeZone})
                 + (${now}::timestamptz - (${r.start}::date::timestamp AT TIME ZONE ${timeZone}))) AS cut)
        SELECT to_char((${now}::timestamptz AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS today,
               c.cut,
               to_char((c.cut AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS cut_day,
               ((c.cut AT TIME ZONE ${timeZone})::date::timestamp AT TIME ZONE ${timeZone}) AS cut_from
        FROM c`,
  );
  if (!row || r.end < row.today) return { full: previous, partial: null, cut: null };
  const cutDay = row.cut_day;
  return {
    full: cutDay > previous.start ? { start: previous.start, end: shiftDay(cutDay, -1) } : null,
    partial: { day: cutDay, from: new Date(row.cut_from), until: new Date(row.cut) },
    cut: new Date(row.cut),
  };
}

/** Page views of one domain between two instants (the cut day's part). */
export async function pageviewsBetween(db: Db, domainUuid: string, from: Date, until: Date) {
  const [row] = await queryRows<{ n: string | number }>(
    db,
    sql`SELECT count(*) AS n FROM events
        WHERE domain_uuid = ${domainUuid}::uuid AND ts >= ${from} AND ts < ${until} AND kind = 'pageview'`,
  );
  return Number(row?.n ?? 0);
}

/** The visitors (persons) seen between two instants: every event a visitor sends counts them, as the rollups do. */
export async function visitorsBetween(db: Db, domainUuid: string, from: Date, until: Date) {
  return (
    await queryRows<{ person_uuid: string }>(
      db,
      sql`SELECT DISTINCT person_uuid FROM events
          WHERE domain_uuid = ${domainUuid}::uuid AND ts >= ${from} AND ts < ${until} AND person_uuid IS NOT NULL`,
    )
  ).map((r) => r.person_uuid);
}
