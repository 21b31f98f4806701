import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { VisitorEvent } from './incoming.ts';
import { personKey } from './person-upsert.ts';
import { byKey, chunk, ROWS_PER_STATEMENT } from './statements.ts';

/*
 * The daily rollups: counters the analytics widgets read instead of scanning events (DESIGN.md §6), per domain and
 * day in the domain's time zone. `tallyRollups` counts a batch in memory; `writeRollups` records the visitors seen
 * (a visitor's first sighting of the day, or of a category that day, bumps the unique-visitor counters and joins the
 * day's visitor sketches, which make distinct counts over a range) and adds the counters, one multi-row statement
 * per table and chunk.
 */

const ROLLUP_ROWS_PER_STATEMENT = ROWS_PER_STATEMENT * 5;

/**
 * The day of an instant in `timeZone`, as YYYY-MM-DD. Formatting is costly and a batch spans milliseconds: the last
 * minute's day is remembered (zone offsets are whole minutes).
 */
export function createDayOf(timeZone: string) {
  const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone });
  let lastMinute = Number.NaN;
  let lastDay = '';
  return (at: Date) => {
    const minute = Math.floor(at.getTime() / 60_000);
    if (minute !== lastMinute) {
      lastMinute = minute;
      lastDay = dayFormat.format(at);
    }
    return lastDay;
  };
}

export interface DailyCounter {
  d: string;
  day: string;
  dim: string;
  value: string;
  count: number;
}

/** Visitors first seen in a day (or in a category that day) joining one sketch: domain|day|dimension|value. */
export interface SketchAddition {
  d: string;
  day: string;
  dim: 'visitors' | 'visitors_device' | 'event_visitors';
  value: string;
  p: string[];
}

/** Above this many visitors a sketch keeps registers instead of the exact hashes (visitor-sketch.ts, migration 0014). */
const SKETCH_EXACT_MAX = 256;

/** What a batch adds to the rollups, each map keyed by domain|day|… (only the last part is free text). */
export interface RollupTally {
  /** daily_stats: domain|day|dimension|value. */
  counters: Map<string, DailyCounter>;
  /** daily_visitors: domain|day|person, with the device of its first event of the batch. */
  visitors: Map<string, { d: string; day: string; p: string; device: string }>;
  /** daily_event_visitors: domain|day|person|category. */
  categoryVisitors: Map<string, { d: string; day: string; c: string; p: string }>;
}

const bump = (counters: RollupTally['counters'], d: string, day: string, dim: string, value = '', by = 1) => {
  const key = `${d}|${day}|${dim}|${value}`;
  const counter = counters.get(key);
  if (counter) counter.count += by;
  else counters.set(key, { d, day, dim, value, count: by });
};

/**
 * Counts a batch's page views (per page and device class, per device), custom events, opt-ins and opt-outs per day;
 * `dayOf` gives an instant's day for a domain (in that domain's time zone).
 */
export function tallyRollups(
  batch: VisitorEvent[],
  personUuid: Map<string, string>,
  dayOf: (at: Date, domainUuid: string) => string,
): RollupTally {
  const counters: RollupTally['counters'] = new Map();
  const visitors: RollupTally['visitors'] = new Map();
  const categoryVisitors: RollupTally['categoryVisitors'] = new Map();
  for (const item of batch) {
    const day = dayOf(item.receivedAt, item.domainUuid);
    const e = item.event;
    const device = item.device.mobile ? 'mobile' : 'desktop';
    const p = personUuid.get(personKey(item))!;
    const seenKey = `${item.domainUuid}|${day}|${p}`;
    if (!visitors.has(seenKey)) visitors.set(seenKey, { d: item.domainUuid, day, p, device: item.device.device });
    if (e.t === 'pv') {
      bump(counters, item.domainUuid, day, 'pageviews');
      bump(counters, item.domainUuid, day, `page:${device}`, e.u.slice(0, 500));
      bump(counters, item.domainUuid, day, 'device', item.device.device);
    } else if (e.t === 'ev') {
      bump(counters, item.domainUuid, day, 'event', e.c);
      const key = `${seenKey}|${e.c}`;
      if (!categoryVisitors.has(key)) categoryVisitors.set(key, { d: item.domainUuid, day, c: e.c, p });
    } else if (e.t === 'optin') bump(counters, item.domainUuid, day, 'optins');
    else if (e.t === 'optout') bump(counters, item.domainUuid, day, 'optouts');
  }
  return { counters, visitors, categoryVisitors };
}

/**
 * Writes a batch's tally: the visitors first (those the database did not know yet that day bump `visitors`,
 * `visitors_device` and `event_visitors` and join the day's sketches), then every counter. One JSON parameter per
 * statement (jsonb_to_recordset), rows sorted so concurrent batches lock them in the same order.
 */
