import type { CollectEvent } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { VisitorEvent } from './incoming.ts';
import { personKey } from './person-upsert.ts';

/** The last opt-in or opt-out of a person in the batch decides its push state. */
export async function recordPush(db: Db, batch: VisitorEvent[], personUuid: Map<string, string>) {
  const last = new Map<string, CollectEvent>();
  for (const item of batch) {
    if (item.event.t === 'optin' || item.event.t === 'optout') last.set(personUuid.get(personKey(item))!, item.event);
  }
  for (const [uuid, e] of last) {
    if (e.t === 'optin') {
      await db.execute(
        sql`UPDATE persons SET push_subscription = ${JSON.stringify(e.s)}::jsonb, push_status = 'subscribed' WHERE uuid = ${uuid}::uuid`,
      );
    } else {
      await db.execute(sql`UPDATE persons SET push_status = 'unsubscribed' WHERE uuid = ${uuid}::uuid`);
    }
  }
}
