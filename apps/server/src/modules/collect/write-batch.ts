import type { Db } from '../../db/client.ts';
import type { StoredEvent } from '../../engine/matcher.ts';
import { recordCatalogue } from './catalogue.ts';
import { recordDcm } from './dcm-counters.ts';
import { withoutErased } from './erased-visitors.ts';
import { writeEvents } from './event-write.ts';
import type { IncomingEvent, VisitorEvent } from './incoming.ts';
import { upsertPersons } from './person-upsert.ts';
import { recordPush } from './push-state.ts';
import { createRollups } from './rollups.ts';
import { recordWorkerReports } from './worker-reports.ts';

/** Writes a batch's events inside the caller's transaction; the events stored are pushed to `stored`. */
export type WriteBatch = (db: Db, events: IncomingEvent[], stored: StoredEvent[]) => Promise<void>;

/**
 * Where a batch is written, in one transaction, stage by stage: the erased visitors' events dropped, the service
 * worker's reports, the persons upserted, the events appended, the GCD counters, the push states, the event
 * catalogue and the daily rollups. Each stage sends multi-row statements, a few per batch, not one per event
 * (push states excepted: one UPDATE per person that opted in or out).
 */
export function createBatchWriter(options: { timeZone?: string } = {}): WriteBatch {
  const rollups = createRollups(options.timeZone);
  return async (db, all, stored) => {
    const batch = await withoutErased(
      db,
      all.filter((item): item is VisitorEvent => item.visitorId !== undefined),
    );
    await recordWorkerReports(
      db,
      all.filter((item) => item.visitorId === undefined),
      stored,
    );
    if (batch.length === 0) return;
    const personUuid = await upsertPersons(db, batch);
    await writeEvents(db, batch, personUuid, stored);
    await recordDcm(db, batch, personUuid);
    await recordPush(db, batch, personUuid);
    await recordCatalogue(db, batch);
    await rollups.record(db, batch, personUuid);
  };
}
