import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client.ts';

// SQL of the journey stage (issue #26, journey.ts). Every instant comes from the engine's clock as a parameter.

const toDate = (v: unknown) => new Date(v as string);
const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

export interface ClaimedPosition {
  id: string;
  domain_uuid: string;
  momentum_uuid: string;
  person_uuid: string;
  /** The step to run now, 1..n. */
  step: number;
  entered_at: Date;
  since_at: Date;
  locked_at: Date;
}

/**
 * Claims due positions of active momentums (waiting → running, SKIP LOCKED: workers never take the same row), oldest
 * due first. A paused momentum's positions stay waiting: they run when it is started again.
 */
export const claimDuePositions = (db: Db, now: Date, limit: number) =>
  queryRows<ClaimedPosition>(
    db,
    sql`
    UPDATE journey_positions j SET state = 'running', locked_at = ${now}, attempts = j.attempts + 1, updated_at = ${now}
    WHERE j.id IN (
      SELECT p.id FROM journey_positions p JOIN momentums m ON m.uuid = p.momentum_uuid
      WHERE p.state = 'waiting' AND p.due_at <= ${now} AND m.status = 'Active'
      ORDER BY p.due_at LIMIT ${limit} FOR UPDATE OF p SKIP LOCKED)
    RETURNING j.id, j.domain_uuid, j.momentum_uuid, j.person_uuid, j.step, j.entered_at, j.since_at, j.locked_at`,
  ).then((rows) =>
    rows.map((r) => ({
      ...r,
      entered_at: toDate(r.entered_at),
      since_at: toDate(r.since_at),
      locked_at: toDate(r.locked_at),
    })),
  );

/** Hands back positions whose worker died while running them (older than the lease). */
export const requeueStalePositions = async (db: Db, now: Date, leaseSeconds: number) =>
  (
    await queryRows<{ id: string }>(
      db,
      sql`
      UPDATE journey_positions SET state = 'waiting', locked_at = NULL, updated_at = ${now}
      WHERE state = 'running' AND locked_at < ${new Date(now.getTime() - leaseSeconds * 1000)}
      RETURNING id`,
    )
  ).length;

/** What a position's exit rules and condition read of what the person did (one statement per batch). */
export interface PositionFacts {
  id: string;
  /** A conversion since the person entered the journey. */
  converted_entered: boolean;
  /** A conversion since the previous step. */
  converted_since: boolean;
  /** The previous step's message (the person's latest delivery of that step) was clicked. */
  clicked_previous: boolean;
}

/**
 * The facts of each position: one probe of the person's conversions since entering (the latest's time answers both
 * windows); the previous message's click only for positions whose step asks it (`clicks`, by position id).
 */
export const positionFacts = (db: Db, positions: ClaimedPosition[], clicks: ReadonlySet<string>) =>
  queryRows<PositionFacts>(
    db,
    sql`
    SELECT r.id, coalesce(f.last_conversion >= r.entered, false) AS converted_entered,
      coalesce(f.last_conversion >= r.since, false) AS converted_since,
      CASE WHEN r.click THEN coalesce((SELECT x.clicked_at IS NOT NULL FROM deliveries x
                WHERE x.momentum_uuid = r.m AND x.person_uuid = r.p AND x.step = r.prev
                ORDER BY x.created_at DESC LIMIT 1), false) ELSE false END AS clicked_previous
    FROM jsonb_to_recordset(${json(
      positions.map((p) => ({
        id: p.id,
        d: p.domain_uuid,
        m: p.momentum_uuid,
        p: p.person_uuid,
        prev: p.step - 1,
        entered: p.entered_at.toISOString(),
        since: p.since_at.toISOString(),
        click: clicks.has(p.id),
      })),
    )}) AS r(id uuid, d uuid, m uuid, p uuid, prev int, entered timestamptz, since timestamptz, click boolean)
    CROSS JOIN LATERAL (
      SELECT max(c.ts) AS last_conversion FROM conversions c
      WHERE c.person_uuid = r.p AND c.domain_uuid = r.d AND c.ts >= r.entered) f`,
  ).then((rows) =>
    rows.map((r) => ({
      id: r.id,
      converted_entered: r.converted_entered === true,
      converted_since: r.converted_since === true,
      clicked_previous: r.clicked_previous === true,
    })),
  );

export interface PersonEvent {
  id: string;
  kind: 'pageview' | 'event';
  url: string | null;
  category: string | null;
  props: Record<string, unknown> | null;
}

/** Page views and events of each position's person since its previous step (at most 500 each), by position id. */
export const eventsSince = (db: Db, positions: ClaimedPosition[]) =>
  queryRows<PersonEvent>(
    db,
    sql`
    SELECT r.id, ev.kind, ev.url, ev.category, ev.props
    FROM jsonb_to_recordset(${json(
      positions.map((p) => ({ id: p.id, d: p.domain_uuid, p: p.person_uuid, since: p.since_at.toISOString() })),
    )}) AS r(id uuid, d uuid, p uuid, since timestamptz)
    JOIN LATERAL (
      SELECT kind, url, category, props FROM events e
      WHERE e.person_uuid = r.p AND e.domain_uuid = r.d AND e.kind IN ('pageview', 'event') AND e.ts >= r.since
      ORDER BY e.ts LIMIT 500) ev ON true`,
  );

