import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../db/client.ts';

// SQL of send the winner (issue #25, winner-decision.ts). Instants come from the engine's clock, as parameters.

const json = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/**
 * The test share went out: the decision is due at `plannedAt`, unless one has been taken (a resumed campaign plans
 * its decision again, `hours` after it resumed).
 */
export const planDecision = (db: Db, momentumUuid: string, plannedAt: Date) =>
  db.execute(sql`
    UPDATE momentums SET experiment_decision = jsonb_build_object('planned_at', ${plannedAt.toISOString()}::text)
    WHERE uuid = ${momentumUuid}::uuid
      AND (experiment_decision IS NULL OR experiment_decision ->> 'decided_at' IS NULL)`);

/** Per arm, over the whole test so far: persons assigned and converted, messages sent and clicked. */
export const armCounters = (db: Db, momentumUuid: string) =>
  queryRows<{ arm: string; assigned: number; converted: number; sent: number; clicked: number }>(
    db,
    sql`SELECT arm, sum(assigned)::int AS assigned, sum(converted)::int AS converted, sum(sent)::int AS sent,
          sum(clicked)::int AS clicked
        FROM daily_arm_stats WHERE momentum_uuid = ${momentumUuid}::uuid GROUP BY arm`,
  );

/** Stores the decision once: a second run (or another worker) finds it taken and writes nothing. */
export const storeDecision = (db: Db, momentumUuid: string, decision: Record<string, unknown>) =>
  db.execute(sql`
    UPDATE momentums SET experiment_decision = coalesce(experiment_decision, '{}'::jsonb) || ${json(decision)}
    WHERE uuid = ${momentumUuid}::uuid
      AND (experiment_decision IS NULL OR experiment_decision ->> 'decided_at' IS NULL)`);

/**
 * How many persons of the rest were queued the winner (their deliveries triggered at the decision, not written
 * skipped as unreachable), stored on the decision; counted from the deliveries, so a second run states the same.
 */
export const storeRestCount = (db: Db, momentumUuid: string, decidedAt: Date) =>
  db.execute(sql`
    UPDATE momentums SET experiment_decision = experiment_decision || jsonb_build_object('rest', (
      SELECT count(DISTINCT person_uuid) FROM deliveries
      WHERE momentum_uuid = ${momentumUuid}::uuid AND trigger_at = ${decidedAt}
        AND dedupe_key NOT LIKE '%:skipped'))
    WHERE uuid = ${momentumUuid}::uuid`);
