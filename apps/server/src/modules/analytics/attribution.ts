import { ATTRIBUTION_WINDOWS, journeyMessages } from '@impeto/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';

const CART_RULE_TTL_MS = 30_000;

/**
 * The person's delivery a conversion or cart access at `r.at` is credited to: the latest clicked within 7 days,
 * else the latest viewed within 1 day (README "Conversões"). `r` must have columns d (domain), p (person), at.
 */
const attributedDelivery = sql`
  SELECT a.id, a.momentum_uuid FROM deliveries a
  WHERE a.person_uuid = r.p AND a.domain_uuid = r.d
    AND ((a.clicked_at > r.at - make_interval(days => ${ATTRIBUTION_WINDOWS.clickedDays}) AND a.clicked_at <= r.at)
      OR (a.viewed_at > r.at - make_interval(days => ${ATTRIBUTION_WINDOWS.viewedDays}) AND a.viewed_at <= r.at))
  ORDER BY (a.clicked_at > r.at - make_interval(days => ${ATTRIBUTION_WINDOWS.clickedDays}) AND a.clicked_at <= r.at)
      IS TRUE DESC,
    coalesce(a.clicked_at, a.viewed_at) DESC
  LIMIT 1`;

/**
 * Adds rows `(momentum_uuid, domain_uuid, at, conversions, revenue_cents, cart_accesses)` to the per-momentum
 * daily counters (the day of `at` in the domain's time zone), grouped and ordered so concurrent statements lock
 * the counters in one order.
 */
const bumpAttributed = (rows: SQL) => sql`
  INSERT INTO daily_momentum_stats AS s (momentum_uuid, day, domain_uuid, conversions, revenue_cents, cart_accesses)
  SELECT x.momentum_uuid, (x.at AT TIME ZONE dm.timezone)::date, x.domain_uuid, sum(x.conversions),
    sum(x.revenue_cents), sum(x.cart_accesses)
  FROM (${rows}) AS x
  JOIN domains dm ON dm.uuid = x.domain_uuid
  GROUP BY 1, 2, 3
  ORDER BY 1, 2
  ON CONFLICT (momentum_uuid, day) DO UPDATE SET
    conversions = s.conversions + excluded.conversions,
    revenue_cents = s.revenue_cents + excluded.revenue_cents,
    cart_accesses = s.cart_accesses + excluded.cart_accesses`;

/**
 * Conversions per experiment arm (issue #25), as CTEs after `inserted` (the new conversions): a conversion counts
 * for every arm its person was assigned in a momentum (experiment_assignments, written by the send stage) from the
 * moment the message went out or, held out, would have (first_at) until the click window after the latest such
 * moment (last_at): clicked or not, so a control group's purchases count like the others'. The counters take each
 * conversion and its revenue; `converted` counts a person once per momentum (their first conversion there).
 */
const experimentConversions = sql`
  exposed AS (
    SELECT a.momentum_uuid, a.person_uuid, a.domain_uuid, a.arm, a.converted_at, i.ts, i.value_cents
    FROM inserted i JOIN experiment_assignments a ON a.person_uuid = i.person_uuid AND a.domain_uuid = i.domain_uuid
    WHERE a.first_at <= i.ts AND a.last_at > i.ts - make_interval(days => ${ATTRIBUTION_WINDOWS.clickedDays})),
  first_conversions AS (
    UPDATE experiment_assignments a SET converted_at = f.ts
    FROM (SELECT DISTINCT ON (momentum_uuid, person_uuid) momentum_uuid, person_uuid, ts FROM exposed
          WHERE converted_at IS NULL ORDER BY momentum_uuid, person_uuid, ts) f
    WHERE a.momentum_uuid = f.momentum_uuid AND a.person_uuid = f.person_uuid AND a.converted_at IS NULL
    RETURNING a.momentum_uuid, a.domain_uuid, a.arm, f.ts),
  arm_counted AS (
    INSERT INTO daily_arm_stats AS s (momentum_uuid, arm, day, domain_uuid, conversions, converted, revenue_cents)
    SELECT x.momentum_uuid, x.arm, (x.ts AT TIME ZONE dm.timezone)::date, x.domain_uuid, sum(x.conversions),
      sum(x.converted), sum(x.revenue_cents)
    FROM (SELECT momentum_uuid, domain_uuid, arm, ts, 1 AS conversions, 0 AS converted, value_cents AS revenue_cents
          FROM exposed
          UNION ALL
          SELECT momentum_uuid, domain_uuid, arm, ts, 0, 1, 0 FROM first_conversions) x
    JOIN domains dm ON dm.uuid = x.domain_uuid
    GROUP BY 1, 2, 3, 4
    ORDER BY 1, 2, 3
    ON CONFLICT (momentum_uuid, day, arm) DO UPDATE SET
      conversions = s.conversions + excluded.conversions, converted = s.converted + excluded.converted,
      revenue_cents = s.revenue_cents + excluded.revenue_cents)`;

/**
 * Journeys (issue #26) whose exit rules include conversion end at once for a buyer waiting for a step, in the
 * statement that records the conversion (a CTE after `inserted`); the journey stage checks again when a step is due.
 */