/** A step's message, to insert as a delivery (then the send stage takes it like any other). */
export interface StepDelivery {
  domainUuid: string;
  momentumUuid: string;
  personUuid: string;
  channelType: string;
  /** Position id + step: a rerun of the same step never inserts a second one. */
  dedupeKey: string;
  step: number;
  branch: 'otherwise' | null;
}

/** Where a claimed position goes: waiting for a (maybe new) step, or ended. */
export interface PositionMove {
  id: string;
  lockedAt: Date;
  state: 'waiting' | 'done' | 'left' | 'exited';
  step: number;
  dueAt: Date;
  sinceAt: Date | null;
  reason: string | null;
}

/**
 * One batch's outcome, in one transaction: the steps' deliveries (ON CONFLICT on the dedupe key does nothing) and the
 * positions moved, only those still held under this claim's lease (a position the sweeper handed back and another
 * worker took is that worker's; the dedupe key keeps its message single). Answers the deliveries inserted.
 */
export async function advancePositions(db: Db, deliveries: StepDelivery[], moves: PositionMove[], now: Date) {
  return db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    let inserted = 0;
    if (deliveries.length) {
      const rows = await queryRows<{ id: string }>(
        t,
        sql`
        INSERT INTO deliveries (id, domain_uuid, momentum_uuid, person_uuid, channel_type, dedupe_key, status,
                                trigger_at, due_at, step, branch, created_at, updated_at)
        SELECT r.id, r.domain_uuid, r.momentum_uuid, r.person_uuid, r.channel_type, r.dedupe_key, 'queued',
               ${now}, ${now}, r.step, r.branch, ${now}, ${now}
        FROM jsonb_to_recordset(${json(
          deliveries.map((d) => ({
            id: randomUUID(),
            domain_uuid: d.domainUuid,
            momentum_uuid: d.momentumUuid,
            person_uuid: d.personUuid,
            channel_type: d.channelType,
            dedupe_key: d.dedupeKey,
            step: d.step,
            branch: d.branch,
          })),
        )}) AS r(id uuid, domain_uuid uuid, momentum_uuid uuid, person_uuid uuid, channel_type text, dedupe_key text,
             step int, branch text)
        ON CONFLICT (dedupe_key) DO NOTHING
        RETURNING id`,
      );
      inserted = rows.length;
    }
    if (moves.length) {
      await t.execute(sql`
        UPDATE journey_positions j SET state = r.state, step = r.step, due_at = r.due_at,
          since_at = coalesce(r.since_at, j.since_at), reason = r.reason, locked_at = NULL, updated_at = ${now}
        FROM jsonb_to_recordset(${json(
          moves.map((m) => ({
            id: m.id,
            locked: m.lockedAt.toISOString(),
            state: m.state,
            step: m.step,
            due_at: m.dueAt.toISOString(),
            since_at: m.sinceAt?.toISOString() ?? null,
            reason: m.reason,
          })),
        )}) AS r(id uuid, locked timestamptz, state text, step int, due_at timestamptz, since_at timestamptz,
             reason text)
        WHERE j.id = r.id AND j.state = 'running' AND j.locked_at = r.locked`);
    }
    return inserted;
  });
}

/** The momentum was removed: its persons' journeys end. */
export const endPositions = (db: Db, momentumUuid: string, reason: string, now: Date) =>
  db.execute(sql`
    UPDATE journey_positions SET state = 'exited', reason = ${reason}, locked_at = NULL, updated_at = ${now}
    WHERE momentum_uuid = ${momentumUuid}::uuid AND state IN ('waiting', 'running')`);

/**
 * The momentum was paused (or finished): a step's message still waiting to go out (held by quiet hours, a retry)
 * is about to be cancelled with the rest of what it has waiting, and its person has already moved past that step.
 * Put the person back at that step, due when the message was, so a start sends it (the condition is read again then)
 * instead of skipping it. Run before the cancel: a crash in between leaves the message queued and the rerun's
 * delivery keyed alike, so nothing goes out twice.
 */
export const rewindWaitingSteps = (db: Db, momentumUuid: string, now: Date) =>
  db.execute(sql`
    UPDATE journey_positions j SET step = d.step, due_at = d.due_at, state = 'waiting', reason = NULL,
      locked_at = NULL, updated_at = ${now}
    FROM deliveries d
    WHERE d.momentum_uuid = ${momentumUuid}::uuid AND d.status = 'queued' AND d.step > 0
      AND j.id = split_part(d.dedupe_key, ':', 4)::uuid
      AND j.momentum_uuid = ${momentumUuid}::uuid AND j.state IN ('waiting', 'done')
      AND NOT EXISTS (
        SELECT 1 FROM journey_positions o
        WHERE o.momentum_uuid = j.momentum_uuid AND o.person_uuid = j.person_uuid AND o.id <> j.id
          AND o.state IN ('waiting', 'running'))`);
