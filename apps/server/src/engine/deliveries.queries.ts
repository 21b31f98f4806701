import { randomUUID } from 'node:crypto';
import { GLOBAL_CONTROL_ARM, type MomentumTiming, type QuietHours } from '@impeto/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client.ts';
import type { DeliveryStatus } from '../db/schema.ts';
import { capFullUntil, WEEK_MS } from './timing.ts';

// SQL of the engine. Every instant comes from the engine's clock as a parameter, never from now(),
// so tests move time and the database agrees.

// Raw queries answer timestamps as Date on node-postgres and as text on PGlite: read them as Dates.
const toDate = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
const readMomentum = (m: DispatchMomentum): DispatchMomentum => ({
  ...m,
  activated_at: toDate(m.activated_at),
  scheduled_at: toDate(m.scheduled_at),
});

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
const uuidList = (ids: string[]) => sql`(SELECT value::uuid FROM jsonb_array_elements_text(${json(ids)}))`;

export interface NewDelivery {
  domainUuid: string;
  momentumUuid: string;
  personUuid: string;
  channelType: string;
  dedupeKey: string;
  triggerAt: Date;
  dueAt: Date;
  /** Skip when the person already has a delivery of this momentum waiting (repeat chains never stack). */
  unlessPending: boolean;
  /** Not to be sent: the row is written `skipped` with this reason (qualify.ts skippedDelivery). */
  skipReason?: string | null;
}

/**
 * Inserts what is new (ON CONFLICT on the dedupe key does nothing), queued or, with a skip reason, `skipped`, and
 * answers what was inserted.
 */
export async function insertDeliveries(db: Db, rows: NewDelivery[], now: Date) {
  if (rows.length === 0) return [];
  const records = rows.map((r) => ({
    id: randomUUID(),
    domain_uuid: r.domainUuid,
    momentum_uuid: r.momentumUuid,
    person_uuid: r.personUuid,
    channel_type: r.channelType,
    dedupe_key: r.dedupeKey,
    trigger_at: r.triggerAt.toISOString(),
    due_at: r.dueAt.toISOString(),
    unless_pending: r.unlessPending,
    skip_reason: r.skipReason ?? null,
  }));
  const insert = (tx: Db) =>
    queryRows<{ id: string; due_at: Date; status: DeliveryStatus }>(
      tx,
      sql`
    INSERT INTO deliveries (id, domain_uuid, momentum_uuid, person_uuid, channel_type, dedupe_key, status, error,
                            trigger_at, due_at, created_at, updated_at)
    SELECT r.id, r.domain_uuid, r.momentum_uuid, r.person_uuid, r.channel_type, r.dedupe_key,
           CASE WHEN r.skip_reason IS NULL THEN 'queued' ELSE 'skipped' END, r.skip_reason,
           r.trigger_at, r.due_at, ${now}, ${now}
    FROM jsonb_to_recordset(${json(records)}) AS r(id uuid, domain_uuid uuid, momentum_uuid uuid, person_uuid uuid,
         channel_type text, dedupe_key text, trigger_at timestamptz, due_at timestamptz, unless_pending boolean,
         skip_reason text)
    WHERE NOT r.unless_pending OR NOT EXISTS (
      SELECT 1 FROM deliveries x WHERE x.momentum_uuid = r.momentum_uuid AND x.person_uuid = r.person_uuid
        AND x.status IN ('queued', 'sending'))
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING id, due_at, status`,
    );
  // "No new chain while one waits" is a check then an insert: two batches of the same person matched at once
  // (concurrent ingest batches, several processes) would both pass it. A transaction lock per (momentum, person),
  // taken in key order, makes the second wait for the first's commit and then see its chain.
  const chains = [
    ...new Set(rows.filter((r) => r.unlessPending).map((r) => `${r.momentumUuid}:${r.personUuid}`)),
  ].sort();
  if (chains.length === 0) return insert(db);
  return db.transaction(async (tx) => {
    await tx.execute(sql`
      SELECT count(pg_advisory_xact_lock(hashtextextended(k, 0)))
      FROM (SELECT k FROM jsonb_array_elements_text(${json(chains)}) WITH ORDINALITY AS a(k, n) ORDER BY n) AS s`);
    return insert(tx as unknown as Db);
  });
}

