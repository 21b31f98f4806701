import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../../test/harness.ts';
import { type Database, queryRows } from '../../db/client.ts';
import { estimate, SKETCH_EXACT_MAX, VisitorSketch, visitorHash } from './visitor-sketch.ts';

/*
 * The visitor sketch (issue #30): the SQL side (migration 0014, what the rollups stage and the history conversion
 * run) and the JavaScript side (what the widgets merge) agree, exact below SKETCH_EXACT_MAX, within 2 % of the exact
 * distinct count at 10,000, 100,000 and 1,000,000 visitors.
 */

let database: Database;
beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(() => database.close());

const ids = (n: number, seed: string) => sql`SELECT md5(${seed} || g)::uuid AS p FROM generate_series(1, ${n}) AS g`;

/** Registers built in SQL the way migration 0014 converts history (set-based, one aggregate). */
const registersInSql = async (n: number, seed: string) => {
  const [row] = await queryRows<{ registers: Uint8Array; exact: number }>(
    database.db,
    sql`WITH v AS (${ids(n, seed)}),
      ranks AS (SELECT sketch_index(visitor_hash(p)) AS i, max(sketch_rank(visitor_hash(p))) AS r FROM v GROUP BY 1)
    SELECT decode(string_agg(lpad(to_hex(coalesce(ranks.r, 0)), 2, '0'), '' ORDER BY g.i), 'hex') AS registers,
      (SELECT count(DISTINCT p)::int FROM v) AS exact
    FROM generate_series(0, 16383) AS g(i) LEFT JOIN ranks ON ranks.i = g.i`,
  );
  return { registers: new Uint8Array(row!.registers), exact: row!.exact };
};

describe('the visitor sketch', () => {
  it('hashes and ranks alike in SQL and in JavaScript, and the rollups function builds the same registers', async () => {
    const rows = await queryRows<{ p: string; h: string }>(
      database.db,
      sql`SELECT p::text AS p, visitor_hash(p)::text AS h FROM (${ids(2000, 'agree-')}) AS v`,
    );
    for (const r of rows) expect(visitorHash(r.p).toString()).toBe(r.h);
    const [viaFunction] = await queryRows<{ registers: Uint8Array }>(
      database.db,
      sql`SELECT sketch_registers(NULL, array_agg(visitor_hash(p))) AS registers FROM (${ids(2000, 'agree-')}) AS v`,
    );
    const js = new VisitorSketch();
    for (const r of rows) js.addHash(visitorHash(r.p));
    expect(Buffer.from(viaFunction!.registers).equals(Buffer.from(js.dense()))).toBe(true);
    expect(Buffer.from((await registersInSql(2000, 'agree-')).registers).equals(Buffer.from(js.dense()))).toBe(true);
  });

  it('is exact while small, and merges days without counting a visitor twice', async () => {
    const rows = await queryRows<{ h: string }>(
      database.db,
      sql`SELECT visitor_hash(p)::text AS h FROM (${ids(SKETCH_EXACT_MAX, 'small-')}) AS v`,
    );
    const day1 = rows.slice(0, 200).map((r) => r.h);
    const day2 = rows.slice(100).map((r) => r.h);
    const range = new VisitorSketch().merge({ hashes: day1 }).merge({ hashes: day2 });
    expect(range.isExact()).toBe(true);
    expect(range.count()).toBe(SKETCH_EXACT_MAX);
  });

  for (const n of [10_000, 100_000, 1_000_000]) {
    it(`estimates ${n.toLocaleString('en-US')} visitors within 2 %`, async () => {
      const { registers, exact } = await registersInSql(n, `size-${n}-`);
      expect(exact).toBe(n);
      const estimated = new VisitorSketch().merge({ registers }).count();
      const error = Math.abs(estimated - exact) / exact;
      console.log(`sketch: ${exact} visitors, estimated ${estimated} (${(error * 100).toFixed(2)} %)`);
      expect(error).toBeLessThanOrEqual(0.02);
      // Merging the same visitors split over two days changes nothing.
      const half = await registersInSql(Math.floor(n / 2), `size-${n}-`);
      expect(new VisitorSketch().merge({ registers: half.registers }).merge({ registers }).count()).toBe(estimated);
    });
  }

  it('estimates an empty register set as none', () => {
    expect(Math.round(estimate(new Uint8Array(16384)))).toBe(0);
  });
});
