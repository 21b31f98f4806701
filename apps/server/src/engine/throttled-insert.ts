import type { Worktime } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import * as q from './deliveries.queries.ts';
import { nextWorktimeOpening } from './schedule.ts';
import { dedupeKeysOf, setDueTimes, throttleTaken } from './timing.queries.ts';
import { throttledSlot } from './timing.ts';

/*
 * 'Limite de envios por minuto' on momentums started by events (issue #27): the rows a matched batch starts are
 * inserted as planned, then, under a transaction lock per throttled momentum, each new chain is moved to the first
 * slot at least 60/rate s from every send the momentum has planned (timing.ts throttledSlot over the stored rows). The
 * slot is the row's due time, written in the same transaction as the row: nothing to lose in a crash, and a batch in
 * another process waits for the lock and then sees these rows. What the dedupe keys or a waiting chain keep out takes
 * no slot (only the rows inserted are moved). Momentums without a limit insert exactly as before.
 */

type Inserted = Awaited<ReturnType<typeof q.insertDeliveries>>[number];

/** A throttled momentum: its rate, and its worktime when read on the domain's clock (`zone`). */
export interface ThrottleRule {
  perMinute: number;
  worktime?: Worktime | null;
  zone?: string | null;
}

/** A chain's rows share their dedupe key but the trailing send index (timing.ts appendChain). */
const chainOf = (dedupeKey: string) => dedupeKey.replace(/:\d+$/, '');

export async function insertThrottled(
  db: Db,
  rows: q.NewDelivery[],
  /** Per momentum uuid, its throttle_per_minute and worktime. */
  throttles: ReadonlyMap<string, ThrottleRule>,
  now: Date,
): Promise<Inserted[]> {
  const limited = rows.filter((r) => throttles.has(r.momentumUuid) && !r.skipReason);
  if (limited.length === 0) return q.insertDeliveries(db, rows, now);
  const isLimited = new Set(limited);
  const others = rows.filter((r) => !isLimited.has(r));
  const out = others.length ? await q.insertDeliveries(db, others, now) : [];
  const planned = new Map(limited.map((r) => [r.dedupeKey, r]));
  const momentums = [...new Set(limited.map((r) => r.momentumUuid))].sort();
  const throttled = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    for (const uuid of momentums)
      await t.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`throttle:${uuid}`}, 0))`);
    // The taken slots are read before the insert, so this batch's own rows are not among them.
    const taken = new Map<string, number[]>();
    for (const uuid of momentums) {
      const { perMinute } = throttles.get(uuid)!;
      const earliest = limited.reduce(
        (min, r) => (r.momentumUuid === uuid ? Math.min(min, r.dueAt.getTime()) : min),
        Number.POSITIVE_INFINITY,
      );
      taken.set(uuid, await throttleTaken(t, uuid, new Date(earliest - 60_000 / perMinute)));
    }
    const inserted = await q.insertDeliveries(t, limited, now);
    const queued = inserted.filter((r) => r.status === 'queued');
    const keyOf = await dedupeKeysOf(
      t,
      queued.map((r) => r.id),
    );
    const chains = new Map<string, { id: string; key: string; row: Inserted }[]>();
    for (const row of queued) {
      const key = keyOf.get(row.id)!;
      const chain = chainOf(key);
      chains.set(chain, [...(chains.get(chain) ?? []), { id: row.id, key, row }]);
    }
    // In planned order (then by key): the same batch run again would plan the same slots.
    const ordered = [...chains.entries()]
      .map(([key, list]) => {
        const first = Math.min(...list.map((r) => planned.get(r.key)!.dueAt.getTime()));
        return { key, list, first, momentum: planned.get(list[0]!.key)!.momentumUuid };
      })
      .sort((a, b) => a.first - b.first || (a.key < b.key ? -1 : 1));
    const moves: { id: string; dueAt: Date }[] = [];
    for (const chain of ordered) {
      // Outside the worktime the send stage would hold it for the opening: the slot is counted from there, so
      // what waits overnight is spread from the opening on instead of going all at once.
      const { perMinute, worktime, zone } = throttles.get(chain.momentum)!;
      const start =
        worktime && zone ? nextWorktimeOpening(new Date(chain.first), worktime, zone).getTime() : chain.first;
      const slot = throttledSlot(taken.get(chain.momentum)!, start, perMinute);
      const shift = slot - chain.first;
      if (shift === 0) continue;
      for (const { id, key, row } of chain.list) {
        const dueAt = new Date(planned.get(key)!.dueAt.getTime() + shift);
        row.due_at = dueAt;
        moves.push({ id, dueAt });
      }
    }
    await setDueTimes(t, moves);
    return inserted;
  });
  return [...out, ...throttled];
}
