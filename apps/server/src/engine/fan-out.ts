import type { AppContext } from '../lib/context.ts';
import { FANOUT_PAGE } from './defaults.ts';
import * as q from './deliveries.queries.ts';
import { compileStored } from './matcher.ts';
import { unreachableReasonSql } from './qualify.ts';
import { chainOffsets } from './timing.ts';

/**
 * The fan-out stage: one occurrence of a campaign (`c`) or of a recurrence (`r<instant>`) becomes the deliveries of
 * the whole filtered audience, FANOUT_PAGE persons per statement, each given the repeat chain; a person the channel
 * cannot reach gets one `skipped` row with the reason in the same statement (qualify.ts, reachability). Safe to run
 * twice (dedupe keys). Answers how many deliveries it queued.
 */
export type FanOut = (m: q.DispatchMomentum, occurrence: string, at: Date) => Promise<number>;

export function createFanOut(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>, deps: { wake: () => void }): FanOut {
  const { db, clock, log } = ctx;
  return async (m, occurrence, at) => {
    const compiled = compileStored(m);
    if (!compiled.channelType) return 0;
    const skipReason = unreachableReasonSql(compiled.channelType);
    let after: string | null = null;
    let total = 0;
    let skipped = 0;
    for (;;) {
      const page = await q.fanOutPage(db, {
        domainUuid: m.domain_uuid,
        momentumUuid: m.uuid,
        channelType: compiled.channelType,
        occurrence,
        at,
        offsets: chainOffsets(compiled.repeats),
        where: compiled.filter.where,
        skipReason,
        after,
        limit: FANOUT_PAGE,
        now: clock.now(),
      });
      total += page.inserted;
      skipped += page.skipped;
      if (page.inserted) deps.wake();
      if (page.n < FANOUT_PAGE || !page.last) break;
      after = page.last;
    }
    log.info({ momentum: m.uuid, occurrence, deliveries: total, skipped }, 'momentum distribuído ao público');
    return total;
  };
}
