import { GLOBAL_CONTROL_ARM } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { VisitorEvent } from './incoming.ts';
import { personKey } from './person-upsert.ts';
import { byKey } from './statements.ts';

/**
 * GCD reports (the tag's injector) bump their item's counters in dcm_stats, only for an item of the reporting
 * domain. The latest 'missing' report sets the item's broken-selector page; a later showing clears it.
 */
export async function recordDcm(db: Db, batch: VisitorEvent[], personUuid: Map<string, string>) {
  await recordDcmArms(db, batch, personUuid);
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
    else if (e.k === 'missing' && (!r.missing || at >= r.missing)) {
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

/**
 * A/B tests of GCD items (issue #25): the injector draws the arm in the browser (the shared assignArm over the
 * visitor id, which the tag knows; the engine draws over the person's uuid) and reports it as `a` with every showing
 * ('viewed'), click and held-out would-be showing ('held'). A person's first report of an item is their assignment
 * (experiment_assignments, counted once as `assigned` in daily_arm_stats); later ones move last_at, from which the
 * person's conversions count for the arm (attribution.ts, the same windows as the engine's). A showing counts as
 * sent and viewed. The domain's global control group ('global') is held out but, as in the engine, not assigned.
 * Only an item of the reporting domain that has an experiment takes them.
 */
async function recordDcmArms(db: Db, batch: VisitorEvent[], personUuid: Map<string, string>) {
  const rows: { m: string; d: string; p: string; a: string; at: string; v: number; c: number }[] = [];
  for (const item of batch) {
    const e = item.event;
    if (e.t !== 'dcm' || !e.a || e.a === GLOBAL_CONTROL_ARM || e.k === 'missing') continue;
    const p = personUuid.get(personKey(item));
    if (!p) continue;
    const at = item.receivedAt.toISOString();
    rows.push({ m: e.m, d: item.domainUuid, p, a: e.a, at, v: e.k === 'viewed' ? 1 : 0, c: e.k === 'clicked' ? 1 : 0 });
  }
  if (rows.length === 0) return;
  await db.execute(sql`
    WITH r AS (
      SELECT r.* FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(m uuid, d uuid, p uuid, a text, at timestamptz, v int, c int)
      JOIN momentums m ON m.uuid = r.m AND m.domain_uuid = r.d AND m.type = 'dcm' AND m.experiment IS NOT NULL),
    assigned AS (
      INSERT INTO experiment_assignments AS x (momentum_uuid, person_uuid, domain_uuid, arm, first_at, last_at)
      SELECT m, p, d, (array_agg(a ORDER BY at))[1], min(at), max(at) FROM r GROUP BY m, p, d ORDER BY m, p
      ON CONFLICT (momentum_uuid, person_uuid) DO UPDATE SET last_at = greatest(x.last_at, excluded.last_at)
      RETURNING x.momentum_uuid, x.domain_uuid, x.arm, x.first_at, (x.xmax = 0) AS fresh)
    INSERT INTO daily_arm_stats AS s (momentum_uuid, arm, day, domain_uuid, assigned, sent, viewed, clicked)
    SELECT y.m, y.a, (y.at AT TIME ZONE dm.timezone)::date, y.d, sum(y.assigned), sum(y.v), sum(y.v), sum(y.c)
    FROM (SELECT m, d, a, at, 0 AS assigned, v, c FROM r
          UNION ALL
          SELECT momentum_uuid, domain_uuid, arm, first_at, 1, 0, 0 FROM assigned WHERE fresh) y
    JOIN domains dm ON dm.uuid = y.d
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3
    ON CONFLICT (momentum_uuid, day, arm) DO UPDATE SET
      assigned = s.assigned + excluded.assigned, sent = s.sent + excluded.sent, viewed = s.viewed + excluded.viewed,
      clicked = s.clicked + excluded.clicked`);
}
