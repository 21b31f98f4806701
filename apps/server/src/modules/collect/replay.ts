import type { AppContext } from '../../lib/context.ts';
import { deleteStaleMarks } from './batch-marks.ts';
import { type Batch, eventCount, requestsInSegment } from './incoming.ts';
import type { Spool } from './spool.ts';

/**
 * Replays the spool segments of processes that died, one batch at a time, through `store` (exactly once: see
 * batch-marks.ts); returns the events stored. Every orphan is replayed, so the marks older than a day go after.
 */
export async function replayDeadSegments(
  ctx: AppContext,
  spool: Spool | undefined,
  store: (batch: Batch) => Promise<number>,
) {
  if (!spool) return 0;
  let replayed = 0;
  for (const segment of spool.orphans()) {
    const requests = requestsInSegment(ctx.log, spool, segment);
    if (!requests) continue;
    const events = eventCount(requests);
    ctx.log.info({ file: segment.file, events }, 'coletor: lote do spool regravado após queda');
    replayed += await store({ requests, events, segment });
  }
  await deleteStaleMarks(ctx.db);
  return replayed;
}