/**
 * One page of a campaign or recurrence audience: persons of the domain past `after` (by uuid) who pass the filter,
 * each given the whole repeat chain, in one statement. A person for whom `skipReason` (a text expression over
 * `persons`) is not NULL gets instead one `skipped` row with that reason (the unreachable: qualify.ts
 * unreachableReasonSql; any other reason to hold persons out composes into the same expression), keyed per occurrence
 * apart from the chain, so a run again (a resumed campaign) still reaches one who has become reachable since. Safe to
 * run twice (dedupe keys). Answers the page's last person, its size, and the rows inserted queued and skipped.
 */
export async function fanOutPage(
  db: Db,
  input: {
    domainUuid: string;
    momentumUuid: string;
    channelType: string;
    occurrence: string;
    at: Date;
    offsets: number[];
    where: SQL;
    skipReason: SQL;
    after: string | null;
    limit: number;
    now: Date;
  },
) {
  const [row] = await queryRows<{ last: string | null; n: number; inserted: number; skipped: number }>(
    db,
    sql`
    WITH page AS (
      SELECT uuid, ${input.skipReason} AS skip FROM persons
      WHERE domain_uuid = ${input.domainUuid}::uuid
        AND (${input.after}::uuid IS NULL OR uuid > ${input.after}::uuid)
        AND ${input.where}
      ORDER BY uuid LIMIT ${input.limit}
    ), ins AS (
      INSERT INTO deliveries (id, domain_uuid, momentum_uuid, person_uuid, channel_type, dedupe_key, status, error,
                              trigger_at, due_at, created_at, updated_at)
      SELECT gen_random_uuid(), ${input.domainUuid}::uuid, ${input.momentumUuid}::uuid, page.uuid, ${input.channelType},
             ${input.momentumUuid} || ':' || page.uuid::text || ':' || ${input.occurrence} || ':'
               || CASE WHEN page.skip IS NULL THEN r.i::text ELSE 'skipped' END,
             CASE WHEN page.skip IS NULL THEN 'queued' ELSE 'skipped' END, page.skip,
             ${input.at}::timestamptz, ${input.at}::timestamptz + make_interval(secs => r.secs), ${input.now}, ${input.now}
      FROM page CROSS JOIN (
        SELECT (ordinality - 1)::int AS i, value::text::float8 AS secs
        FROM jsonb_array_elements(${json(input.offsets)}) WITH ORDINALITY
      ) AS r
      WHERE page.skip IS NULL OR r.i = 0
      ON CONFLICT (dedupe_key) DO NOTHING
      RETURNING status
    )
    SELECT (SELECT uuid::text FROM page ORDER BY uuid DESC LIMIT 1) AS last,
           (SELECT count(*) FROM page)::int AS n,
           (SELECT count(*) FROM ins WHERE status = 'queued')::int AS inserted,
           (SELECT count(*) FROM ins WHERE status = 'skipped')::int AS skipped`,
  );
  return {
    last: row?.last ?? null,
    n: Number(row?.n ?? 0),
    inserted: Number(row?.inserted ?? 0),
    skipped: Number(row?.skipped ?? 0),
  };
}

export interface ClaimedDelivery {
  id: string;
  domain_uuid: string;
  momentum_uuid: string;
  person_uuid: string;
  channel_type: string;
  attempts: number;
  trigger_at: Date;
  due_at: Date;
  /** The journey step (issue #26): 0 is the momentum's own message; branch 'otherwise' is a split's other one. */
  step: number;
  branch: string | null;
}

/**
 * Claims due deliveries for this worker (SKIP LOCKED: many workers never take the same row), oldest due first.
 * The plan is pinned to the due index's order: while a campaign's 100,000 rows are being sent the table's
 * statistics are stale (a few hundred rows estimated), and PostgreSQL chose a bitmap scan of every queued row
 * sorted on disk to take 500 (66 ms a claim, growing with the queue) instead of reading 500 index entries (1 ms).
 */
export const claimDue = (db: Db, now: Date, limit: number) =>
  db
    .transaction(async (tx) => {
      await tx.execute(
        sql`SELECT set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)`,
      );
      return queryRows<ClaimedDelivery>(
        tx as unknown as Db,
        sql`
        UPDATE deliveries d SET status = 'sending', attempts = d.attempts + 1, locked_at = ${now}, updated_at = ${now}
        WHERE d.id IN (
          SELECT id FROM deliveries WHERE status = 'queued' AND due_at <= ${now}
          ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.domain_uuid, d.momentum_uuid, d.person_uuid, d.channel_type, d.attempts, d.trigger_at,
          d.due_at, d.step, d.branch`,
      );
    })
    .then((rows) => rows.map((r) => ({ ...r, trigger_at: toDate(r.trigger_at)!, due_at: toDate(r.due_at)! })));

