import type { QuietHours } from '@impeto/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';

/*
 * Reads of the simulation, never a write. Events are read by (domain, ts) ranges in time order, page by page (the
 * keyset is the row's exact `ts` text and id), so the monthly partitions are pruned and memory stays bounded.
 * Every function takes the company: the domain is matched within it (an InitPlan, evaluated once).
 */

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
/** `= ANY` of this: a list evaluated once (an InitPlan), which leaves the (domain, ts) index scan in place. */
const textArray = (values: string[]) => sql`ARRAY(SELECT jsonb_array_elements_text(${json(values)}))`;
const uuidList = (ids: string[]) => sql`(SELECT value::uuid FROM jsonb_array_elements_text(${json(ids)}))`;
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

export interface EventRow {
  id: string | number;
  person_uuid: string;
  kind: string;
  url: string | null;
  category: string | null;
  props: Record<string, unknown> | null;
  ts: string | Date;
  /** The exact stored instant, as text: the page's keyset. */
  ts_key: string;
}

export interface EventPageInput {
  domainUuid: string;
  from: Date;
  to: Date;
  kinds: string[];
  /** Only these page addresses (a prefilter of rows the matcher then tests); null: any. */
  urls: string[] | null;
  /** Only events of these categories; null: any. */
  categories: string[] | null;
  /** The one property the trigger reads (the rest of `props` is not fetched). */
  propKey: string | null;
  after: { tsKey: string; id: string | number } | null;
  limit: number;
}

/** One page of the events of known persons in [from, to), in stored order (ts, id). */
export function eventPage(db: Db, companyUuid: string, input: EventPageInput) {
  const conditions: SQL[] = [
    sql`domain_uuid = ${ownDomain(companyUuid, input.domainUuid)}`,
    sql`ts >= ${input.from}`,
    sql`ts < ${input.to}`,
    sql`person_uuid IS NOT NULL`,
    sql`kind = ANY(${textArray(input.kinds)})`,
  ];
  if (input.urls) conditions.push(sql`url = ANY(${textArray(input.urls)})`);
  if (input.categories) conditions.push(sql`category = ANY(${textArray(input.categories)})`);
  if (input.after) {
    const at = sql`${input.after.tsKey}::timestamptz`;
    conditions.push(sql`ts >= ${at}`, sql`(ts > ${at} OR id > ${input.after.id}::bigint)`);
  }
  const props = input.propKey
    ? sql`CASE WHEN props ? ${input.propKey}::text THEN jsonb_build_object(${input.propKey}::text, props -> ${input.propKey}::text) END`
    : sql`NULL::jsonb`;
  return queryRows<EventRow>(
    db,
    sql`SELECT id, person_uuid, kind, url, category, ${props} AS props, ts, ts::text AS ts_key
        FROM events WHERE ${sql.join(conditions, sql` AND `)}
        ORDER BY ts, id LIMIT ${input.limit}`,
  );
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

/** The persons the engine reads at send time (filter, reach, recipient), by uuid. */
export const personsByUuid = (db: Db, companyUuid: string, domainUuid: string, uuids: string[]) =>
  uuids.length === 0
    ? Promise.resolve([])
    : queryRows<SimPerson>(
        db,
        sql`SELECT uuid, visitor_id, email, phone, push_status, push_subscription, attributes, timezone FROM persons
            WHERE domain_uuid = ${ownDomain(companyUuid, domainUuid)} AND uuid IN ${uuidList(uuids)}`,
      );

export interface AudiencePerson {
  uuid: string;
  first_seen: string | Date;
  passes: boolean;
  visitor_id: string;
  email: string | null;
  phone: string | null;
  /** The rest only when `passes` (a person out of the filter is only counted). */
  push_status: string | null;
  push_subscription: unknown;
  attributes: Record<string, unknown> | null;
  timezone: string | null;
}

/**
 * One page of the domain's persons who existed before `to`, by uuid as the fan-out pages them, with whether they
 * pass the audience filter (`where`, the fan-out's own condition).
 */
export const audiencePage = (
  db: Db,
  companyUuid: string,
  input: { domainUuid: string; to: Date; where: SQL; after: string | null; limit: number },
) =>
  queryRows<AudiencePerson>(
    db,
    sql`SELECT uuid, first_seen, passes, visitor_id, email, phone, CASE WHEN passes THEN push_status END AS push_status,
               CASE WHEN passes THEN push_subscription END AS push_subscription,
               CASE WHEN passes THEN attributes END AS attributes, CASE WHEN passes THEN timezone END AS timezone
        FROM (
          SELECT uuid, first_seen, visitor_id, email, phone, push_status, push_subscription, attributes, timezone,
                 coalesce(${input.where}, false) AS passes
          FROM persons
          WHERE domain_uuid = ${ownDomain(companyUuid, input.domainUuid)} AND first_seen < ${input.to}
            AND (${input.after}::uuid IS NULL OR uuid > ${input.after}::uuid)
          ORDER BY uuid LIMIT ${input.limit}) AS page
        ORDER BY uuid`,
  );

/**
 * What the frequency cap counts of these persons' real history: messages of other momentums sent (or being sent)
 * from a week before the range to its end. `except`: the saved item the simulation stands for.
 */
export const sentTimes = (
  db: Db,
  companyUuid: string,
  input: { domainUuid: string; personUuids: string[]; from: Date; to: Date; except: string | null },
) =>
  input.personUuids.length === 0
    ? Promise.resolve([])
    : queryRows<{ person_uuid: string; sent_at: string | Date }>(
        db,
        sql`SELECT person_uuid, sent_at FROM deliveries
            WHERE domain_uuid = ${ownDomain(companyUuid, input.domainUuid)}
              AND person_uuid IN ${uuidList(input.personUuids)}
              AND sent_at > ${input.from} AND sent_at <= ${input.to}
              AND status IN ('sending', 'sent', 'viewed', 'clicked')
              AND (${input.except}::uuid IS NULL OR momentum_uuid <> ${input.except}::uuid)
            ORDER BY person_uuid, sent_at`,
      );

/** The saved item a simulation stands for, when it is the company's. */
export const ownMomentum = async (db: Db, companyUuid: string, uuid: string) =>
  (
    await queryRows<{ uuid: string }>(
      db,
      sql`SELECT uuid FROM momentums WHERE uuid = ${uuid}::uuid AND company_uuid = ${companyUuid}::uuid`,
    )
  )[0];
