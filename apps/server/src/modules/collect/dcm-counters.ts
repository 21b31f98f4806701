import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { IncomingEvent } from './incoming.ts';
import { byKey } from './statements.ts';

/**
 * GCD reports (the tag's injector) bump their item's counters in dcm_stats, only for an item of the reporting
 * domain. The latest 'missing' report sets the item's broken-selector page; a later showing clears it.
 */
export async function recordDcm(db: Db, batch: IncomingEvent[]) {
  const items = new Map<
    string,
    {
      m: string;
      d: string;
      shown: number;
      clicked: number;
      page: string | null;
      missing: string | null;
      seen: string | null;
    }
  >();
  for (const item of batch) {
    const e = item.event;
    if (e.t !== 'dcm') continue;
    const key = `${item.domainUuid}|${e.m}`;
    let r = items.get(key);
    if (!r) {
      r = { m: e.m, d: item.domainUuid, shown: 0, clicked: 0, page: null, missing: null, seen: null };
      items.set(key, r);
    }
    const at = item.receivedAt.toISOString();
    if (e.k === 'viewed') {
      r.shown++;
      if (!r.seen || at > r.seen) r.seen = at;
    } else if (e.k === 'clicked') r.clicked++;
    else if (!r.missing || at >= r.missing) {
      r.missing = at;
      r.page = (e.u ?? '').slice(0, 2048);
    }
  }
  if (items.size === 0) return;
  const rows = byKey(items);
  const records = sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
    m uuid, d uuid, shown bigint, clicked bigint, page text, missing timestamptz, seen timestamptz)`;
  await db.execute(sql`
    INSERT INTO dcm_stats AS s (momentum_uuid, domain_uuid, shown, clicked, missing_page, missing_at)
    SELECT m.uuid, m.domain_uuid, r.shown, r.clicked, r.page, r.missing
    FROM ${records} JOIN momentums m ON m.uuid = r.m AND m.domain_uuid = r.d AND m.type = 'dcm'
    ON CONFLICT (momentum_uuid) DO UPDATE SET
      shown = s.shown + excluded.shown,
      clicked = s.clicked + excluded.clicked,
      missing_page = CASE WHEN excluded.missing_at IS NOT NULL AND (s.missing_at IS NULL OR excluded.missing_at >= s.missing_at)
        THEN excluded.missing_page ELSE s.missing_page END,
      missing_at = CASE WHEN excluded.missing_at IS NOT NULL AND (s.missing_at IS NULL OR excluded.missing_at >= s.missing_at)
        THEN excluded.missing_at ELSE s.missing_at END`);
  await db.execute(sql`
    UPDATE dcm_stats s SET missing_page = NULL, missing_at = NULL
    FROM ${records}
    WHERE s.momentum_uuid = r.m AND s.domain_uuid = r.d AND r.seen IS NOT NULL AND s.missing_at <= r.seen`);
}