export interface Outcome {
  id: string;
  status: DeliveryStatus;
  error?: string | null;
  sentAt?: Date | null;
  /** A new due time (a retry, or the next worktime opening). */
  dueAt?: Date | null;
  /** Give the attempt back (a worktime deferral is not a failed attempt). */
  refund?: boolean;
  /** The experiment arm the person was assigned (engine/arm.ts), recorded on the delivery. */
  arm?: string | null;
}

/**
 * Records outcomes in one statement. A delivery that ends without being sent frees its dedupe key
 * (suffixed with its id), so a later trigger may reach the same person again.
 */
export async function recordOutcomes(db: Db, outcomes: Outcome[], now: Date) {
  if (outcomes.length === 0) return;
  const records = outcomes.map((o) => ({
    id: o.id,
    status: o.status,
    error: o.error ?? null,
    sent_at: o.sentAt?.toISOString() ?? null,
    due_at: o.dueAt?.toISOString() ?? null,
    refund: o.refund ?? false,
    arm: o.arm ?? null,
  }));
  // The sent counter of analytics moves in the same statement, once per delivery (only a 'sending' row is updated).
  await db.execute(sql`
    WITH updated AS (
      UPDATE deliveries d SET
        status = CASE WHEN r.status = 'sent' AND d.clicked_at IS NOT NULL THEN 'clicked'
                      WHEN r.status = 'sent' AND d.viewed_at IS NOT NULL THEN 'viewed' ELSE r.status END,
        error = r.error,
        -- sent_at of a delivery still sending is its frequency-cap reservation: kept only if it went out.
        sent_at = CASE WHEN r.status = 'sent' THEN coalesce(r.sent_at, d.sent_at) ELSE NULL END,
        due_at = coalesce(r.due_at, d.due_at),
        attempts = CASE WHEN r.refund THEN greatest(d.attempts - 1, 0) ELSE d.attempts END,
        locked_at = NULL,
        dedupe_key = CASE WHEN r.status IN ('cancelled', 'expired', 'failed', 'skipped')
                            AND d.dedupe_key NOT LIKE '%:freed:%'
                          THEN d.dedupe_key || ':freed:' || d.id::text ELSE d.dedupe_key END,
        arm = coalesce(r.arm, d.arm),
        updated_at = ${now}
      FROM jsonb_to_recordset(${json(records)}) AS r(id uuid, status text, error text, sent_at timestamptz,
           due_at timestamptz, refund boolean, arm text)
      WHERE d.id = r.id AND d.status = 'sending'
      RETURNING d.momentum_uuid, d.domain_uuid, d.person_uuid, d.sent_at, r.status AS outcome, d.arm, d.step),
    -- A journey's first message went out (issue #26): the person enters it, waiting for step 1 (engine/journey.ts),
    -- in the statement that records the send; one active journey per (momentum, person).
    entered AS (
      INSERT INTO journey_positions (id, domain_uuid, momentum_uuid, person_uuid, step, due_at, state, entered_at,
                                     since_at, updated_at)
      SELECT gen_random_uuid(), u.domain_uuid, u.momentum_uuid, u.person_uuid, 1,
        u.sent_at + make_interval(mins => (jm.steps #>> '{0,wait,amount}')::int
          * CASE jm.steps #>> '{0,wait,unit}' WHEN 'days' THEN 1440 WHEN 'hours' THEN 60 ELSE 1 END),
        'waiting', u.sent_at, u.sent_at, ${now}::timestamptz
      FROM updated u JOIN momentums jm ON jm.uuid = u.momentum_uuid
      WHERE u.outcome = 'sent' AND u.step = 0 AND u.person_uuid IS NOT NULL
        AND CASE WHEN jsonb_typeof(jm.steps) = 'array' THEN jsonb_array_length(jm.steps) > 0 ELSE false END
      ON CONFLICT (momentum_uuid, person_uuid) WHERE state IN ('waiting', 'running') DO NOTHING),
    -- A person's first arm decision in a momentum is their assignment (counted once); later ones move last_at,
    -- from which conversions are credited to the arm (attribution.ts). Only the first message's (step 0): a journey
    -- step's A/B arm is counted by the journey report from the delivery itself, not in the momentum's experiment.
    assigned AS (
      INSERT INTO experiment_assignments AS a (momentum_uuid, person_uuid, domain_uuid, arm, first_at, last_at)
      SELECT DISTINCT ON (momentum_uuid, person_uuid) momentum_uuid, person_uuid, domain_uuid, arm, ${now}::timestamptz,
        ${now}::timestamptz
      FROM updated WHERE arm IS NOT NULL AND arm <> ${GLOBAL_CONTROL_ARM} AND person_uuid IS NOT NULL AND step = 0
      ORDER BY momentum_uuid, person_uuid
      ON CONFLICT (momentum_uuid, person_uuid) DO UPDATE SET last_at = greatest(a.last_at, excluded.last_at)
      RETURNING a.momentum_uuid, a.domain_uuid, a.arm, a.first_at, (a.xmax = 0) AS fresh),
    arm_counted AS (
      ${bumpArmStats(sql`
        SELECT momentum_uuid, domain_uuid, arm, first_at AS at, 1 AS assigned, 0 AS sent, 0 AS viewed, 0 AS clicked
        FROM assigned WHERE fresh
        UNION ALL
        SELECT momentum_uuid, domain_uuid, arm, sent_at, 0, 1, 0, 0
        FROM updated WHERE outcome = 'sent' AND arm IS NOT NULL AND arm <> ${GLOBAL_CONTROL_ARM} AND step = 0`)})
    ${bumpMomentumStats(sql`SELECT momentum_uuid, domain_uuid, sent_at AS at, 1 AS sent, 0 AS viewed, 0 AS clicked
      FROM updated WHERE outcome = 'sent'`)}`);
}

