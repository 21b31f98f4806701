import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client.ts';

/*
 * The SQL of the planned fan-out (issue #27): one page of the audience with what each person's clock needs, and their
 * most active local hours. The plan itself is timing.ts; the rows go in through insertDeliveries.
 */

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

export interface PlannedPerson {
  uuid: string;
  /** Why the channel cannot reach them (qualify.ts unreachableReasonSql), null when it can. */
  skip: string | null;
  timezone: string | null;
  attributes: Record<string, unknown>;
}

/** One page of an occurrence's audience in uuid order, with the reason to skip each and what their zone comes from. */
export const plannedPage = (
  db: Db,
  input: { domainUuid: string; where: SQL; skipReason: SQL; after: string | null; limit: number },
) =>
  queryRows<PlannedPerson>(
    db,
    sql`SELECT uuid, ${input.skipReason} AS skip, timezone,
               jsonb_build_object(
                 'client.location.country', attributes -> 'client.location.country',
                 'client.location.region', attributes -> 'client.location.region',
                 'client.location.city', attributes -> 'client.location.city') AS attributes
        FROM persons
        WHERE domain_uuid = ${input.domainUuid}::uuid
          AND (${input.after}::uuid IS NULL OR uuid > ${input.after}::uuid)
          AND ${input.where}
        ORDER BY uuid LIMIT ${input.limit}`,
  );

/** What counts as a person being active: what they did on the site, not the reports about our messages. */
const ACTIVE_KINDS = sql`('pageview', 'event', 'identify', 'optin', 'clicked', 'conversion')`;

/**
 * Each person's most active hour on their own clock over [since, until): the hour with most of their events (the
 * earliest on a tie). Persons without events are absent.
 */
export async function mostActiveHours(
  db: Db,
  input: { domainUuid: string; zones: { uuid: string; zone: string }[]; since: Date; until: Date },
) {
  if (input.zones.length === 0) return new Map<string, number>();
  const rows = await queryRows<{ uuid: string; hour: number }>(
    db,
    sql`SELECT DISTINCT ON (z.uuid) z.uuid::text AS uuid, extract(hour FROM e.ts AT TIME ZONE z.zone)::int AS hour
        FROM jsonb_to_recordset(${json(input.zones)}) AS z(uuid uuid, zone text)
        JOIN events e ON e.person_uuid = z.uuid
        WHERE e.domain_uuid = ${input.domainUuid}::uuid AND e.ts >= ${input.since} AND e.ts < ${input.until}
          AND e.kind IN ${ACTIVE_KINDS}
        GROUP BY z.uuid, 2
        ORDER BY z.uuid, count(*) DESC, 2`,
  );
  return new Map(rows.map((r) => [r.uuid, Number(r.hour)]));
}

/** The domain's busiest hour on its own clock over [since, until), for persons without history; null without events. */
export async function busiestHour(db: Db, input: { domainUuid: string; zone: string; since: Date; until: Date }) {
  const [row] = await queryRows<{ hour: number }>(
    db,
    sql`SELECT extract(hour FROM ts AT TIME ZONE ${input.zone})::int AS hour
        FROM events
        WHERE domain_uuid = ${input.domainUuid}::uuid AND ts >= ${input.since} AND ts < ${input.until}
          AND kind IN ${ACTIVE_KINDS}
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
  );
  return row ? Number(row.hour) : null;
}
