import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import type { IncomingEvent } from './incoming.ts';
import { chunk, ROWS_PER_STATEMENT } from './statements.ts';

/**
 * The event catalogue the dashboard's pickers read: each custom event's category (`event_categories`) and the
 * property key/value pairs seen with it (`event_catalog`, values cut at 200 characters), with how often.
 */
export async function recordCatalogue(db: Db, batch: IncomingEvent[]) {
  const categories = new Map<string, { domainUuid: string; name: string; count: number; pairs: Map<string, number> }>();
  for (const item of batch) {
    const e = item.event;
    if (e.t !== 'ev') continue;
    const key = `${item.domainUuid}|${e.c}`;
    let c = categories.get(key);
    if (!c) {
      c = { domainUuid: item.domainUuid, name: e.c, count: 0, pairs: new Map() };
      categories.set(key, c);
    }
    c.count++;
    for (const [k, v] of Object.entries(e.p ?? {})) {
      const pair = JSON.stringify([k, String(v).slice(0, 200)]);
      c.pairs.set(pair, (c.pairs.get(pair) ?? 0) + 1);
    }
  }
  if (categories.size === 0) return;
  const list = [...categories.values()];
  const values = sql.join(
    list.map((c) => sql`(${randomUUID()}::uuid, ${c.domainUuid}::uuid, ${c.name}, ${c.count})`),
    sql`, `,
  );
  const rows = await queryRows<{ uuid: string; domain_uuid: string; name: string }>(
    db,
    sql`
    INSERT INTO event_categories AS c (uuid, domain_uuid, name, seen_count) VALUES ${values}
    ON CONFLICT (domain_uuid, name) DO UPDATE SET seen_count = c.seen_count + excluded.seen_count
    RETURNING uuid, domain_uuid, name`,
  );
  const uuidOf = new Map(rows.map((r) => [`${r.domain_uuid}|${r.name}`, r.uuid]));
  const pairs = list.flatMap((c) =>
    [...c.pairs].map(([pair, count]) => {
      const [k, v] = JSON.parse(pair) as [string, string];
      return { category: uuidOf.get(`${c.domainUuid}|${c.name}`)!, k, v, count };
    }),
  );
  for (const rowsChunk of chunk(pairs, ROWS_PER_STATEMENT)) {
    await db.execute(sql`
      INSERT INTO event_catalog AS k (category_uuid, key, value, seen_count)
      VALUES ${sql.join(
        rowsChunk.map((p) => sql`(${p.category}::uuid, ${p.k}, ${p.v}, ${p.count})`),
        sql`, `,
      )}
      ON CONFLICT (category_uuid, key, value) DO UPDATE SET seen_count = k.seen_count + excluded.seen_count`);
  }
}
