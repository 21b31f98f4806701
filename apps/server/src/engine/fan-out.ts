import type { AppContext } from '../lib/context.ts';
import { FANOUT_PAGE } from './defaults.ts';
import * as q from './deliveries.queries.ts';
import { compileStored } from './matcher.ts';
import { channelEligibleSql } from './qualify.ts';
import { chainOffsets } from './timing.ts';

/**
 * The fan-out stage: one occurrence of a campaign (`c`) or of a recurrence (`r<instant>`) becomes the deliveries of
 * the whole filtered audience, FANOUT_PAGE persons per statement, each given the repeat chain. Safe to run twice
 * (dedupe keys). Answers how many deliveries it created.
 */
export type FanOut = (m: q.DispatchMomentum, occurrence: string, at: Date) => Promise<number>;

export function createFanOut(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>, deps: { wake: () => void }): FanOut {
  const { db, clock, log } = ctx;
  return async (m, occurrence, at) => {
    const compiled = compileStored(m);
    if (!compiled.channelType) return 0;
    let after: string | null = null;
    let total = 0;
    for (;;) {
      const page = await q.fanOutPage(db, {
        domainUuid: m.domain_uuid,
        momentumUuid: m.uuid,
        channelType: compiled.channelType,
        occurrence,
        at,
        offsets: chainOffsets(compiled.repeats),
        where: compiled.filter.where,
        eligible: channelEligibleSql(compiled.channelType),
        after,
        limit: FANOUT_PAGE,
        now: clock.now(),
      });
      total += page.inserted;
      if (page.inserted) deps.wake();
      if (page.n < FANOUT_PAGE || !page.last) break;
      after = page.last;
    }
    log.info({ momentum: m.uuid, occurrence, deliveries: total }, 'momentum distribuído ao público');
    return total;
  };
}
