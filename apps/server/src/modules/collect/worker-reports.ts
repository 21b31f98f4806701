import type { CollectEvent } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import { insertEvents, KIND } from './event-write.ts';
import type { IncomingEvent } from './incoming.ts';
import { chunk, EVENTS_PER_STATEMENT } from './statements.ts';

/**
 * The service worker knows no visitor: viewed/clicked are kept with their delivery id (the engine
 * attributes them), and a changed subscription replaces the old endpoint's.
 */
export async function recordWorkerReports(db: Db, items: IncomingEvent[], stored: StoredEvent[]) {
  const reports = items.filter((i) => i.event.t === 'viewed' || i.event.t === 'clicked');
  for (const rows of chunk(reports, EVENTS_PER_STATEMENT)) {
    await insertEvents(
      db,
      rows.map((item) => {
        const e = item.event as Extract<CollectEvent, { t: 'viewed' | 'clicked' }>;
        return {
          domain_uuid: item.domainUuid,
          person_uuid: null,
          kind: KIND[e.t],
          url: null,
          category: null,
          props: { delivery_id: e.d },
          device: item.device.device,
          ts: item.receivedAt.toISOString(),
        };
      }),
      stored,
    );
  }
  for (const item of items) {
    const e = item.event;
    if (e.t !== 'optin' || !e.o) continue;
    await db.execute(sql`
      UPDATE persons SET push_subscription = ${JSON.stringify(e.s)}::jsonb, push_status = 'subscribed'
      WHERE domain_uuid = ${item.domainUuid}::uuid AND push_subscription ->> 'endpoint' = ${e.o}`);
  }
}
