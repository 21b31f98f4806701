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

/**
 * The due times (epoch ms, ascending) of a throttled momentum's sends from `from` on: what its next sends must keep
 * their distance from. Every row the momentum planned counts but the skipped (never given a slot).
 */
export async function throttleTaken(db: Db, momentumUuid: string, from: Date) {
  const rows = await queryRows<{ due_at: string | Date }>(
    db,
    sql`SELECT due_at FROM deliveries
        WHERE momentum_uuid = ${momentumUuid}::uuid AND due_at > ${from} AND status <> 'skipped'
        ORDER BY due_at`,
  );
  return rows.map((r) => new Date(r.due_at).getTime());
}

/** The dedupe keys of deliveries just inserted (by id). */
export async function dedupeKeysOf(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await queryRows<{ id: string; dedupe_key: string }>(
    db,
    sql`SELECT id::text AS id, dedupe_key FROM deliveries
        WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text(${json(ids)}))`,
  );
  return new Map(rows.map((r) => [r.id, r.dedupe_key]));
}

/** Moves the given deliveries to their throttled due times. */
export async function setDueTimes(db: Db, rows: { id: string; dueAt: Date }[]) {
  if (rows.length === 0) return;
  await db.execute(
    sql`UPDATE deliveries d SET due_at = r.due_at
        FROM jsonb_to_recordset(${json(rows.map((r) => ({ id: r.id, due_at: r.dueAt.toISOString() })))})
          AS r(id uuid, due_at timestamptz)
        WHERE d.id = r.id`,
  );
}

/**
 * One planned page of an occurrence written in one statement: each reachable person's chain from their first send
 * (`firsts`: epoch ms, as timing.ts planned it) spaced by the repeat `offsets` (seconds), each unreachable one a
 * `skipped` row with the reason, keyed as fanOutPage keys them (safe to run twice). Only uuids and instants travel:
 * the rows are built by the database. Answers the rows inserted queued and skipped.
 */
export async function insertPlannedPage(
  db: Db,
  input: {
    domainUuid: string;
    momentumUuid: string;
    channelType: string;
    occurrence: string;
    at: Date;
    offsets: number[];
    firsts: { u: string; d: number }[];
    skips: { u: string; r: string }[];
    now: Date;
  },
) {
  if (input.firsts.length === 0 && input.skips.length === 0) return { queued: 0, skipped: 0 };
  const prefix = `${input.momentumUuid}:`;
  const suffix = `:${input.occurrence}:`;
  const [row] = await queryRows<{ queued: number; skipped: number }>(
    db,
    sql`
    WITH planned AS (
      SELECT f.u, to_timestamp(f.d / 1000.0) AS first FROM jsonb_to_recordset(${json(input.firsts)}) AS f(u uuid, d float8)
    ), chain AS (
      SELECT (ordinality - 1)::int AS i, value::text::float8 AS secs
      FROM jsonb_array_elements(${json(input.offsets)}) WITH ORDINALITY
    ), ins AS (
      INSERT INTO deliveries (id, domain_uuid, momentum_uuid, person_uuid, channel_type, dedupe_key, status, error,
                              trigger_at, due_at, created_at, updated_at)
      SELECT gen_random_uuid(), ${input.domainUuid}::uuid, ${input.momentumUuid}::uuid, p.u, ${input.channelType}::text,
             ${prefix}::text || p.u::text || ${suffix}::text || c.i::text, 'queued', NULL,
             ${input.at}::timestamptz, p.first + make_interval(secs => c.secs), ${input.now}::timestamptz, ${input.now}::timestamptz
      FROM planned p CROSS JOIN chain c
      UNION ALL
      SELECT gen_random_uuid(), ${input.domainUuid}::uuid, ${input.momentumUuid}::uuid, s.u, ${input.channelType}::text,
             ${prefix}::text || s.u::text || ${suffix}::text || 'skipped', 'skipped', s.r,
             ${input.at}::timestamptz, ${input.at}::timestamptz, ${input.now}::timestamptz, ${input.now}::timestamptz
      FROM jsonb_to_recordset(${json(input.skips)}) AS s(u uuid, r text)
      ON CONFLICT (dedupe_key) DO NOTHING
      RETURNING status
    )
    SELECT (count(*) FILTER (WHERE status = 'queued'))::int AS queued,
           (count(*) FILTER (WHERE status = 'skipped'))::int AS skipped
    FROM ins`,
  );
  return { queued: Number(row?.queued ?? 0), skipped: Number(row?.skipped ?? 0) };
}
