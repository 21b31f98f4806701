import { randomBytes } from 'node:crypto';
import type { QuietHours } from '@impeto/shared';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Database, type Db, queryRows } from '../../db/client.ts';

/*
 * Reads of the simulation, never a write. The range's events are read grouped by person through a cursor (the
 * (domain, ts) index prunes the monthly partitions; the database sorts and groups), a batch of persons at a time.
 * Every function takes the company: the domain is matched within it (an InitPlan, evaluated once).
 */

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
const ownDomain = (companyUuid: string, domainUuid: string) =>
  sql`(SELECT uuid FROM domains WHERE uuid = ${domainUuid}::uuid AND company_uuid = ${companyUuid}::uuid)`;

export interface SimulationDomain {
  uuid: string;
  /** The domain's zone: the engine's calendar (worktime, recurrences, quiet hours) and the days of `by_day`. */
  timezone: string;
  quiet_hours: QuietHours | null;
  extra_holidays: string[] | null;
  frequency_cap_day: number | null;
  frequency_cap_week: number | null;
  /** The global control group (issue #25), 0–20 %. */
  control_group_percent: number;
}

export const domainSettings = async (db: Db, companyUuid: string, domainUuid: string) =>
  (
    await queryRows<SimulationDomain>(
      db,
      sql`SELECT d.uuid, d.timezone, d.quiet_hours, d.extra_holidays, d.frequency_cap_day, d.frequency_cap_week, d.control_group_percent
          FROM domains d JOIN companies c ON c.uuid = d.company_uuid
          WHERE d.uuid = ${domainUuid}::uuid AND d.company_uuid = ${companyUuid}::uuid AND d.removed_at IS NULL`,
    )
  )[0];

/** Distinct page addresses of the range's page views of known persons, up to `limit` (more: null). */
export async function distinctPageUrls(
  db: Db,
  companyUuid: string,
  input: { domainUuid: string; from: Date; to: Date; limit: number },
): Promise<string[] | null> {
  const rows = await queryRows<{ url: string }>(
    db,
    sql`SELECT DISTINCT url FROM events
        WHERE domain_uuid = ${ownDomain(companyUuid, input.domainUuid)} AND ts >= ${input.from} AND ts < ${input.to}
          AND kind = 'pageview' AND person_uuid IS NOT NULL AND url IS NOT NULL
        LIMIT ${input.limit + 1}`,
  );
  return rows.length > input.limit ? null : rows.map((r) => r.url);
}

/** A query's rows read a batch at a time (a cursor), and closed when done or abandoned. */
export interface RowCursor<T> {
  read(n: number): Promise<T[]>;
  close(): Promise<void>;
}

const dialect = new PgDialect();

/**
 * A server-side cursor over `query`: the database sorts and groups, the server holds one batch at a time. On
 * PostgreSQL, a read-only transaction on a connection of its own; on PGlite (one session, where a transaction held for
 * the whole replay would make every other request wait), a cursor WITH HOLD, materialised by the database and closed
 * at the end.
 */
