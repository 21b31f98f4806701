import type { PersonLookup } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { visitorHash } from '../../lib/visitor-hash.ts';

export interface PersonRow {
  uuid: string;
  visitor_id: string;
  email: string | null;
  phone: string | null;
  name: string | null;
  attributes: Record<string, unknown>;
  push_subscription: Record<string, unknown> | null;
  push_status: 'subscribed' | 'unsubscribed' | null;
  /** The browser's IANA zone (issue #27), null when never reported. */
  timezone: string | null;
  first_seen: Date;
  last_seen: Date;
}

/** The persons of one domain (already checked to be the caller's) that the lookup names: one by visitor id, maybe several by e-mail or phone. */
export const findPersons = (db: Db, domainUuid: string, lookup: PersonLookup) =>
  queryRows<PersonRow>(
    db,
    sql`SELECT uuid, visitor_id, email, phone, name, attributes, push_subscription, push_status, timezone, first_seen,
               last_seen
        FROM persons WHERE domain_uuid = ${domainUuid}::uuid AND ${
          lookup.vid !== undefined
            ? sql`visitor_id = ${lookup.vid}`
            : lookup.email !== undefined
              ? sql`email = ${lookup.email}`
              : sql`phone = ${lookup.phone!}`
        }
        ORDER BY last_seen DESC LIMIT 100`,
  );

const uuidList = (uuids: string[]) =>
  sql`(SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(uuids)}::jsonb))`;

export const countsOf = (db: Db, uuids: string[]) =>
  queryRows<{ uuid: string; events: number; deliveries: number }>(
    db,
    sql`SELECT p.uuid,
          (SELECT count(*)::int FROM events e WHERE e.person_uuid = p.uuid) AS events,
          (SELECT count(*)::int FROM deliveries d WHERE d.person_uuid = p.uuid) AS deliveries
        FROM persons p WHERE p.uuid IN ${uuidList(uuids)}`,
  );

export const eventsOf = (db: Db, personUuid: string) =>
  queryRows<{
    id: string;
    kind: string;
    url: string | null;
    category: string | null;
    props: Record<string, unknown> | null;
    device: string | null;
    ts: Date;
  }>(
    db,
    sql`SELECT id::text, kind, url, category, props, device, ts FROM events
        WHERE person_uuid = ${personUuid}::uuid ORDER BY ts, id`,
  );

export const deliveriesOf = (db: Db, personUuid: string) =>
  queryRows<{
    id: string;
    momentum_uuid: string;
    momentum_title: string | null;
    channel_type: string;
    status: string;
    error: string | null;
    trigger_at: Date;
    due_at: Date;
    sent_at: Date | null;
    viewed_at: Date | null;
    clicked_at: Date | null;
    created_at: Date;
  }>(
    db,
    sql`SELECT d.id, d.momentum_uuid, m.momentum_title, d.channel_type, d.status, d.error, d.trigger_at, d.due_at,
          d.sent_at, d.viewed_at, d.clicked_at, d.created_at
        FROM deliveries d LEFT JOIN momentums m ON m.uuid = d.momentum_uuid
        WHERE d.person_uuid = ${personUuid}::uuid ORDER BY d.created_at, d.id`,
  );

export const onsiteOf = (db: Db, personUuid: string) =>
  queryRows<{ delivery_id: string; payload: Record<string, unknown>; expires_at: Date; created_at: Date }>(
    db,
    sql`SELECT delivery_id, payload, expires_at, created_at FROM onsite_queue
        WHERE person_uuid = ${personUuid}::uuid ORDER BY created_at`,
  );

/**
 * Erases persons of one domain, in the caller's transaction: the on-site queue and the events go; deliveries stay
 * in their momentum's figures without anything personal (no person, no error text, a dedupe key that names no one;
 * waiting ones cancelled); the daily unique-visitor rows keep counting under a fresh random id each, so past
 * analytics do not change and nothing links them back; the visitor id is remembered only as a hash, so requests
 * accepted before the erasure and stored after it (a spool, another process) are dropped by the ingestor.
 */
export async function erasePersons(db: Db, domainUuid: string, persons: PersonRow[], now: Date) {
  const uuids = persons.map((p) => p.uuid);
  const ids = uuidList(uuids);
  const tombstones = persons.map((p) => ({ h: visitorHash(domainUuid, p.visitor_id) }));
  await db.execute(sql`
    INSERT INTO person_erasures (domain_uuid, visitor_hash, erased_at)
    SELECT ${domainUuid}::uuid, r.h, ${now} FROM jsonb_to_recordset(${JSON.stringify(tombstones)}::jsonb) AS r(h text)
    ON CONFLICT (domain_uuid, visitor_hash) DO UPDATE SET erased_at = excluded.erased_at`);
  const onsite = await queryRows<{ n: number }>(
    db,
    sql`WITH gone AS (DELETE FROM onsite_queue WHERE person_uuid IN ${ids} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
  );
  const deliveries = await queryRows<{ n: number }>(
    db,
    sql`WITH changed AS (
          UPDATE deliveries SET person_uuid = NULL, error = NULL, dedupe_key = 'erased:' || id::text,
            status = CASE WHEN status IN ('queued', 'sending') THEN 'cancelled' ELSE status END, updated_at = ${now}
          WHERE person_uuid IN ${ids} RETURNING 1)
        SELECT count(*)::int AS n FROM changed`,
  );
  const events = await queryRows<{ n: number }>(
    db,
    sql`WITH gone AS (DELETE FROM events WHERE person_uuid IN ${ids} RETURNING 1) SELECT count(*)::int AS n FROM gone`,
  );
  for (const p of persons) {
    await db.execute(sql`
      UPDATE daily_visitors SET person_uuid = gen_random_uuid()
      WHERE domain_uuid = ${domainUuid}::uuid AND person_uuid = ${p.uuid}::uuid
        AND day BETWEEN (${p.first_seen}::timestamptz - interval '2 days')::date
                    AND (${p.last_seen}::timestamptz + interval '2 days')::date`);
  }
  await db.execute(sql`DELETE FROM persons WHERE uuid IN ${ids}`);
  return {
    persons: persons.length,
    events: events[0]?.n ?? 0,
    deliveries: deliveries[0]?.n ?? 0,
    onsite: onsite[0]?.n ?? 0,
  };
}