/**
 * INSERT … ON CONFLICT that adds rows `(momentum_uuid, domain_uuid, at, sent, viewed, clicked)` to the per-momentum
 * daily counters, the day being `at` in the domain's time zone; rows are grouped and ordered so concurrent
 * statements lock the counters in the same order.
 */
const bumpMomentumStats = (rows: SQL) => sql`
  INSERT INTO daily_momentum_stats AS s (momentum_uuid, day, domain_uuid, sent, viewed, clicked)
  SELECT x.momentum_uuid, (x.at AT TIME ZONE dm.timezone)::date, x.domain_uuid, sum(x.sent), sum(x.viewed),
    sum(x.clicked)
  FROM (${rows}) AS x
  JOIN domains dm ON dm.uuid = x.domain_uuid
  GROUP BY 1, 2, 3
  ORDER BY 1, 2
  ON CONFLICT (momentum_uuid, day) DO UPDATE SET
    sent = s.sent + excluded.sent, viewed = s.viewed + excluded.viewed, clicked = s.clicked + excluded.clicked`;

/**
 * The per-arm daily counters of experiments (issue #25), beside the per-momentum ones: rows `(momentum_uuid,
 * domain_uuid, arm, at, assigned, sent, viewed, clicked)`, the day being `at` in the domain's time zone. The experiment
 * report reads these (conversions are added by attribution.ts).
 */
const bumpArmStats = (rows: SQL) => sql`
  INSERT INTO daily_arm_stats AS s (momentum_uuid, arm, day, domain_uuid, assigned, sent, viewed, clicked)
  SELECT x.momentum_uuid, x.arm, (x.at AT TIME ZONE dm.timezone)::date, x.domain_uuid, sum(x.assigned), sum(x.sent),
    sum(x.viewed), sum(x.clicked)
  FROM (${rows}) AS x
  JOIN domains dm ON dm.uuid = x.domain_uuid
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3
  ON CONFLICT (momentum_uuid, day, arm) DO UPDATE SET
    assigned = s.assigned + excluded.assigned, sent = s.sent + excluded.sent, viewed = s.viewed + excluded.viewed,
    clicked = s.clicked + excluded.clicked`;

/** The worker still sending these: pushes their lease forward. */
export const renewLease = (db: Db, ids: string[], now: Date) =>
  db.execute(sql`UPDATE deliveries SET locked_at = ${now} WHERE id IN ${uuidList(ids)} AND status = 'sending'`);

/** Hands back deliveries whose worker died while sending (older than the lease). */
export const requeueStale = async (db: Db, now: Date, leaseSeconds: number) =>
  (
    await queryRows<{ id: string }>(
      db,
      sql`
      UPDATE deliveries SET status = 'queued', locked_at = NULL, updated_at = ${now}
      WHERE status = 'sending' AND locked_at < ${new Date(now.getTime() - leaseSeconds * 1000)}
      RETURNING id`,
    )
  ).length;