export async function openCursor<T>(database: Database, query: SQL): Promise<RowCursor<T>> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const name = `simulate_${randomBytes(8).toString('hex')}`;
  if (database.kind === 'postgres' && database.pool) {
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN READ ONLY');
      // The grouping sorts a month of events: in memory rather than in temporary files, and by a sort (a hash
      // aggregate of a million persons' growing lists spills in a hundred batches); no JIT for one statement.
      await client.query(`SET LOCAL work_mem = '128MB'`);
      await client.query('SET LOCAL enable_hashagg = off');
      await client.query('SET LOCAL jit = off');
      // Every row is read: plan for the whole result, not for the first rows (a cursor's default).
      await client.query('SET LOCAL cursor_tuple_fraction = 1');
      await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${text}`, params);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      client.release(true);
      throw err;
    }
    return {
      read: async (n) => (await client.query(`FETCH FORWARD ${Math.floor(n)} FROM ${name}`)).rows as T[],
      close: async () => {
        let broken = false;
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        client.release(broken);
      },
    };
  }
  const pglite = database.pglite!;
  await pglite.exec('SET cursor_tuple_fraction = 1');
  try {
    await pglite.query(`DECLARE ${name} NO SCROLL CURSOR WITH HOLD FOR ${text}`, params);
  } finally {
    await pglite.exec('RESET cursor_tuple_fraction');
  }
  return {
    read: async (n) => (await pglite.query<T>(`FETCH FORWARD ${Math.floor(n)} FROM ${name}`)).rows,
    close: async () => {
      await pglite.query(`CLOSE ${name}`);
    },
  };
}

/**
 * One matching event of a person: epoch µs (its stored instant, exactly), id, then for page views the address's number in `urls` (1-based) or,
 * without that list, the address; for events the category and the trigger's one property.
 */
export type PersonEvent = [number, number, number | string | null, (string | null)?, (Record<string, unknown> | null)?];

/** A person with the range's events that may start or cancel the momentum (in no order), and the cap's real messages. */
export interface PersonEvents extends SimPerson {
  events: PersonEvent[];
  /** Messages of other momentums sent from a week before the range to its end (epoch ms ascending); null: none or no cap. */
  real: number[] | null;
}

export interface PersonEventsInput {
  domainUuid: string;
  from: Date;
  to: Date;
  /** 'pageview' or 'event'. */
  kind: 'pageview' | 'event';
  /** Only these page addresses, each given by its number (1-based); null: any, given by its text. */
  urls: string[] | null;
  /** Only events of these categories. */
  categories: string[] | null;
  /** The one property the trigger reads (the rest of `props` is not fetched). */
  propKey: string | null;
  /** Read the cap's real messages (other momentums' since a week before the range). */
  cap: boolean;
  except: string | null;
}

const epochMs = (column: SQL) => sql`floor(extract(epoch FROM ${column}) * 1000)::float8`;
/** Microseconds since the epoch: exact in a double (below 2^53 until the year 2255), the stored order kept. */
const epochUs = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000000)::float8`;

type TriggerEventsInput = Omit<PersonEventsInput, 'cap' | 'except'>;

/**
 * What both readings of the range's events share (personEventsQuery, timeOrderedEventsQuery): the conditions on
 * `events e` (the domain as a value, so the planner knows how many of the events are its own, and the company's as a
 * one-time condition; the range, known persons, the kind, the categories), the join that gives each page address
 * asked for its number (`u.code`, when `byUrl`), and the one property the trigger reads.
 */
function triggerEvents(companyUuid: string, input: TriggerEventsInput) {
  const conditions: SQL[] = [
    sql`${ownDomain(companyUuid, input.domainUuid)} IS NOT NULL`,
    sql`e.domain_uuid = ${input.domainUuid}::uuid`,
    sql`e.ts >= ${input.from.toISOString()}::timestamptz`,
    sql`e.ts < ${input.to.toISOString()}::timestamptz`,
    sql`e.person_uuid IS NOT NULL`,
    sql`e.kind = ${input.kind}::text`,
  ];
  if (input.categories)
    conditions.push(
      sql`e.category = ANY(ARRAY[${sql.join(
        input.categories.map((c) => sql`${c}::text`),
        sql`, `,
      )}])`,
    );
  const byUrl = input.kind === 'pageview' && input.urls !== null;
  const join = byUrl
    ? sql`JOIN (SELECT value AS url, ordinality::int AS code
                FROM jsonb_array_elements_text(${json(input.urls)}) WITH ORDINALITY) AS u ON u.url = e.url`
    : sql``;
  const props = input.propKey
    ? sql`CASE WHEN e.props ? ${input.propKey}::text THEN jsonb_build_object(${input.propKey}::text, e.props -> ${input.propKey}::text) END`
    : sql`NULL::jsonb`;
  return { where: sql.join(conditions, sql` AND `), join, byUrl, props };
}

/**
 * With a cap, the join (on `persons p`) of each person's real messages as `s.real`: other momentums' (all but
 * `except`), sent from a week before the range to its end, in epoch ms ascending; `persons` narrows the deliveries read
 * (` AND person_uuid IN …`). Without a cap, nothing.
 */
function realMessagesJoin(
  input: { domainUuid: string; from: Date; to: Date; cap: boolean; except: string | null },
  persons: SQL = sql``,
): SQL {
  if (!input.cap) return sql``;
  return sql`LEFT JOIN (
            SELECT person_uuid, json_agg(${epochMs(sql`sent_at`)} ORDER BY sent_at) AS real FROM deliveries
            WHERE domain_uuid = ${input.domainUuid}::uuid${persons}
              AND sent_at > ${new Date(input.from.getTime() - 7 * 86_400_000).toISOString()}::timestamptz
              AND sent_at <= ${input.to.toISOString()}::timestamptz
              AND status IN ('sending', 'sent', 'viewed', 'clicked')
              AND (${input.except}::uuid IS NULL OR momentum_uuid <> ${input.except}::uuid)
            GROUP BY person_uuid) AS s ON s.person_uuid = p.uuid`;
}

/**
 * The range's events of known persons that the trigger may read, grouped by person (in no order: sort them by
 * (ts, id)), with the person the engine reads at send time and, with a cap, their real messages: one row per person,
 * by uuid. Persons are independent (the cap, the dedupe keys and the control group are a person's own), so a replay
 * person by person decides what a replay in time order would. Persons come in no order either (a hash join
 * with `persons` rather than a walk of its primary key, which reads the table's pages at random).
 */
export function personEventsQuery(companyUuid: string, input: PersonEventsInput): SQL {
  const domain = sql`${input.domainUuid}::uuid`;
  const { where, join, byUrl, props } = triggerEvents(companyUuid, input);
  const item =
    input.kind === 'pageview'
      ? sql`json_build_array(${epochUs(sql`e.ts`)}, e.id::float8, ${byUrl ? sql`u.code` : sql`e.url`})`
      : sql`json_build_array(${epochUs(sql`e.ts`)}, e.id::float8, NULL, e.category, ${props})`;
  const real = realMessagesJoin(input);
  return sql`SELECT p.uuid::text AS uuid, p.visitor_id, p.email, p.phone, p.push_status, p.push_subscription,
                    p.attributes, p.timezone, ev.events, ${input.cap ? sql`s.real` : sql`NULL::json`} AS real
             FROM (SELECT e.person_uuid, json_agg(${item}) AS events
                   FROM events e ${join}
                   WHERE ${where}
                   GROUP BY e.person_uuid) AS ev
             JOIN persons p ON p.uuid = ev.person_uuid AND p.domain_uuid = ${domain}
             ${real}`;
}

export interface SimPerson {
  uuid: string;
  visitor_id: string;
  email: string | null;
  phone: string | null;
  push_status: string | null;
  push_subscription: unknown;
  attributes: Record<string, unknown>;
  /** The browser's zone (persons.timezone): the person's clock (quiet hours, the visitor's worktime, local time). */
  timezone: string | null;
}

/** A person of the audience the replay decides send by send: in the filter, and reachable (or kept for the finish date). */
export interface AudienceRow {
  uuid: string;
  /** How many of the occurrences came before the person's first visit (audienceBase). */
  before: number;
  visitor_id: string;
  email: string | null;
  phone: string | null;
  /** Why the channel cannot reach them (qualify.ts unreachableReasonSql), null when it can. */
  skip: string | null;
  timezone: string | null;
  /** The whole attributes when the filter reads them, else only what the person's zone comes from (personZone). */
  attributes: Record<string, unknown> | null;
  /** The cap's real messages (epoch ms ascending), only for those it can hold back; null: none or no cap. */
  real: number[] | null;
}

export interface AudienceInput {
  domainUuid: string;
  from: Date;
  to: Date;
  /** The fan-out's own condition (the filter's SQL form). */
  where: SQL;
  /** qualify.ts unreachableReasonSql for the momentum's channel. */
  skip: SQL;
  /** The occurrences, ascending: a person counts from the first one at or after their first_seen (to the ms). */
  occurrences: Date[];
  /** Persons the channel cannot reach are replayed too (a finish date may stop their sends first), not only counted. */
  keepSkipped: boolean;
  /** The filter reads attributes other than the zone's (passesAudience needs them whole). */
  attributes: boolean;
  cap: boolean;
  except: string | null;
  /** By uuid, as the fan-out pages them (a throttle gives its slots in that order); else as the table is read. */
  ordered: boolean;
}

/**
 * The domain's persons who existed before the last occurrence, each with whether the filter's SQL form passes them,
 * why the channel cannot reach them (both the fan-out's own SQL) and how many occurrences came before their first
 * visit (`before`: the thresholds below first_seen taken to the millisecond, as a JavaScript Date holds it).
 */
function audienceBase(companyUuid: string, input: AudienceInput): SQL {
  const occurrences = sql`ARRAY[${sql.join(
    input.occurrences.map((o) => sql`${o.toISOString()}::timestamptz`),
    sql`, `,
  )}]::timestamptz[]`;
  const last = input.occurrences[input.occurrences.length - 1]!;
  return sql`SELECT uuid, first_seen, visitor_id, email, phone, timezone, attributes,
                    coalesce(${input.where}, false) AS passes, ${input.skip} AS skip,
                    width_bucket(date_trunc('milliseconds', first_seen) - interval '1 microsecond', ${occurrences}) AS before
             FROM persons
             WHERE ${ownDomain(companyUuid, input.domainUuid)} IS NOT NULL AND domain_uuid = ${input.domainUuid}::uuid
               AND first_seen < ${input.to.toISOString()}::timestamptz
               AND date_trunc('milliseconds', first_seen) <= ${last.toISOString()}::timestamptz`;
}

/** Who is only counted: out of the filter, or (without `keepSkipped`) out of the channel's reach. */
const countedOnly = (input: AudienceInput) =>
  input.keepSkipped ? sql`NOT a.passes` : sql`(NOT a.passes OR a.skip IS NOT NULL)`;

/**
 * The persons only counted, in one aggregate: per reason (null: the filter; else the channel's) and number of
 * occurrences before their first visit, how many there are.
 */
export const audienceRemoved = (db: Db, companyUuid: string, input: AudienceInput) =>
  queryRows<{ reason: string | null; before: number; persons: number }>(
    db,
    sql`SELECT CASE WHEN a.passes THEN a.skip END AS reason, a.before::int AS before, count(*)::float8 AS persons
        FROM (${audienceBase(companyUuid, input)}) AS a
        WHERE ${countedOnly(input)}
        GROUP BY 1, 2`,
  );

/** A few of the persons only counted, with what their sample line shows (the first met as the table is read). */
export const audienceRemovedSample = (db: Db, companyUuid: string, input: AudienceInput, limit: number) =>
  queryRows<{
    uuid: string;
    before: number;
    visitor_id: string;
    email: string | null;
    phone: string | null;
    reason: string | null;
  }>(
    db,
    sql`SELECT a.uuid::text AS uuid, a.before::int AS before, a.visitor_id, a.email, a.phone,
               CASE WHEN a.passes THEN a.skip END AS reason
        FROM (${audienceBase(companyUuid, input)}) AS a
        WHERE ${countedOnly(input)}
        LIMIT ${limit}`,
  );

/**
 * The persons replayed send by send (for a cursor): in the filter and reachable (or all in the filter with
 * `keepSkipped`), with only what the replay reads of them, and the cap's real messages (other momentums' since a week
 * before `from`) for those it can hold back. Read as the table is stored, or sorted by uuid when the order matters
 * (never a walk of the primary key, which reads the table's pages at random).
 */
export function audienceQuery(companyUuid: string, input: AudienceInput): SQL {
  const domain = sql`${input.domainUuid}::uuid`;
  const real = input.cap
    ? sql`LEFT JOIN (
            SELECT person_uuid, json_agg(${epochMs(sql`sent_at`)} ORDER BY sent_at) AS real FROM deliveries
            WHERE domain_uuid = ${domain}
              AND sent_at > ${new Date(input.from.getTime() - 7 * 86_400_000).toISOString()}::timestamptz
              AND sent_at <= ${input.to.toISOString()}::timestamptz
              AND status IN ('sending', 'sent', 'viewed', 'clicked')
              AND (${input.except}::uuid IS NULL OR momentum_uuid <> ${input.except}::uuid)
            GROUP BY person_uuid) AS s ON s.person_uuid = a.uuid AND a.skip IS NULL`
    : sql``;
  const attributes = input.attributes
    ? sql`a.attributes`
    : sql`jsonb_build_object(
            'client.location.country', a.attributes -> 'client.location.country',
            'client.location.region', a.attributes -> 'client.location.region',
            'client.location.city', a.attributes -> 'client.location.city')`;
  return sql`SELECT a.uuid::text AS uuid, a.before::int AS before, a.visitor_id, a.email, a.phone, a.skip, a.timezone,
                    ${attributes} AS attributes, ${input.cap ? sql`s.real` : sql`NULL::json`} AS real
             FROM (${audienceBase(companyUuid, input)}) AS a
             ${real}
             WHERE NOT ${countedOnly(input)}
             ${input.ordered ? sql`ORDER BY a.uuid` : sql``}`;
}

/** The saved item a simulation stands for, when it is the company's. */
export const ownMomentum = async (db: Db, companyUuid: string, uuid: string) =>
  (
    await queryRows<{ uuid: string }>(
      db,
      sql`SELECT uuid FROM momentums WHERE uuid = ${uuid}::uuid AND company_uuid = ${companyUuid}::uuid`,
    )
  )[0];

/*
 * Journey steps (issue #26, journey-replay.ts): what the engine's journey stage reads of a person when a step is due
 * (engine/journey.queries.ts positionFacts, eventsSince and the persons' rows), here bounded by the step's instant in
 * the range (the replay reads each step's window: what happened after the step had not happened yet). The persons are
 * kept to the company's domain's; their events are read by the person's index (the domain as a plain value: compared
 * with a subquery's answer, the planner scanned the domain's window of events for every person, 15 times slower).
 */

/**
 * The domain's conversions in the range (the conversions table the engine's journey stage reads), by person in time
 * order: few beside the events, read once per simulation.
 */
export const journeyConversions = (db: Db, companyUuid: string, domainUuid: string, from: Date, to: Date) =>
  queryRows<{ person_uuid: string; at: number }>(
    db,
    sql`SELECT c.person_uuid, ${epochMs(sql`c.ts`)} AS at FROM conversions c
        WHERE c.domain_uuid = ${domainUuid}::uuid AND ${ownDomain(companyUuid, domainUuid)} IS NOT NULL
          AND c.person_uuid IS NOT NULL AND c.ts >= ${from} AND c.ts <= ${to}
        ORDER BY c.person_uuid, c.ts`,
  );

export interface JourneyEvent {
  person_uuid: string;
  at: number;
  kind: 'pageview' | 'event';
  url: string | null;
  category: string | null;
  props: Record<string, unknown> | null;
}

/**
 * The page views and events of a batch's persons in the range, by person in time order (a step's page and event
 * conditions read a window of them): one statement per batch, each person by their index.
 */
export const journeyEvents = (
  db: Db,
  companyUuid: string,
  domainUuid: string,
  persons: string[],
  from: Date,
  to: Date,
) =>
  queryRows<JourneyEvent>(
    db,
    sql`SELECT e.person_uuid, ${epochMs(sql`e.ts`)} AS at, e.kind, e.url, e.category, e.props
        FROM jsonb_array_elements_text(${json(persons)}) AS r(p)
        JOIN persons pp ON pp.uuid = r.p::uuid AND pp.domain_uuid = ${ownDomain(companyUuid, domainUuid)}
        JOIN events e ON e.person_uuid = pp.uuid
        WHERE e.domain_uuid = ${domainUuid}::uuid AND e.kind IN ('pageview', 'event')
          AND e.ts >= ${from} AND e.ts <= ${to}
        ORDER BY e.person_uuid, e.ts`,
  ).then((rows) => rows.map((r) => ({ ...r, at: Number(r.at) })));

/** The rows of the persons who entered the journey (every channel's contacts: a step may use another channel). */
export const journeyPersons = (db: Db, companyUuid: string, domainUuid: string, uuids: string[]) =>
  queryRows<SimPerson>(
    db,
    sql`SELECT uuid, visitor_id, email, phone, push_subscription, push_status, attributes, timezone
        FROM persons
        WHERE domain_uuid = ${ownDomain(companyUuid, domainUuid)}
          AND uuid IN (SELECT value::uuid FROM jsonb_array_elements_text(${json(uuids)}))`,
  );

/*
 * A throttled momentum started by events (throttled-replay.ts): its slots link persons in trigger order, so the
 * range's events are read in stored order across persons, and each person's row when they are first met.
 */

/** One event of the time-ordered stream: epoch µs, id, the person, then as PersonEvent's (page, category, props). */
export interface StreamEvent {
  us: number;
  id: number;
  person: string;
  page: number | string | null;
  category: string | null;
  props: Record<string, unknown> | null;
}

/**
 * The range's events of known persons that the trigger may read (triggerEvents, as personEventsQuery), in stored order
 * (ts to the microsecond, then id), for a cursor. Persons are not joined here: a chunk's new ones are read apart
 * (personsOf), once per chunk rather than once per event.
 */
export function timeOrderedEventsQuery(companyUuid: string, input: TriggerEventsInput): SQL {
  const { where, join, byUrl, props } = triggerEvents(companyUuid, input);
  const page = input.kind !== 'pageview' ? sql`NULL` : byUrl ? sql`u.code` : sql`e.url`;
  return sql`SELECT ${epochUs(sql`e.ts`)} AS us, e.id::float8 AS id, e.person_uuid::text AS person, ${page} AS page,
                    ${input.kind === 'event' ? sql`e.category` : sql`NULL::text`} AS category, ${props} AS props
             FROM events e ${join}
             WHERE ${where}
             ORDER BY e.ts, e.id`;
}

/** The domain's persons among `uuids`, as the engine reads them at send time, with the cap's real messages. */
export const personsOf = (
  db: Db,
  companyUuid: string,
  input: { domainUuid: string; uuids: string[]; from: Date; to: Date; cap: boolean; except: string | null },
) => {
  const domain = sql`${input.domainUuid}::uuid`;
  const wanted = sql`(SELECT value::uuid FROM jsonb_array_elements_text(${json(input.uuids)}))`;
  const real = realMessagesJoin(input, sql` AND person_uuid IN ${wanted}`);
  return queryRows<SimPerson & { real: number[] | null }>(
    db,
    sql`SELECT p.uuid::text AS uuid, p.visitor_id, p.email, p.phone, p.push_status, p.push_subscription,
               p.attributes, p.timezone, ${input.cap ? sql`s.real` : sql`NULL::json`} AS real
        FROM persons p ${real}
        WHERE ${ownDomain(companyUuid, input.domainUuid)} IS NOT NULL AND p.domain_uuid = ${domain}
          AND p.uuid IN ${wanted}`,
  );
};
