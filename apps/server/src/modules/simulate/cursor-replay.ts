import type { SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { nextTurn } from './planned-send.ts';
import { openCursor } from './simulate.queries.ts';

/*
 * The cursor loop the event replays share (event-replay.ts, a batch of persons at a time; throttled-replay.ts, a
 * chunk of the time-ordered events at a time): the database reads the next batch while the replay decides this one,
 * and the replay yields between batches so that a long simulation neither starves other requests nor misses a client
 * that went away.
 */

/**
 * Replays `query`'s rows `size` at a time through a cursor (openCursor), closed when done or when the replay stops.
 * The next batch is asked for before this one is replayed; between batches other requests get their turn (PGlite
 * answers without leaving the microtask queue) and an aborted `signal` stops the replay with its reason.
 */
export async function replayInBatches<T>(
  database: Database,
  query: SQL,
  size: number,
  signal: AbortSignal,
  replay: (rows: T[]) => Promise<void> | void,
): Promise<void> {
  const cursor = await openCursor<T>(database, query);
  try {
    const ask = () => {
      const batch = cursor.read(size);
      batch.catch(() => {}); // awaited below; left unawaited only when the replay stops
      return batch;
    };
    let next = ask();
    for (;;) {
      await nextTurn();
      if (signal.aborted) throw signal.reason;
      const rows = await next;
      if (rows.length === size) next = ask();
      await replay(rows);
      if (rows.length < size) break;
    }
  } finally {
    await cursor.close();
  }
}