/** Cancels what a momentum still has waiting (paused, finished, removed). */
export const cancelWaiting = (db: Db, momentumUuid: string, reason: string, now: Date) =>
  db.execute(sql`
    UPDATE deliveries SET status = 'cancelled', error = ${reason}, updated_at = ${now},
      dedupe_key = dedupe_key || ':freed:' || id::text
    WHERE momentum_uuid = ${momentumUuid}::uuid AND status = 'queued'`);

/** An abandon's goal reached: the person's waiting deliveries of that momentum triggered before it are cancelled. */
export async function cancelForGoal(
  db: Db,
  goals: { momentumUuid: string; personUuid: string; at: Date }[],
  reason: string,
  now: Date,
) {
  if (goals.length === 0) return;
  const records = goals.map((g) => ({ m: g.momentumUuid, p: g.personUuid, at: g.at.toISOString() }));
  await db.execute(sql`
    UPDATE deliveries d SET status = 'cancelled', error = ${reason}, updated_at = ${now},
      dedupe_key = d.dedupe_key || ':freed:' || d.id::text
    FROM jsonb_to_recordset(${json(records)}) AS r(m uuid, p uuid, at timestamptz)
    WHERE d.momentum_uuid = r.m AND d.person_uuid = r.p AND d.status = 'queued' AND d.trigger_at < r.at`);
}

/** Of these persons, those `reason` (a text expression over `persons`, qualify.ts) holds out, with the reason. */
export const unreachablePersons = (db: Db, personUuids: string[], reason: SQL) =>
  queryRows<{ uuid: string; reason: string }>(
    db,
    sql`SELECT uuid, reason FROM (SELECT uuid, ${reason} AS reason FROM persons WHERE uuid IN ${uuidList(personUuids)}) p
        WHERE reason IS NOT NULL`,
  );

export interface DispatchPerson {
  uuid: string;
  visitor_id: string;
  email: string | null;
  phone: string | null;
  push_subscription: { endpoint: string; keys: { p256dh: string; auth: string } } | null;
  push_status: string | null;
  attributes: Record<string, unknown>;
  /** The browser's IANA zone (issue #27), null when never reported. */
  timezone: string | null;
}

export const personsByUuid = (db: Db, uuids: string[]) =>
  queryRows<DispatchPerson>(
    db,
    sql`SELECT uuid, visitor_id, email, phone, push_subscription, push_status, attributes, timezone
        FROM persons WHERE uuid IN ${uuidList(uuids)}`,
  );

export interface DispatchMomentum {
  uuid: string;
  domain_uuid: string;
  company_uuid: string;
  type: 'momentum' | 'campaign' | 'dcm';
  status: string;
  version: number;
  momentums: unknown[];
  worktime: Record<string, unknown> | null;
  activated_at: Date | null;
  scheduled_at: Date | null;
  channel_uuid: string | null;
  /** The domain's zone (domains.timezone): its schedules, worktime and recurrences read this clock (issue #27). */
  time_zone: string;
  /** Timing options (issue #27): null is the spec's momentum. */
  timing?: MomentumTiming | null;
  /** The domain's quiet hours and own holidays (issue #27). */
  quiet_hours?: QuietHours | null;
  extra_holidays?: string[];
  /** A/B variants and control group (issue #25), as stored; read by the send stage (momentumsByUuid). */
  experiment?: unknown;
  /** The domain's global control group, 0–20 % (momentumsByUuid). */
  control_group_percent?: number;
  /** Send the winner (issue #25): when the decision is due, then the decision (momentumsByUuid). */
  experiment_decision?: unknown;
  /** Journey steps and exit rules (issue #26), as stored (momentumsByUuid); null without a journey. */
  steps?: unknown;
  journey_exit?: unknown;
}

export const momentumsByUuid = (db: Db, uuids: string[]) =>
  queryRows<DispatchMomentum>(
    db,
    sql`SELECT m.uuid, m.domain_uuid, m.company_uuid, m.type, m.status, m.version, m.momentums, m.worktime,
               m.activated_at, m.scheduled_at, m.channel_uuid, dm.timezone AS time_zone, m.experiment,
               m.experiment_decision, dm.control_group_percent, m.timing, dm.quiet_hours, dm.extra_holidays, m.steps,
               m.journey_exit
        FROM momentums m JOIN domains dm ON dm.uuid = m.domain_uuid
        WHERE m.uuid IN ${uuidList(uuids)}`,
  ).then((rows) => rows.map(readMomentum));

