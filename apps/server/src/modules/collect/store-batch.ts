import type { StoredEvent } from '../../engine/matcher.ts';
import type { AppContext } from '../../lib/context.ts';
import { claimSegment, type ForgottenMarks } from './batch-marks.ts';
import type { HandOver } from './hand-over.ts';
import { type Batch, eventsOf } from './incoming.ts';
import type { StoreSplit } from './split-refused.ts';
import type { Spool } from './spool.ts';
import type { Transact } from './transact.ts';
import type { WriteBatch } from './write-batch.ts';

/**
 * One batch's way to the database: claim its segment and write it in one transaction (write-batch.ts), hand the
 * stored events over (hand-over.ts), then remove its spool segment. A replayed batch stored before is matched again
 * instead; a refused one is split (split-refused.ts). `store` resolves with the events stored now (0: already
 * stored before, or kept in the spool because the process stops while the database is away).
 */
export function createBatchStore(
  ctx: AppContext,
  stages: {
    spool: Spool | undefined;
    transact: Transact;
    write: WriteBatch;
    forgotten: ForgottenMarks;
    handOver: HandOver;
    storeSplit: StoreSplit;
  },
) {
  const { spool, transact, write, forgotten, handOver, storeSplit } = stages;
  let stored = 0;

  const store = async ({ requests, events: count, segment }: Batch): Promise<number> => {
    const events = requests.flatMap(eventsOf);
    const gone = forgotten.take();
    const whole = await transact(async (db) => {
      const state = segment ? await claimSegment(db, segment, gone) : ('fresh' as const);
      const storedNow: StoredEvent[] = [];
      if (state === 'fresh') await write(db, events, storedNow);
      return { state, storedNow };
    });
    if (!whole.ok) forgotten.later(gone);

    let fresh = 0;
    let matched: StoredEvent[];
    const marks = segment ? [segment.id] : [];
    if (whole.ok && whole.value.state === 'fresh') {
      fresh = events.length;
      matched = whole.value.storedNow;
    } else if (whole.ok && whole.value.state === 'stored') {
      // A replayed batch stored before the crash may not have been matched yet: match its stored events again
      // (matching is idempotent: deliveries carry a dedupe key). The file goes only after matching.
      matched = await handOver.storedAgain(events);
    } else {
      const split =
        'away' in whole ? undefined : await storeSplit(requests, segment, whole.ok ? undefined : whole.refused);
      if (!split) {
        ctx.log.error(
          { events: count, file: segment?.file },
          segment
            ? 'coletor: banco indisponível ao parar; lote mantido no spool para a próxima partida'
            : 'coletor: banco indisponível ao parar; lote descartado (spool desligado)',
        );
        return 0;
      }
      fresh = split.fresh;
      matched = split.matched;
      marks.push(...split.marks);
    }
    stored += fresh;
    await handOver.handOver(matched);
    if (segment) {
      await spool!.done(segment).then(
        () => forgotten.later(marks),
        (err) => ctx.log.error({ err, file: segment.file }, 'coletor: lote gravado, arquivo do spool não removido'),
      );
    }
    return fresh;
  };

  return {
    store,
    /** Events written so far. */
    stored: () => stored,
  };
}
