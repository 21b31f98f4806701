import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { VisitorEvent } from './incoming.ts';
import { personKey } from './person-upsert.ts';
import { byKey, chunk, ROWS_PER_STATEMENT } from './statements.ts';

/*
 * The daily rollups: counters the analytics widgets read instead of scanning events (DESIGN.md §6), per domain and
 * day in the company's time zone. `tallyRollups` counts a batch in memory; `writeRollups` records the visitors seen
 * (a visitor's first sighting of the day, or of a category that day, bumps the unique-visitor counters) and adds the
 * counters, one multi-row statement per table and chunk.
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

/** Counts a batch's page views (per page and device class, per device), custom events, opt-ins and opt-outs per day. */
export function tallyRollups(
  batch: VisitorEvent[],
  personUuid: Map<string, string>,
  dayOf: (at: Date) => string,
): RollupTally {
  const counters: RollupTally['counters'] = new Map();
  const visitors: RollupTally['visitors'] = new Map();
  const categoryVisitors: RollupTally['categoryVisitors'] = new Map();
  for (const item of batch) {
    const day = dayOf(item.receivedAt);
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
 * `visitors_device` and `event_visitors`), then every counter. One JSON parameter per statement
 * (jsonb_to_recordset), rows sorted so concurrent batches lock them in the same order.
 */
export async function writeRollups(db: Db, { counters, visitors, categoryVisitors }: RollupTally) {
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
      bump(counters, f.d, f.day, 'visitors');
      bump(counters, f.d, f.day, 'visitors_device', visitors.get(`${f.d}|${f.day}|${f.p}`)?.device ?? '');
    }
  }
  for (const rows of chunk(byKey(categoryVisitors), ROLLUP_ROWS_PER_STATEMENT)) {
    const fresh = await queryRows<{ d: string; day: string; c: string }>(
      db,
      sql`
      INSERT INTO daily_event_visitors AS v (domain_uuid, day, category, person_uuid)
      SELECT r.d, r.day, r.c, r.p
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, c text, p uuid)
      ON CONFLICT DO NOTHING
      RETURNING v.domain_uuid AS d, to_char(v.day, 'YYYY-MM-DD') AS day, v.category AS c`,
    );
    for (const f of fresh) bump(counters, f.d, f.day, 'event_visitors', f.c);
  }
  for (const rows of chunk(byKey(counters), ROLLUP_ROWS_PER_STATEMENT)) {
    await db.execute(sql`
      INSERT INTO daily_stats AS s (domain_uuid, day, dimension, value, count)
      SELECT r.d, r.day, r.dim, r.value, r.count
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(d uuid, day date, dim text, value text, count bigint)
      ON CONFLICT (domain_uuid, day, dimension, value) DO UPDATE SET count = s.count + excluded.count`);
  }
}

/** The rollups stage: days in `timeZone` (the company's; São Paulo by default). */
export function createRollups(timeZone = 'America/Sao_Paulo') {
  const dayOf = createDayOf(timeZone);
  return {
    record: (db: Db, batch: VisitorEvent[], personUuid: Map<string, string>) =>
      writeRollups(db, tallyRollups(batch, personUuid, dayOf)),
  };
}