export const activeTriggeredMomentums = (db: Db, domainUuid: string) =>
  queryRows<DispatchMomentum>(
    db,
    sql`SELECT m.uuid, m.domain_uuid, m.company_uuid, m.type, m.status, m.version, m.momentums, m.worktime,
               m.activated_at, m.scheduled_at, m.channel_uuid, dm.timezone AS time_zone, m.timing, dm.quiet_hours,
               dm.extra_holidays
        FROM momentums m JOIN domains dm ON dm.uuid = m.domain_uuid
        WHERE m.domain_uuid = ${domainUuid}::uuid AND m.status = 'Active' AND m.type IN ('momentum', 'dcm')`,
  ).then((rows) => rows.map(readMomentum));

export interface DispatchDomain {
  uuid: string;
  domain_root: string;
  vapid_public: string;
  vapid_private: string;
}

export const domainsByUuid = (db: Db, uuids: string[]) =>
  queryRows<DispatchDomain>(
    db,
    sql`SELECT uuid, domain_root, vapid_public, vapid_private FROM domains WHERE uuid IN ${uuidList(uuids)}`,
  );

/** Pages the person visited since `since` (an abandon's goal check at send time). */
export const pagesSince = (db: Db, personUuid: string, since: Date) =>
  queryRows<{ url: string }>(
    db,
    sql`SELECT url FROM events WHERE person_uuid = ${personUuid}::uuid AND kind = 'pageview' AND ts > ${since}
        AND url IS NOT NULL ORDER BY ts LIMIT 1000`,
  );

/**
 * After a send: the person's notified.* attributes (filters use them), viewed/clicked false until reported.
 * The batch is grouped by person once (a correlated subquery read the whole batch again for every person).
 */
export async function markNotified(db: Db, sent: { personUuid: string; momentumUuid: string }[]) {
  if (sent.length === 0) return;
  const records = sent.map((s) => ({ p: s.personUuid, m: s.momentumUuid }));
  await db.execute(sql`
    WITH r AS (
      SELECT x.p, jsonb_agg(to_jsonb(x.m)) AS ms
      FROM jsonb_to_recordset(${json(records)}) AS x(p uuid, m text)
      GROUP BY x.p)
    UPDATE persons p SET attributes = p.attributes
      || jsonb_build_object(
           'notified.viewed', coalesce(p.attributes -> 'notified.viewed', 'false'::jsonb),
           'notified.clicked', coalesce(p.attributes -> 'notified.clicked', 'false'::jsonb),
           'notified.momentum_uuid', (
             SELECT jsonb_agg(DISTINCT v) FROM jsonb_array_elements(
               CASE WHEN jsonb_typeof(p.attributes -> 'notified.momentum_uuid') = 'array'
                    THEN p.attributes -> 'notified.momentum_uuid' ELSE '[]'::jsonb END || r.ms) AS v))
    FROM r WHERE p.uuid = r.p`);
}

export interface Report {
  deliveryId: string;
  domainUuid: string;
  clicked: boolean;
  at: Date;
  eventIds: number[];
}

/**
 * The service worker's and the tag's viewed/clicked reports: deliveries move forward (a click implies a
 * view), the person's notified.viewed/clicked turn true, and the reports' events get their person.
 */
