import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { DcmItemRow } from './dcm.rules.ts';

// The notification dispatcher's items are the engine's (web push), not the tag's.
const placed = sql`NOT m.momentums @> '[{"type":"dispatcher","values":[{"dispatcher_type":"notification"}]}]'::jsonb`;

/**
 * A short fingerprint of what the domain's tag rules are made of (its active GCD items and their versions, and
 * whether the domain is verified), or null when it has none: /t/config hands it to the loader, and it names the
 * cached rules file. Every change of an item bumps its version, so the fingerprint changes with the rules.
 */
export const rulesRevision = async (db: Db, domainUuid: string, verified: boolean) =>
  (
    await queryRows<{ rev: string | null }>(
      db,
      sql`SELECT left(md5(${verified ? 'v' : 'u'} || max(d.control_group_percent)::text || ';'
            || string_agg(m.uuid::text || ':' || m.version::text, ',' ORDER BY m.uuid)), 16) AS rev
          FROM momentums m JOIN domains d ON d.uuid = m.domain_uuid
          WHERE m.domain_uuid = ${domainUuid}::uuid AND m.type = 'dcm' AND m.status = 'Active' AND ${placed}`,
    )
  )[0]?.rev ?? null;

export const activeItems = (db: Db, domainUuid: string) =>
  queryRows<DcmItemRow>(
    db,
    sql`SELECT m.uuid, m.momentums, m.worktime, c.time_zone, m.experiment, d.control_group_percent
        FROM momentums m JOIN companies c ON c.uuid = m.company_uuid JOIN domains d ON d.uuid = m.domain_uuid
        WHERE m.domain_uuid = ${domainUuid}::uuid AND m.type = 'dcm' AND m.status = 'Active' AND ${placed}
        ORDER BY m.created_at, m.uuid`,
  );

/** One visitor's stored attributes (only `keys`), or null for a visitor not stored yet. */
export const visitorAttributes = async (db: Db, domainUuid: string, visitorId: string, keys: string[]) =>
  (
    await queryRows<{ attributes: Record<string, unknown> }>(
      db,
      sql`SELECT (SELECT coalesce(jsonb_object_agg(a.key, a.value), '{}'::jsonb) FROM jsonb_each(p.attributes) AS a
                  WHERE a.key IN (SELECT jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))) AS attributes
          FROM persons p WHERE p.domain_uuid = ${domainUuid}::uuid AND p.visitor_id = ${visitorId}`,
    )
  )[0]?.attributes ?? null;

/** The person of a visitor, or null for a visitor not stored yet. */
export const visitorPersonUuid = async (db: Db, domainUuid: string, visitorId: string) =>
  (
    await queryRows<{ uuid: string }>(
      db,
      sql`SELECT uuid FROM persons WHERE domain_uuid = ${domainUuid}::uuid AND visitor_id = ${visitorId}`,
    )
  )[0]?.uuid ?? null;

export interface DcmStatsRow {
  momentum_uuid: string;
  shown: number | string;
  clicked: number | string;
  missing_page: string | null;
  missing_at: Date | string | null;
}

/** The counters of a company's GCD items on one domain. */
export const statsForDomain = (db: Db, companyUuid: string, domainUuid: string) =>
  queryRows<DcmStatsRow>(
    db,
    sql`SELECT s.momentum_uuid, s.shown, s.clicked, s.missing_page, s.missing_at
        FROM dcm_stats s JOIN momentums m ON m.uuid = s.momentum_uuid
        WHERE m.company_uuid = ${companyUuid}::uuid AND m.domain_uuid = ${domainUuid}::uuid AND s.domain_uuid = ${domainUuid}::uuid`,
  );
