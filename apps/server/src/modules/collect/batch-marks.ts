import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { SpoolSegment } from './spool.ts';

/*
 * Exactly once: a batch read from a spool segment is marked in `ingest_batches` in the transaction that stores it,
 * so a replay after a crash never stores it twice. The table only ever holds the batches in flight: once a
 * segment's file is removed, its marks are deleted with the next batch's claim.
 */

/** A uuid derived from a text (the marks of a segment being stored request by request). */
const uuidFrom = (text: string) => {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
/** Says a previous life was storing the segment request by request (split-refused.ts). */
export const splitMark = (segment: SpoolSegment) => uuidFrom(`${segment.id}:split`);
/** Says one request of a split segment is stored. */
export const requestMark = (segment: SpoolSegment, index: number) => uuidFrom(`${segment.id}:${index}`);

/**
 * Marks the segment's batch as stored, in the batch's own transaction: 'fresh' to store it now, 'stored' when it
 * already was (a process died after the commit and before removing the file), 'split' when a previous life was
 * storing it request by request. The marks of segments already removed (`gone`) go in the same statement.
 */
export async function claimSegment(db: Db, segment: SpoolSegment, gone: string[]) {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
    WITH gone AS (
      DELETE FROM ingest_batches WHERE id IN (
        SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(gone)}::jsonb)))
    INSERT INTO ingest_batches (id)
    SELECT ${segment.id}::uuid
    WHERE NOT EXISTS (SELECT 1 FROM ingest_batches WHERE id = ${splitMark(segment)}::uuid)
    ON CONFLICT DO NOTHING RETURNING id`,
  );
  if (rows.length > 0) return 'fresh' as const;
  const split = await queryRows(db, sql`SELECT 1 AS one FROM ingest_batches WHERE id = ${splitMark(segment)}::uuid`);
  return split.length > 0 ? ('split' as const) : ('stored' as const);
}

/** Marks the segment as being stored request by request (before its first request is). */
export const markSplit = (db: Db, segment: SpoolSegment) =>
  db.execute(sql`INSERT INTO ingest_batches (id) VALUES (${splitMark(segment)}::uuid) ON CONFLICT DO NOTHING`);

/** Marks requests of a segment as stored, in their transaction; returns those not stored before. */
export async function claimRequests(db: Db, segment: SpoolSegment, indices: number[]) {
  const byMark = new Map(indices.map((i) => [requestMark(segment, i), i]));
  const rows = await queryRows<{ id: string }>(
    db,
    sql`
    INSERT INTO ingest_batches (id)
    SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify([...byMark.keys()])}::jsonb)
    ON CONFLICT DO NOTHING RETURNING id`,
  );
  return rows.map((r) => byMark.get(r.id)!).sort((a, b) => a - b);
}

/** After every orphan is replayed, a mark older than a day belongs to no segment any more. */
export const deleteStaleMarks = (db: Db) =>
  db.execute(sql`DELETE FROM ingest_batches WHERE stored_at < now() - interval '1 day'`).catch(() => {});

/** The marks of segments whose file is gone, waiting to be deleted with the next batch's claim. */
export function createForgottenMarks() {
  let forget: string[] = [];
  return {
    /** Takes them for a claim; give them back (`later`) when its transaction failed. */
    take() {
      const gone = forget;
      forget = [];
      return gone;
    },
    later(marks: string[]) {
      forget.push(...marks);
    },
  };
}
export type ForgottenMarks = ReturnType<typeof createForgottenMarks>;
