import { journeyMessages } from '@impeto/shared';
import type { AppContext } from '../lib/context.ts';
import * as q from './deliveries.queries.ts';
import { endPositions, rewindWaitingSteps } from './journey.queries.ts';
import { compileStored } from './matcher.ts';
import type { MatcherCache } from './matcher-cache.ts';
import { engineMessages } from './messages.ts';
import type { TimedSchedule } from './timed-jobs.ts';

/**
 * A momentum was created or changed (the API, or a timed job): every process's matchers of its domain are dropped,
 * its timed jobs scheduled (activation, finish, campaign fan-out, next recurrence), or, when it no longer runs,
 * what it has waiting cancelled.
 */
export function createMomentumLifecycle(
  ctx: Pick<AppContext, 'db' | 'clock' | 'database'>,
  deps: { matchers: MatcherCache; schedule: TimedSchedule },
) {
  const { db, clock } = ctx;
  const { matchers, schedule } = deps;

  return async function momentumChanged(uuid: string) {
    const m = (await q.momentumsByUuid(db, [uuid]))[0];
    if (!m) return;
    matchers.invalidate(m.domain_uuid);
    if (ctx.database.kind === 'postgres') await q.notifyEngine(db, 'impeto_momentums', m.domain_uuid);
    const now = clock.now();
    if (m.status === 'Paused' && m.scheduled_at) await schedule.activation(uuid, m.scheduled_at);
    // Removing it ends its persons' journeys (issue #26); a pause holds them where they are.
    if (m.status === 'Deleted') await endPositions(db, uuid, journeyMessages.exitedRemoved, now);
    if (m.status !== 'Active') {
      // A step message still waiting is cancelled below: its person goes back to that step, to get it on a start.
      if (m.status !== 'Deleted') await rewindWaitingSteps(db, uuid, now);
      const reason = m.status === 'Done' ? engineMessages.finished : engineMessages.notActive;
      await q.cancelWaiting(db, uuid, reason, now);
      await q.dropOnsiteOf(db, uuid);
      return;
    }
    const compiled = compileStored(m);
    if (compiled.finishAt) await schedule.finish(uuid, compiled.finishAt);
    if (m.type === 'campaign' && m.activated_at) await schedule.campaignFanOut(uuid, m.activated_at);
    if (compiled.recurrence) await schedule.nextRecurrence(m, compiled, now, true);
  };
}