const journeyExits = sql`
  journey_exits AS (
    UPDATE journey_positions j SET state = 'exited', reason = ${journeyMessages.exitedConversion}, updated_at = i.ts
    FROM (SELECT person_uuid, domain_uuid, min(ts) AS ts FROM inserted GROUP BY 1, 2) i, momentums jm
    WHERE j.person_uuid = i.person_uuid AND j.domain_uuid = i.domain_uuid AND j.state = 'waiting'
      AND j.entered_at <= i.ts AND jm.uuid = j.momentum_uuid
      AND coalesce((jm.journey_exit ->> 'on_conversion')::boolean, true)),`;

/**
 * Attribution at storage time (DESIGN.md §12): after a batch is stored and its viewed/clicked reports applied,
 * conversions are recorded once per order (a repeated order_id is ignored by the unique key) and credited to the
 * person's latest clicked or viewed delivery; a page view matching the domain's cart rule is credited as the
 * delivery's cart access, once per delivery. Both move the per-momentum daily counters the widgets read. Safe to
 * run twice on the same events (a replayed batch): the keys make it idempotent.
 */
export function createAttribution(db: Db) {
  const cartRules = new Map<string, { rule: string; at: number }>();

  const cartRulesOf = async (domainUuids: string[]) => {
    const now = Date.now();
    const stale = domainUuids.filter((d) => (cartRules.get(d)?.at ?? 0) < now - CART_RULE_TTL_MS);
    if (stale.length) {
      const rows = await queryRows<{ uuid: string; cart_url: string }>(
        db,
        sql`SELECT uuid, cart_url FROM domains
            WHERE uuid IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(stale)}::jsonb))`,
      );
      for (const d of stale) cartRules.set(d, { rule: '', at: now });
      for (const r of rows) cartRules.set(r.uuid, { rule: r.cart_url, at: now });
    }
    return (d: string) => cartRules.get(d)?.rule ?? '';
  };

  const recordConversions = async (events: StoredEvent[]) => {
    const records = events.map((e) => {
      const orderId = typeof e.props?.order_id === 'string' ? e.props.order_id : '';
      const value = typeof e.props?.value === 'number' ? e.props.value : 0;
      return {
        d: e.domainUuid,
        p: e.personUuid,
        e: e.id,
        at: e.ts.toISOString(),
        k: orderId ? `order:${orderId}` : `event:${e.id}`,
        cents: Math.round(value * 100),
      };
    });
    await db.execute(sql`
      WITH r AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
          AS r(d uuid, p uuid, e bigint, at timestamptz, k text, cents bigint)),
      credited AS (
        SELECT r.*, t.id AS delivery_id, t.momentum_uuid FROM r LEFT JOIN LATERAL (${attributedDelivery}) t ON true),
      inserted AS (
        INSERT INTO conversions (domain_uuid, order_key, person_uuid, event_id, value_cents, delivery_id, momentum_uuid, ts)
        SELECT d, k, p, e, cents, delivery_id, momentum_uuid, at FROM credited ORDER BY d, k
        ON CONFLICT DO NOTHING
        RETURNING domain_uuid, momentum_uuid, person_uuid, ts, value_cents),
      ${journeyExits}
      ${experimentConversions}
      ${bumpAttributed(sql`SELECT momentum_uuid, domain_uuid, ts AS at, 1 AS conversions, value_cents AS revenue_cents,
        0 AS cart_accesses FROM inserted WHERE momentum_uuid IS NOT NULL`)}`);
  };

  const recordCartAccesses = async (events: StoredEvent[]) => {
    const ruleOf = await cartRulesOf([...new Set(events.map((e) => e.domainUuid))]);
    const matches = events.filter((e) => {
      const rule = ruleOf(e.domainUuid);
      return rule !== '' && e.url?.includes(rule);
    });
    if (matches.length === 0) return;
    const records = matches.map((e) => ({ d: e.domainUuid, p: e.personUuid, at: e.ts.toISOString() }));
    await db.execute(sql`
      WITH r AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(d uuid, p uuid, at timestamptz)),
      credited AS (
        SELECT DISTINCT ON (t.id) t.id, r.at FROM r JOIN LATERAL (${attributedDelivery}) t ON true ORDER BY t.id, r.at),
      updated AS (
        UPDATE deliveries d SET cart_at = c.at FROM credited c
        WHERE d.id = c.id AND d.cart_at IS NULL
        RETURNING d.momentum_uuid, d.domain_uuid, c.at)
      ${bumpAttributed(sql`SELECT momentum_uuid, domain_uuid, at, 0 AS conversions, 0 AS revenue_cents,
        1 AS cart_accesses FROM updated`)}`);
  };

  return {
    /** Called with each stored batch, after the engine applied its viewed/clicked reports. */
    async onEventsStored(events: StoredEvent[]) {
      const conversions = events.filter((e) => e.kind === 'conversion' && e.personUuid);
      if (conversions.length) await recordConversions(conversions);
      const pageviews = events.filter((e) => e.kind === 'pageview' && e.personUuid && e.url);
      if (pageviews.length) await recordCartAccesses(pageviews);
    },
    /** A domain's cart rule changed (in this process; others see it within 30 s). */
    forgetCartRule(domainUuid: string) {
      cartRules.delete(domainUuid);
    },
  };
}
export type Attribution = ReturnType<typeof createAttribution>;
