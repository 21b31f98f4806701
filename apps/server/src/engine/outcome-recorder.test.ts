import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import type { Outcome } from './deliveries.queries.ts';
import { createOutcomeRecorder, RECORD_EVERY } from './outcome-recorder.ts';

/*
 * The outcome stage alone, on a stand-in database that only notes the statements: how a pass's outcomes are
 * grouped into writes (the bench's campaign depends on statements of at least RECORD_EVERY rows).
 */

const dialect = new PgDialect();

/** A database whose statements take one turn of the event loop, noting the rows of each (the jsonb parameter). */
function standIn() {
  const outcomes: string[][] = [];
  const notified: string[][] = [];
  const db = {
    async execute(query: SQL) {
      const { sql, params } = dialect.sqlToQuery(query);
      const rows = JSON.parse(params.find((p) => typeof p === 'string' && p.startsWith('[')) as string) as {
        id?: string;
        p?: string;
      }[];
      if (sql.includes('UPDATE deliveries')) outcomes.push(rows.map((r) => r.id!));
      else notified.push(rows.map((r) => r.p!));
      await new Promise((resolve) => setImmediate(resolve));
    },
  } as unknown as Db;
  return { db, outcomes, notified };
}

const clock = { now: () => new Date('2026-11-20T12:00:00.000Z') };
const turn = () => new Promise((resolve) => setImmediate(resolve));
const outcome = (i: number): Outcome => ({ id: `d${i}`, status: 'sent', error: null, sentAt: clock.now() });

describe('the outcome recorder', () => {
  it('writes statements of at least RECORD_EVERY outcomes while sends go on, the last with what is left', async () => {
    const { db, outcomes, notified } = standIn();
    const recorder = createOutcomeRecorder({ db, clock });
    for (let i = 0; i < 437; i++) {
      if (i % 3) recorder.add({ id: `d${i}`, status: 'failed', error: 'recusado' });
      else recorder.addSent(outcome(i), `p${i}`, 'm1');
      if (i % 20 === 0) await turn();
    }
    await recorder.finish();
    expect(outcomes.slice(0, -1).every((s) => s.length >= RECORD_EVERY)).toBe(true);
    expect(outcomes.flat().sort()).toEqual(Array.from({ length: 437 }, (_, i) => `d${i}`).sort());
    // Each statement's sent persons are marked right after it, with it.
    expect(notified.flat().sort()).toEqual(
      Array.from({ length: 437 }, (_, i) => i)
        .filter((i) => i % 3 === 0)
        .map((i) => `p${i}`)
        .sort(),
    );
  });

  it('writes nothing more and returns when everything was already written', async () => {
    const { db, outcomes } = standIn();
    const recorder = createOutcomeRecorder({ db, clock });
    for (let i = 0; i < RECORD_EVERY; i++) recorder.add({ id: `d${i}`, status: 'failed', error: 'recusado' });
    for (let i = 0; i < 5; i++) await turn();
    expect(outcomes).toHaveLength(1);
    await recorder.finish();
    expect(outcomes).toHaveLength(1);
  });

  it('throws the failure of a write at the end of the pass', async () => {
    const db = { execute: () => Promise.reject(new Error('conexão perdida')) } as unknown as Db;
    const recorder = createOutcomeRecorder({ db, clock });
    for (let i = 0; i < 150; i++) recorder.add({ id: `d${i}`, status: 'failed', error: 'recusado' });
    await expect(recorder.finish()).rejects.toThrow('conexão perdida');
  });
});
