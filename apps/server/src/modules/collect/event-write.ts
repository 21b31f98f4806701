import type { CollectEvent } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import type { VisitorEvent } from './incoming.ts';
import { personKey } from './person-upsert.ts';
import { chunk, EVENTS_PER_STATEMENT } from './statements.ts';

/** One row of `events` as the INSERT takes it. */
export interface EventRecord {
  domain_uuid: string;
  person_uuid: string | null;
  kind: string;
  url: string | null;
  category: string | null;
  props: unknown;
  device: string;
  ts: string;
}

/** One row of `events` as the database gives it back. */
export interface EventRow {
  id: string | number;
  domain_uuid: string;
  person_uuid: string | null;
  kind: string;
  url: string | null;
  category: string | null;
  props: Record<string, unknown> | null;
  ts: Date | string;
}

export const toStoredEvent = (r: EventRow): StoredEvent => ({
  id: Number(r.id),
  domainUuid: r.domain_uuid,
  personUuid: r.person_uuid,
  kind: r.kind,
  url: r.url,
  category: r.category,
  props: r.props,
  ts: new Date(r.ts),
});

export const KIND: Record<CollectEvent['t'], string> = {
  pv: 'pageview',
  ev: 'event',
  id: 'identify',
  optin: 'optin',
  optout: 'optout',
  viewed: 'viewed',
  clicked: 'clicked',
  cv: 'conversion',
  dcm: 'dcm',
};

/**
 * Appends events with one JSON parameter (jsonb_to_recordset): far cheaper than a bound value per column. The rows
 * the database gives back are pushed to `stored` (what the engine matches).
 */
export async function insertEvents(db: Db, records: EventRecord[], stored: StoredEvent[]) {
  const rows = await queryRows<EventRow>(
    db,
    sql`
    INSERT INTO events (domain_uuid, person_uuid, kind, url, category, props, device, ts)
    SELECT r.domain_uuid, r.person_uuid, r.kind, r.url, r.category, r.props, r.device, r.ts
    FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
      domain_uuid uuid, person_uuid uuid, kind text, url text, category text, props jsonb, device text, ts timestamptz)
    RETURNING id, domain_uuid, person_uuid, kind, url, category, props, ts`,
  );
  for (const r of rows) stored.push(toStoredEvent(r));
}

/** The row one visitor's event becomes, with its person. */
export function eventRecord(item: VisitorEvent, personUuid: string): EventRecord {
  const e = item.event;
  const props =
    e.t === 'ev' || e.t === 'id'
      ? (e.p ?? {})
      : e.t === 'pv'
        ? { referrer: e.r, title: e.ti }
        : e.t === 'viewed' || e.t === 'clicked'
          ? { delivery_id: e.d }
          : e.t === 'optin'
            ? { endpoint: e.s.endpoint }
            : e.t === 'cv'
              ? { value: e.v, ...(e.o ? { order_id: e.o } : {}) }
              : {};
  return {
    domain_uuid: item.domainUuid,
    person_uuid: personUuid,
    kind: KIND[e.t],
    url: e.t === 'pv' ? e.u : null,
    category: e.t === 'ev' ? e.c : null,
    props,
    device: item.device.device,
    ts: item.receivedAt.toISOString(),
  };
}

/**
 * Appends the visitors' events, EVENTS_PER_STATEMENT per statement. GCD reports only move their item's counters
 * (dcm-counters.ts); they are not stored as events.
 */
export async function writeEvents(
  db: Db,
  batch: VisitorEvent[],
  personUuid: Map<string, string>,
  stored: StoredEvent[],
) {
  const kept = batch.filter((item) => item.event.t !== 'dcm');
  for (const rows of chunk(kept, EVENTS_PER_STATEMENT)) {
    await insertEvents(
      db,
      rows.map((item) => eventRecord(item, personUuid.get(personKey(item))!)),
      stored,
    );
  }
}
