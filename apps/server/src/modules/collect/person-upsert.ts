import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { IncomingRequest, VisitorEvent } from './incoming.ts';
import { byKey, chunk, ROWS_PER_STATEMENT } from './statements.ts';

const MAX_VISITED = 100;

/** The key of a batch's person: its domain and visitor id (the map `upsertPersons` returns is keyed by it). */
export const personKey = (item: { domainUuid: string; visitorId?: string }) => `${item.domainUuid}|${item.visitorId}`;

/** The person attributes one request tells (its sender's device, place and language); the latest request's win. */
export function requestAttributes(sender: Pick<IncomingRequest, 'device' | 'geo' | 'language' | 'timezone'>) {
  const a: Record<string, unknown> = {
    'navigator.mobile': sender.device.mobile,
    'client.device.name': sender.device.device,
  };
  if (sender.device.browser) a['navigator.browser'] = sender.device.browser;
  if (sender.device.version) a['navigator.version'] = sender.device.version;
  if (sender.device.os) a['client.device.os'] = sender.device.os;
  if (sender.language) a['navigator.language'] = sender.language;
  if (sender.geo.country) a['client.location.country'] = sender.geo.country;
  if (sender.geo.region) a['client.location.region'] = sender.geo.region;
  if (sender.geo.city) a['client.location.city'] = sender.geo.city;
  if (sender.timezone) a['client.location.timezone'] = sender.timezone;
  if (sender.geo.asnOrganization) a['asn.autonomous_system_organization'] = sender.geo.asnOrganization;
  return a;
}

const referrerOrigin = (r: string | undefined, own: string) => {
  if (!r) return 'direct';
  try {
    const host = new URL(r).hostname;
    return host === own ? 'direct' : host;
  } catch {
    return 'direct';
  }
};

/** Everything a batch tells about one person. */
export interface BatchPerson {
  domainUuid: string;
  visitorId: string;
  attrs: Record<string, unknown>;
  email?: string;
  phone?: string;
  name?: string;
  first: Date;
  last: Date;
  visited: string[];
  /** The browser's zone, the latest request's that told one. */
  timezone?: string;
}

/**
 * One person per (domain, visitor) in the batch, with every attribute the batch tells: the first request's device,
 * place and origin, the pages visited (up to MAX_VISITED), what `identify` said (e-mail, phone, name, the rest as
 * `identify.*`). Keyed by `personKey`.
 */
export function gatherPersons(batch: VisitorEvent[]) {
  const people = new Map<string, BatchPerson>();
  for (const item of batch) {
    const key = personKey(item);
    let p = people.get(key);
    if (!p) {
      const a: Record<string, unknown> = { createdAt: item.receivedAt.toISOString(), ...requestAttributes(item) };
      p = {
        domainUuid: item.domainUuid,
        visitorId: item.visitorId,
        attrs: a,
        first: item.receivedAt,
        last: item.receivedAt,
        visited: [],
      };
      people.set(key, p);
    }
    if (item.receivedAt >= p.last && item.timezone) p.timezone = item.timezone;
    if (item.receivedAt > p.last) p.last = item.receivedAt;
    const e = item.event;
    if (e.t === 'pv') {
      if (!p.visited.includes(e.u) && p.visited.length < MAX_VISITED) p.visited.push(e.u);
      if (!('origin' in p.attrs)) p.attrs.origin = referrerOrigin(e.r, new URL(e.u).hostname);
    } else if (e.t === 'id') {
      for (const [k, v] of Object.entries(e.p)) {
        if (k === 'email' && typeof v === 'string') p.email = v.trim().toLowerCase();
        else if (k === 'phone') p.phone = String(v).replace(/\D/g, '');
        else if (k === 'name' && typeof v === 'string') p.name = v.trim();
        else p.attrs[`identify.${k}`] = v;
      }
    }
  }
  return people;
}

/**
 * Upserts one person row per (domain, visitor) of the batch, ROWS_PER_STATEMENT per statement in key order (so
 * concurrent batches lock rows in the same order); returns each person's uuid by `personKey`.
 */
