import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { visitorHash } from '../../lib/visitor-hash.ts';
import type { VisitorEvent } from './incoming.ts';

/**
 * Drops what erased visitors sent before their erasure (LGPD): requests accepted then but stored only now (a spool
 * replayed after a crash, another process's queue) must not bring the person back. One indexed read per batch;
 * hashes are computed only for the domains that have recent erasures.
 */
export async function withoutErased<T extends VisitorEvent>(db: Db, batch: T[]) {
  if (batch.length === 0) return batch;
  const domainsInBatch = [...new Set(batch.map((item) => item.domainUuid))];
  const erased = await queryRows<{ d: string; h: string; at: Date | string }>(
    db,
    sql`SELECT domain_uuid AS d, visitor_hash AS h, erased_at AS at FROM person_erasures
        WHERE domain_uuid IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(domainsInBatch)}::jsonb))`,
  );
  if (erased.length === 0) return batch;
  const erasedAt = new Map(erased.map((e) => [`${e.d}|${e.h}`, new Date(e.at).getTime()]));
  const hashes = new Map<string, string>();
  return batch.filter((item) => {
    const key = `${item.domainUuid}|${item.visitorId}`;
    let hash = hashes.get(key);
    if (hash === undefined) {
      hash = visitorHash(item.domainUuid, item.visitorId);
      hashes.set(key, hash);
    }
    const at = erasedAt.get(`${item.domainUuid}|${hash}`);
    return at === undefined || item.receivedAt.getTime() > at;
  });
}
