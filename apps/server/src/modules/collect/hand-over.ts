import { sql } from 'drizzle-orm';
import { dbErrorReason, queryRows } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import type { AppContext } from '../../lib/context.ts';
import { type EventRow, toStoredEvent } from './event-write.ts';
import type { IncomingEvent } from './incoming.ts';

/** Called with each batch's events once its transaction committed (app.ts: the engine matches them, then attribution credits conversions). */
export type OnStored = (events: StoredEvent[]) => Promise<void>;

/**
 * The hand-over to the engine, after the batch's commit and before its spool segment goes. Matching is best effort
 * (a failure is logged, the events stay stored) and idempotent (deliveries carry a dedupe key), so a batch stored in
 * a previous life is matched again from its stored events.
 */
export function createHandOver(ctx: AppContext, onStored: OnStored | undefined) {
  /**
   * The events a batch stored, found again by their request: same domain, same reception instant, same visitor
   * (service-worker reports have none). Used only when a replayed segment was already stored.
   */
  const storedEventsOf = async (batch: IncomingEvent[]) => {
    const keys = new Map<string, { d: string; v: string | null; ts: string }>();
    for (const item of batch) {
      const ts = item.receivedAt.toISOString();
      keys.set(`${item.domainUuid}|${item.visitorId ?? ''}|${ts}`, {
        d: item.domainUuid,
        v: item.visitorId ?? null,
        ts,
      });
    }
    const rows = await queryRows<EventRow>(
      ctx.db,
      sql`
      SELECT DISTINCT ON (e.id) e.id, e.domain_uuid, e.person_uuid, e.kind, e.url, e.category, e.props, e.ts
      FROM jsonb_to_recordset(${JSON.stringify([...keys.values()])}::jsonb) AS r(d uuid, v text, ts timestamptz)
      JOIN events e ON e.domain_uuid = r.d AND e.ts = r.ts
      LEFT JOIN persons p ON p.uuid = e.person_uuid
      WHERE p.visitor_id = r.v OR (r.v IS NULL AND e.kind IN ('viewed', 'clicked'))
      ORDER BY e.id`,
    );
    return rows.map(toStoredEvent);
  };

  return {
    /** The stored events of a batch stored in a previous life, to match again (none without an `onStored`). */
    storedAgain: (events: IncomingEvent[]) =>
      onStored && events.length
        ? storedEventsOf(events).catch((err) => {
            ctx.log.error({ reason: dbErrorReason(err) }, 'coletor: eventos já gravados não casados de novo');
            return [] as StoredEvent[];
          })
        : Promise.resolve([] as StoredEvent[]),
    /** Hands stored events on; resolves once they are matched (or matching failed and was logged). */
    async handOver(events: StoredEvent[]) {
      if (!onStored || !events.length) return;
      await onStored(events).catch((err) =>
        ctx.log.error({ err, events: events.length }, 'falha ao casar eventos com os momentums'),
      );
    },
  };
}
export type HandOver = ReturnType<typeof createHandOver>;