export async function applyReports(db: Db, reports: Report[], now: Date) {
  if (reports.length === 0) return 0;
  const records = reports.map((r) => ({
    id: r.deliveryId,
    d: r.domainUuid,
    clicked: r.clicked,
    at: r.at.toISOString(),
  }));
  // The report's old timestamps (locked) tell whether this is the delivery's first view or click: the analytics
  // counters move once per delivery, in the same statement.
  const updated = await queryRows<{ id: string; person_uuid: string; clicked: boolean }>(
    db,
    sql`
    WITH r AS (
      SELECT x.id, x.d, x.clicked, x.at, o.viewed_at AS old_viewed, o.clicked_at AS old_clicked
      FROM jsonb_to_recordset(${json(records)}) AS x(id uuid, d uuid, clicked boolean, at timestamptz)
      JOIN deliveries o ON o.id = x.id AND o.domain_uuid = x.d
      ORDER BY x.id
      FOR UPDATE OF o),
    updated AS (
      UPDATE deliveries d SET
        viewed_at = coalesce(d.viewed_at, r.at),
        clicked_at = CASE WHEN r.clicked THEN coalesce(d.clicked_at, r.at) ELSE d.clicked_at END,
        -- A report may beat the send pass's own record (still 'sending'): the timestamps are kept and
        -- recordOutcomes turns 'sent' into viewed/clicked from them.
        status = CASE WHEN r.clicked AND d.status IN ('sent', 'viewed') THEN 'clicked'
                      WHEN d.status = 'sent' THEN 'viewed' ELSE d.status END,
        updated_at = ${now}
      FROM r
      WHERE d.id = r.id
      RETURNING d.id, d.person_uuid, r.clicked, d.momentum_uuid, d.domain_uuid, r.at, d.arm, d.step,
        (r.old_viewed IS NULL)::int AS new_view, (r.clicked AND r.old_clicked IS NULL)::int AS new_click),
    arm_counted AS (
      ${bumpArmStats(sql`SELECT momentum_uuid, domain_uuid, arm, at, 0 AS assigned, 0 AS sent, new_view AS viewed,
        new_click AS clicked FROM updated
        WHERE new_view + new_click > 0 AND arm IS NOT NULL AND arm <> ${GLOBAL_CONTROL_ARM} AND step = 0`)}),
    counted AS (
      ${bumpMomentumStats(sql`SELECT momentum_uuid, domain_uuid, at, 0 AS sent, new_view AS viewed, new_click AS clicked
        FROM updated WHERE new_view + new_click > 0`)})
    SELECT id, person_uuid, clicked FROM updated`,
  );
  if (updated.length === 0) return 0;
  const byPerson = new Map<string, boolean>();
  for (const u of updated) byPerson.set(u.person_uuid, (byPerson.get(u.person_uuid) ?? false) || u.clicked);
  await db.execute(sql`
    UPDATE persons p SET attributes = p.attributes || jsonb_build_object('notified.viewed', true)
      || CASE WHEN r.clicked THEN jsonb_build_object('notified.clicked', true) ELSE '{}'::jsonb END
    FROM jsonb_to_recordset(${json([...byPerson].map(([p, clicked]) => ({ p, clicked })))}) AS r(p uuid, clicked boolean)
    WHERE p.uuid = r.p`);
  const personOf = new Map(updated.map((u) => [u.id, u.person_uuid]));
  const events = reports.flatMap((r) =>
    personOf.has(r.deliveryId) ? r.eventIds.map((id) => ({ id, p: personOf.get(r.deliveryId)! })) : [],
  );
  if (events.length) {
    await db.execute(sql`
      UPDATE events e SET person_uuid = r.p
      FROM jsonb_to_recordset(${json(events)}) AS r(id bigint, p uuid)
      WHERE e.id = r.id AND e.person_uuid IS NULL`);
  }
  return updated.length;
}

/** On-site messages waiting for a visitor: taken once (deleted), expired ones dropped. */
export const takeOnsite = (db: Db, domainUuid: string, visitorId: string, now: Date) =>
  queryRows<{ payload: Record<string, unknown>; expires_at: Date }>(
    db,
    sql`
    DELETE FROM onsite_queue q USING persons p
    WHERE q.person_uuid = p.uuid AND p.domain_uuid = ${domainUuid}::uuid AND p.visitor_id = ${visitorId}
    RETURNING q.payload, q.expires_at`,
  ).then((rows) => rows.filter((r) => new Date(r.expires_at) > now).map((r) => r.payload));

/** The channel rows (credentials sealed) of these (domain, channel type) pairs, active ones only. */
export const channelsFor = (db: Db, pairs: { domainUuid: string; channelType: string }[]) =>
  pairs.length === 0
    ? Promise.resolve([])
    : queryRows<{
        uuid: string;
        domain_uuid: string;
        channel_type: string;
        properties: Record<string, string>;
        secrets: string | null;
        refused_at: Date | null;
        refused_reason: string | null;
      }>(
        db,
        sql`SELECT c.uuid, c.domain_uuid, c.channel_type, c.properties, c.secrets, c.refused_at, c.refused_reason
            FROM channels c JOIN domains d ON d.uuid = c.domain_uuid
            JOIN jsonb_to_recordset(${json(pairs)}) AS p("domainUuid" uuid, "channelType" text)
              ON p."domainUuid" = c.domain_uuid AND p."channelType" = c.channel_type
            WHERE c.active AND d.removed_at IS NULL`,
      );

