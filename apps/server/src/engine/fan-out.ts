import { inTestShare } from '@impeto/shared';
import type { AppContext } from '../lib/context.ts';
import { decideArm } from './arm.ts';
import { FANOUT_PAGE } from './defaults.ts';
import * as q from './deliveries.queries.ts';
import { type CompiledMomentum, compileStored } from './matcher.ts';
import { unreachableReasonSql } from './qualify.ts';
import { busiestHour, insertPlannedPage, mostActiveHours, plannedPage } from './timing.queries.ts';
import { chainOffsets, createSendPlanner, createThrottle, type DomainTiming, needsPlan, personZone } from './timing.ts';
import { decidedWinner, winnerTest } from './winner-decision.ts';

/**
 * The fan-out stage: one occurrence of a campaign (`c`) or of a recurrence (`r<instant>`) becomes the deliveries of
 * the whole filtered audience, FANOUT_PAGE persons per statement, each given the repeat chain; a person the channel
 * cannot reach gets one `skipped` row with the reason in the same statement (qualify.ts, reachability). Safe to run
 * twice (dedupe keys). Answers how many deliveries it queued.
 *
 * With timing options or the domain's quiet hours (issue #27) each person's first send is planned (timing.ts
 * planFirstSend: their local time or best hour, holidays, quiet hours; then the throttle's slot) and the page is
 * written with its due times; without them every person is due at the occurrence, in one statement, as before.
 *
 * A campaign that sends the winner (issue #25, winner-decision.ts) reaches part of its audience per fan-out
 * (audienceShare), on the planned path: before the decision its test share; from the decision on (the decision's own
 * fan-out, a resumed campaign's) the rest.
 */
export type FanOut = (m: q.DispatchMomentum, occurrence: string, at: Date) => Promise<number>;

const DAY_MS = 86_400_000;
/** Best time reads the last 30 days of each person's activity. */
const BEST_TIME_DAYS = 30;

/**
 * Which persons of the audience a fan-out at `at` reaches when the campaign sends the winner; null: all of them.
 * Before the decision: the test share only (the variants and the control group split it as usual: a held-out person
 * gets a skipped row). From the decision on: the persons not in the test share and not held out (control group,
 * global group), who get the winner (arm.ts decideArm, by the delivery's trigger). The rest's held-out persons get no
 * row: they were never going to receive it.
 */
export function audienceShare(m: q.DispatchMomentum, at: Date): ((personUuid: string) => boolean) | null {
  const test = winnerTest(m);
  if (!test) return null;
  const percent = test.winner.test_percent;
  const decided = decidedWinner(m.experiment_decision);
  if (!decided || at < decided.decidedAt) return (p) => inTestShare(p, m.uuid, percent);
  return (p) => !inTestShare(p, m.uuid, percent) && !decideArm(m, p, at).heldOut;
}

export function createFanOut(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>, deps: { wake: () => void }): FanOut {
  const { db, clock, log } = ctx;

  /** The planned path: one page read, each person's due time decided in timing.ts, the page inserted. */
  const plannedFanOut = async (
    m: q.DispatchMomentum,
    compiled: CompiledMomentum,
    domain: DomainTiming,
    occurrence: string,
    at: Date,
    share: ((personUuid: string) => boolean) | null,
  ) => {
    const channelType = compiled.channelType!;
    const timing = m.timing ?? null;
    const skipReason = unreachableReasonSql(channelType);
    const offsets = chainOffsets(compiled.repeats);
    const throttle = timing?.throttle_per_minute ? createThrottle(at, timing.throttle_per_minute) : null;
    const since = new Date(at.getTime() - BEST_TIME_DAYS * DAY_MS);
    const domainHour = timing?.best_time
      ? await busiestHour(db, { domainUuid: m.domain_uuid, zone: domain.timeZone, since, until: at })
      : null;
    const plan = createSendPlanner({
      at,
      timing,
      domain,
      channelType,
      visitorRecurrence: compiled.recurrenceOnVisitorClock ? compiled.recurrence!.hours : null,
      activatedAt: m.activated_at,
      dropHolidays: compiled.recurrence?.period === 'daily',
      worktime: compiled.worktime,
    });
    let after: string | null = null;
    let total = 0;
    let skipped = 0;
    for (;;) {
      const read = await plannedPage(db, {
        domainUuid: m.domain_uuid,
        where: compiled.filter.where,
        skipReason,
        after,
        limit: FANOUT_PAGE,
      });
      const page = share ? read.filter((p) => share(p.uuid)) : read;
      const zones = page.map((p) => ({ uuid: p.uuid, zone: personZone(p, domain.timeZone) }));
      const hours = timing?.best_time
        ? await mostActiveHours(db, {
            domainUuid: m.domain_uuid,
            zones: zones.filter((_, i) => page[i]!.skip === null),
            since,
            until: at,
          })
        : null;
      const firsts: { u: string; d: number }[] = [];
      const skips: { u: string; r: string }[] = [];
      page.forEach((p, i) => {
        if (p.skip !== null) {
          skips.push({ u: p.uuid, r: p.skip });
          return;
        }
        const planned = plan(zones[i]!.zone, hours?.get(p.uuid) ?? domainHour);
        if (!planned) return;
        firsts.push({ u: p.uuid, d: (throttle ? throttle.slot(planned) : planned).getTime() });
      });
      const written = await insertPlannedPage(db, {
        domainUuid: m.domain_uuid,
        momentumUuid: m.uuid,
        channelType,
        occurrence,
        at,
        offsets,
        firsts,
        skips,
        now: clock.now(),
      });
      total += written.queued;
      skipped += written.skipped;
      if (written.queued) deps.wake();
      if (read.length < FANOUT_PAGE) break;
      after = read[read.length - 1]!.uuid;
    }
    return { total, skipped };
  };

  return async (m, occurrence, at) => {
    const compiled = compileStored(m);
    if (!compiled.channelType) return 0;
    const domain: DomainTiming = {
      timeZone: m.time_zone,
      quietHours: m.quiet_hours ?? null,
      extraHolidays: m.extra_holidays ?? [],
    };
    const share = audienceShare(m, at);
    if (share || needsPlan(m.timing ?? null, domain, compiled.channelType)) {
      const { total, skipped } = await plannedFanOut(m, compiled, domain, occurrence, at, share);
      log.info({ momentum: m.uuid, occurrence, deliveries: total, skipped }, 'momentum distribuído ao público');
      return total;
    }
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