export async function writeRollups(db: Db, { counters, visitors, categoryVisitors }: RollupTally) {
  const sketches = new Map<string, SketchAddition>();
  const join = (d: string, day: string, dim: SketchAddition['dim'], value: string, p: string) => {
    const key = `${d}|${day}|${dim}|${value}`;
    const s = sketches.get(key);
    if (s) s.p.push(p);
    else sketches.set(key, { d, day, dim, value, p: [p] });
  };
  for (const rows of chunk(byKey(visitors), ROLLUP_ROWS_PER_STATEMENT)) {
    const fresh = await queryRows<{ d: string; day: string; p: string }>(
      db,
      sql`
      INSERT INTO daily_visitors AS v (domain_uuid, day, person_uuid)
      SELECT r.d, r.day, r.p FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, p uuid)
      ON CONFLICT DO NOTHING
      RETURNING v.domain_uuid AS d, to_char(v.day, 'YYYY-MM-DD') AS day, v.person_uuid AS p`,
    );
    for (const f of fresh) {
      const device = visitors.get(`${f.d}|${f.day}|${f.p}`)?.device ?? '';
      bump(counters, f.d, f.day, 'visitors');
      bump(counters, f.d, f.day, 'visitors_device', device);
      join(f.d, f.day, 'visitors', '', f.p);
      join(f.d, f.day, 'visitors_device', device, f.p);
    }
  }
  for (const rows of chunk(byKey(categoryVisitors), ROLLUP_ROWS_PER_STATEMENT)) {
    const fresh = await queryRows<{ d: string; day: string; c: string; p: string }>(
      db,
      sql`
      INSERT INTO daily_event_visitors AS v (domain_uuid, day, category, person_uuid)
      SELECT r.d, r.day, r.c, r.p
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, c text, p uuid)
      ON CONFLICT DO NOTHING
      RETURNING v.domain_uuid AS d, to_char(v.day, 'YYYY-MM-DD') AS day, v.category AS c, v.person_uuid AS p`,
    );
    for (const f of fresh) {
      bump(counters, f.d, f.day, 'event_visitors', f.c);
      join(f.d, f.day, 'event_visitors', f.c, f.p);
    }
  }
  await writeSketches(db, sketches);
  for (const rows of chunk(byKey(counters), ROLLUP_ROWS_PER_STATEMENT)) {
    await db.execute(sql`
      INSERT INTO daily_stats AS s (domain_uuid, day, dimension, value, count)
      SELECT r.d, r.day, r.dim, r.value, r.count
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, dim text, value text, count bigint)
      ON CONFLICT (domain_uuid, day, dimension, value) DO UPDATE SET count = s.count + excluded.count`);
  }
}

/**
 * Merges the batch's fresh visitors into their days' sketches, under the rows' locks (several API processes merge
 * safely): an exact set stays one while the union holds at most SKETCH_EXACT_MAX hashes and becomes registers past
 * it; registers are raised by the new ranks. The hashes and registers are computed in SQL (migration 0014). A new
 * row whose first batch alone holds more than the limit is turned into registers by the second statement.
 */
async function writeSketches(db: Db, sketches: Map<string, SketchAddition>) {
  for (const rows of chunk(byKey(sketches), ROLLUP_ROWS_PER_STATEMENT)) {
    await db.execute(sql`
      INSERT INTO daily_sketches AS s (domain_uuid, day, dimension, value, hashes)
      SELECT r.d, r.day, r.dim, r.value, (SELECT sketch_union(NULL, array_agg(visitor_hash(u))) FROM unnest(r.p) AS u)
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, dim text, value text, p uuid[])
      ON CONFLICT (domain_uuid, dimension, day, value) DO UPDATE SET
        registers = CASE
          WHEN s.registers IS NOT NULL THEN sketch_registers(s.registers, excluded.hashes)
          WHEN cardinality(sketch_union(s.hashes, excluded.hashes)) > ${SKETCH_EXACT_MAX}
            THEN sketch_registers(NULL, sketch_union(s.hashes, excluded.hashes))
        END,
        hashes = CASE
          WHEN s.registers IS NULL AND cardinality(sketch_union(s.hashes, excluded.hashes)) <= ${SKETCH_EXACT_MAX}
            THEN sketch_union(s.hashes, excluded.hashes)
        END`);
    const large = rows.filter((r) => r.p.length > SKETCH_EXACT_MAX);
    if (large.length)
      await db.execute(sql`
        UPDATE daily_sketches s SET registers = sketch_registers(NULL, s.hashes), hashes = NULL
        FROM jsonb_to_recordset(${JSON.stringify(large)}::jsonb) AS r(d uuid, day date, dim text, value text)
        WHERE s.domain_uuid = r.d AND s.dimension = r.dim AND s.day = r.day AND s.value = r.value
          AND cardinality(s.hashes) > ${SKETCH_EXACT_MAX}`);
  }
}

/**
 * The rollups stage: each domain's days in its own time zone (domains.timezone, read once per batch); `timeZone`
 * (São Paulo by default) for a domain the database does not name or a zone this runtime does not know.
 */
export function createRollups(timeZone = 'America/Sao_Paulo') {
  const dayOfZone = new Map<string, (at: Date) => string>();
  const dayIn = (zone: string) => {
    let dayOf = dayOfZone.get(zone);
    if (!dayOf) {
      try {
        dayOf = createDayOf(zone);
      } catch {
        dayOf = createDayOf(timeZone);
      }
      dayOfZone.set(zone, dayOf);
    }
    return dayOf;
  };
  return {
    record: async (db: Db, batch: VisitorEvent[], personUuid: Map<string, string>) => {
      const zones = await domainZones(db, [...new Set(batch.map((item) => item.domainUuid))]);
      const dayOf = (at: Date, domainUuid: string) => dayIn(zones.get(domainUuid) ?? timeZone)(at);
      await writeRollups(db, tallyRollups(batch, personUuid, dayOf));
    },
  };
}

const domainZones = async (db: Db, uuids: string[]) =>
  new Map(
    (
      await queryRows<{ uuid: string; timezone: string }>(
        db,
        sql`SELECT uuid, timezone FROM domains
            WHERE uuid IN (SELECT jsonb_array_elements_text(${JSON.stringify(uuids)}::jsonb)::uuid)`,
      )
    ).map((r) => [r.uuid, r.timezone]),
  );