/** The provider refused the channel's credentials: the dashboard shows it until they are edited. */
export const markChannelRefused = (db: Db, channelUuid: string, reason: string, now: Date) =>
  db.execute(sql`
    UPDATE channels SET refused_at = ${now}, refused_reason = ${reason}
    WHERE uuid = ${channelUuid}::uuid AND refused_at IS NULL`);

export const domainCaps = (db: Db, uuids: string[]) =>
  queryRows<{ uuid: string; frequency_cap_day: number | null; frequency_cap_week: number | null }>(
    db,
    sql`SELECT uuid, frequency_cap_day, frequency_cap_week FROM domains
        WHERE uuid IN ${uuidList(uuids)} AND (frequency_cap_day IS NOT NULL OR frequency_cap_week IS NOT NULL)`,
  );

/**
 * The frequency cap: may this delivery go out now? Under a transaction lock per person (two workers sending to
 * the same person serialise here), counts the person's messages of the last 24 h and 7 days, sent or being sent
 * (a delivery being sent holds its slot in `sent_at` until its outcome is recorded), and reserves the slot when
 * there is room. Otherwise answers when the oldest counted message leaves the window.
 */
export async function reserveCapSlot(
  db: Db,
  input: { deliveryId: string; personUuid: string; now: Date; perDay: number | null; perWeek: number | null },
): Promise<{ ok: true } | { ok: false; nextAt: Date }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`cap:${input.personUuid}`}, 0))`);
    const rows = await queryRows<{ sent_at: string | Date }>(
      tx as unknown as Db,
      sql`SELECT sent_at FROM deliveries
          WHERE person_uuid = ${input.personUuid}::uuid AND sent_at > ${new Date(input.now.getTime() - WEEK_MS)}
            AND status IN ('sending', 'sent', 'viewed', 'clicked') AND id <> ${input.deliveryId}::uuid
          ORDER BY sent_at`,
    );
    const times = rows.map((r) => new Date(r.sent_at).getTime());
    // The decision itself is timing.ts's (the simulation asks it too).
    const nextAt = capFullUntil(times, input.now, input.perDay, input.perWeek);
    if (nextAt) return { ok: false as const, nextAt };
    await tx.execute(sql`UPDATE deliveries SET sent_at = ${input.now} WHERE id = ${input.deliveryId}::uuid`);
    return { ok: true as const };
  });
}

/** A scheduled item's instant came: Paused → Active, only if it still waits for that very schedule. */
export const activateScheduled = (db: Db, momentumUuid: string, scheduledAt: Date, now: Date) =>
  db.execute(sql`
    UPDATE momentums SET status = 'Active', scheduled_at = NULL, activated_at = ${now},
      finished_at = NULL, version = version + 1, updated_at = ${now}
    WHERE uuid = ${momentumUuid}::uuid AND status = 'Paused' AND scheduled_at = ${scheduledAt}`);

/** The finish date came: Active → Done. */
export const finishActive = (db: Db, momentumUuid: string, now: Date) =>
  db.execute(sql`
    UPDATE momentums SET status = 'Done', finished_at = ${now}, version = version + 1,
      updated_at = ${now}
    WHERE uuid = ${momentumUuid}::uuid AND status = 'Active'`);

/** On-site messages of a momentum that visitors have not taken yet (it stopped). */
export const dropOnsiteOf = (db: Db, momentumUuid: string) =>
  db.execute(sql`
    DELETE FROM onsite_queue WHERE delivery_id IN (SELECT id FROM deliveries WHERE momentum_uuid = ${momentumUuid}::uuid)`);

/** NOTIFY the engine's other processes (PostgreSQL only): a momentum changed, or deliveries are due. */
export const notifyEngine = (db: Db, channel: 'impeto_momentums' | 'impeto_deliveries', payload: string) =>
  db.execute(sql`SELECT pg_notify(${channel}, ${payload})`);

/** A push service said these subscriptions are gone (404/410): the persons opted out, with an opt-out event. */
export async function markPushGone(db: Db, personUuids: string[], now: Date) {
  const ids = uuidList(personUuids);
  await db.execute(sql`UPDATE persons SET push_status = 'unsubscribed' WHERE uuid IN ${ids}`);
  await db.execute(sql`
    INSERT INTO events (domain_uuid, person_uuid, kind, props, device, ts)
    SELECT domain_uuid, uuid, 'optout', '{"reason":"gone"}'::jsonb, NULL, ${now}
    FROM persons WHERE uuid IN ${ids}`);
}