export async function upsertPersons(db: Db, batch: VisitorEvent[]) {
  const personUuid = new Map<string, string>();
  for (const rows of chunk(byKey(gatherPersons(batch)), ROWS_PER_STATEMENT)) {
    // One JSON parameter per statement (jsonb_to_recordset) instead of thousands of bound values.
    const records = rows.map((p) => ({
      uuid: randomUUID(),
      domain_uuid: p.domainUuid,
      visitor_id: p.visitorId,
      attributes: { ...p.attrs, ...(p.visited.length ? { 'visited.url': p.visited } : {}) },
      email: p.email ?? null,
      phone: p.phone ?? null,
      name: p.name ?? null,
      timezone: p.timezone ?? null,
      first_seen: p.first.toISOString(),
      last_seen: p.last.toISOString(),
    }));
    // Attributes merge key by key, the most recent request's values winning (a batch can reach the database after a
    // newer one: overflow, replay after a crash); createdAt and origin are the earliest request's; visited.url
    // accumulates.
    const result = await queryRows<{ uuid: string; domain_uuid: string; visitor_id: string }>(
      db,
      sql`
      INSERT INTO persons AS p (uuid, domain_uuid, visitor_id, attributes, email, phone, name, timezone, first_seen,
                                last_seen)
      SELECT r.uuid, r.domain_uuid, r.visitor_id, r.attributes, r.email, r.phone, r.name, r.timezone, r.first_seen,
             r.last_seen
      FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(
        uuid uuid, domain_uuid uuid, visitor_id text, attributes jsonb, email text, phone text, name text,
        timezone text, first_seen timestamptz, last_seen timestamptz)
      ON CONFLICT (domain_uuid, visitor_id) DO UPDATE SET
        attributes = CASE WHEN excluded.last_seen >= p.last_seen
            THEN p.attributes || (excluded.attributes - 'createdAt' - 'origin' - 'visited.url')
            ELSE (excluded.attributes - 'createdAt' - 'origin' - 'visited.url') || p.attributes END
          || CASE WHEN excluded.first_seen < p.first_seen THEN jsonb_strip_nulls(jsonb_build_object(
            'createdAt', excluded.attributes -> 'createdAt', 'origin', excluded.attributes -> 'origin'))
            ELSE '{}'::jsonb END
          || CASE WHEN excluded.attributes ? 'visited.url' THEN jsonb_build_object('visited.url', (
            SELECT coalesce(jsonb_agg(v), '[]'::jsonb) FROM (
              SELECT DISTINCT v FROM jsonb_array_elements(
                coalesce(p.attributes -> 'visited.url', '[]'::jsonb) || (excluded.attributes -> 'visited.url')
              ) AS v LIMIT ${MAX_VISITED}
            ) AS visited
          )) ELSE '{}'::jsonb END,
        email = CASE WHEN excluded.last_seen >= p.last_seen THEN coalesce(excluded.email, p.email)
          ELSE coalesce(p.email, excluded.email) END,
        phone = CASE WHEN excluded.last_seen >= p.last_seen THEN coalesce(excluded.phone, p.phone)
          ELSE coalesce(p.phone, excluded.phone) END,
        name = CASE WHEN excluded.last_seen >= p.last_seen THEN coalesce(excluded.name, p.name)
          ELSE coalesce(p.name, excluded.name) END,
        timezone = CASE WHEN excluded.last_seen >= p.last_seen THEN coalesce(excluded.timezone, p.timezone)
          ELSE coalesce(p.timezone, excluded.timezone) END,
        first_seen = least(p.first_seen, excluded.first_seen),
        last_seen = greatest(p.last_seen, excluded.last_seen)
      RETURNING uuid, domain_uuid, visitor_id`,
    );
    for (const row of result) personUuid.set(`${row.domain_uuid}|${row.visitor_id}`, row.uuid);
  }
  return personUuid;
}
