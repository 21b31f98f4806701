import { sql } from 'drizzle-orm';
import { type Db, queryRows } from './client.ts';

/*
 * The events table is partitioned by UTC month of `ts` (migration 0013): `events_YYYY_MM` holds
 * [YYYY-MM-01, next month) and `events_default` whatever falls outside every month (an instant far in the past or
 * the future). The daily retention job keeps partitions ahead of the clock and drops months nothing needs any more.
 */

/** Months created ahead of the current one, so the collector never writes into the default partition. */
export const MONTHS_AHEAD = 3;
/** How long dropping a month may wait for its table lock before giving up until the next run. */
const DROP_LOCK_TIMEOUT = '2s';

const PARTITION_NAME = /^events_(\d{4})_(\d{2})$/;
/** Held while a month is created, so worker processes running the daily job together create it once. */
const PARTITION_LOCK = 4_871_220_616;

/** The UTC month of `at`, as its first instant. */
const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
const addMonths = (month: Date, n: number) => new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + n, 1));
const partitionName = (month: Date) =>
  `events_${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, '0')}`;

export interface MonthPartition {
  name: string;
  from: Date;
  to: Date;
}

/** The monthly partitions attached to events, oldest first. */
export async function listEventPartitions(db: Db): Promise<MonthPartition[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'events'::regclass`,
  );
  return rows
    .map((r) => PARTITION_NAME.exec(r.name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => {
      const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
      return { name: m[0], from, to: addMonths(from, 1) };
    })
    .sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Creates the partitions of the current month (of `now`) and MONTHS_AHEAD months ahead that do not exist yet. Rows
 * that already landed in the default partition for such a month (a clock moved, a partition missed) are moved into
 * it in the same transaction: PostgreSQL refuses a new partition whose range the default still holds rows of.
 */
export async function ensureEventPartitions(db: Db, now: Date, ahead = MONTHS_AHEAD): Promise<string[]> {
  const existing = new Set((await listEventPartitions(db)).map((p) => p.name));
  const created: string[] = [];
  for (let i = 0; i <= ahead; i++) {
    const from = addMonths(monthStart(now), i);
    const name = partitionName(from);
    if (existing.has(name)) continue;
    await createMonth(db, name, from, addMonths(from, 1));
    created.push(name);
  }
  return created;
}

async function createMonth(db: Db, name: string, from: Date, to: Date) {
  const bounds = sql.raw(`FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`);
  const table = sql.identifier(name);
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${PARTITION_LOCK})`);
    const [state] = await queryRows<{ exists: boolean; stray: boolean }>(
      tx as unknown as Db,
      sql`SELECT to_regclass(${name}) IS NOT NULL AS exists,
            EXISTS (SELECT 1 FROM events_default WHERE ts >= ${from} AND ts < ${to}) AS stray`,
    );
    if (state?.exists) return;
    if (!state?.stray) {
      await tx.execute(sql`CREATE TABLE ${table} PARTITION OF events FOR VALUES ${bounds}`);
      return;
    }
    await tx.execute(sql`ALTER TABLE events DETACH PARTITION events_default`);
    await tx.execute(sql`CREATE TABLE ${table} PARTITION OF events FOR VALUES ${bounds}`);
    await tx.execute(sql`
      INSERT INTO ${table} (id, domain_uuid, person_uuid, kind, url, category, props, device, ts) OVERRIDING SYSTEM VALUE
      SELECT id, domain_uuid, person_uuid, kind, url, category, props, device, ts FROM events_default
      WHERE ts >= ${from} AND ts < ${to}`);
    await tx.execute(sql`DELETE FROM events_default WHERE ts >= ${from} AND ts < ${to}`);
    await tx.execute(sql`ALTER TABLE events ATTACH PARTITION events_default DEFAULT`);
  });
}

/**
 * Drops the monthly partitions none of whose rows any domain keeps: a month is dropped once, for every domain whose
 * retention cutoff falls before the month's end, the partition holds no row of that domain at or after its cutoff
 * (an index probe per such domain). A month a domain with a longer retention still needs is left for the row-level
 * purge. Returns the partitions dropped; one whose lock is not had within DROP_LOCK_TIMEOUT waits for the next run.
 */
export async function dropExpiredEventPartitions(
  db: Db,
  cutoffs: { uuid: string; cutoff: Date }[],
  now: Date,
  onSkip?: (name: string, reason: string) => void,
): Promise<string[]> {
  const dropped: string[] = [];
  for (const p of await listEventPartitions(db)) {
    if (p.to > now) break;
    const keeping = cutoffs.filter((d) => d.cutoff < p.to);
    if (!(await keepsNothing(db, p, keeping))) continue;
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${DROP_LOCK_TIMEOUT}'`));
        await tx.execute(sql`DROP TABLE ${sql.identifier(p.name)}`);
      });
      dropped.push(p.name);
    } catch (err) {
      onSkip?.(p.name, (err as { cause?: { code?: string }; code?: string }).cause?.code ?? 'erro');
    }
  }
  return dropped;
}

async function keepsNothing(db: Db, p: MonthPartition, keeping: { uuid: string; cutoff: Date }[]) {
  if (keeping.length === 0) return true;
  const [row] = await queryRows<{ kept: boolean }>(
    db,
    sql`SELECT EXISTS (
          SELECT 1 FROM jsonb_to_recordset(${JSON.stringify(keeping)}::jsonb) AS d(uuid uuid, cutoff timestamptz)
          WHERE EXISTS (SELECT 1 FROM ${sql.identifier(p.name)} e WHERE e.domain_uuid = d.uuid AND e.ts >= d.cutoff)
        ) AS kept`,
  );
  return row?.kept === false;
}
