import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  hasJourney,
  momentumMessages,
  msg,
  pickTiming,
  type SimulateMomentumBody,
  type SimulationResult,
  simulateMessages,
  type Worktime,
} from '@impeto/shared';
import { z } from 'zod';
import { type CompiledMomentum, compileMomentum } from '../../engine/matcher.ts';
import { type DomainTiming, quietDeferral, worktimeDeferral } from '../../engine/timing.ts';
import type { Principal } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { replayEvents } from './event-replay.ts';
import { createJourneyReplay } from './journey-replay.ts';
import { occurrencesIn, replayOccurrences } from './occurrence-replay.ts';
import { byBlock, messagePreview, type Simulation } from './planned-send.ts';
import * as q from './simulate.queries.ts';
import { createTally } from './tally.ts';
import { replayThrottled } from './throttled-replay.ts';

/*
 * Simulate before sending (issue #28): the momentum as it stands in the editor, saved or not, replayed over the
 * domain's stored events and persons of the last 1, 7 or 30 days by the engine's own decisions, with no writes.
 * One simulation at a time per user (in this process); the caller's signal stops it between pages.
 */

const DAY_MS = 86_400_000;
type Parsed = SimulateMomentumBody;

export interface SimulateOptions {
  /** Every message the simulation sends, person by person, with its journey step (agreement tests). */
  onSent?: (personUuid: string, at: Date, step: number) => void;
}

const invalid = (message: string) => new AppError('SIMULATION_INVALID', 400, message, { momentums: message });

function compile(body: Parsed['momentum'], uuid: string, domainUuid: string): CompiledMomentum {
  let m: CompiledMomentum;
  try {
    m = compileMomentum({
      uuid,
      domainUuid,
      type: body.type,
      status: 'Active',
      version: 0,
      blocks: body.momentums,
      worktime: (body.worktime ?? null) as Worktime | null,
      activatedAt: null,
      // Its timing, as compileStored reads a saved one's: a recurrence on the visitor's clock ticks there.
      timing: pickTiming(body),
    });
  } catch {
    throw invalid(simulateMessages.invalidBlocks);
  }
  // A GCD item is placed in the page by the tag, not sent: it reaches every visitor on the pages it matches.
  if (!m.channelType && body.type === 'dcm' && m.content) return { ...m, channelType: 'CELL_DCM' };
  if (!m.channelType) throw invalid(m.content ? simulateMessages.noChannel : simulateMessages.incomplete);
  if (body.type !== 'campaign' && !m.triggerKind) throw invalid(simulateMessages.incomplete);
  return m;
}

export async function simulate(
  ctx: AppContext,
  principal: Principal,
  input: Parsed,
  signal: AbortSignal,
  options: SimulateOptions = {},
): Promise<SimulationResult> {
  const started = performance.now();
  const body = input.momentum;
  const { companyUuid } = principal;
  if (
    (body.company_uuid !== undefined && body.company_uuid !== companyUuid) ||
    (body.user_uuid !== undefined && body.user_uuid !== principal.userUuid)
  ) {
    throw new AppError('MOMENTUM_IDENTITY_MISMATCH', 403, momentumMessages.identityMismatch);
  }
  const domain = await q.domainSettings(ctx.db, companyUuid, body.domain_uuid);
  if (!domain) throw notFound(msg.common.notFound, 'DOMAIN_NOT_FOUND');
  // The saved item this draft stands for (`uuid`, as the update body names it): its own sends are not counted twice.
  let except: string | null = null;
  if (body.uuid !== undefined) {
    const own = z.uuid().safeParse(body.uuid).success
      ? await q.ownMomentum(ctx.db, companyUuid, body.uuid as string)
      : undefined;
    if (!own) throw notFound(momentumMessages.notFound, 'MOMENTUM_NOT_FOUND');
    except = own.uuid;
  }
  const m = compile(body, except ?? randomUUID(), domain.uuid);

  const to = ctx.clock.now();
  const from = new Date(to.getTime() - input.days * DAY_MS);
  // Journey steps (issue #26): campaigns and GCD items have none (the schema refuses them).
  const steps = hasJourney(body.steps) ? body.steps : null;
  const tally = createTally({
    timeZone: domain.timezone,
    from,
    to,
    channel: m.channelType,
    message: messagePreview(m.content),
    journey: steps !== null,
  });
  // Issue #27: the momentum's timing options and the domain's zone, quiet hours and own holidays (the engine's).
  const timing = m.channelType === 'CELL_DCM' ? null : pickTiming(body);
  const domainTiming: DomainTiming = {
    timeZone: domain.timezone,
    quietHours: domain.quiet_hours ?? null,
    extraHolidays: domain.extra_holidays ?? [],
  };
  const capped = m.channelType !== 'CELL_DCM' && (domain.frequency_cap_day ?? domain.frequency_cap_week) !== null;
  const sim: Simulation = {
    m,
    arm: {
      uuid: m.uuid,
      domain_uuid: domain.uuid,
      experiment: m.channelType === 'CELL_DCM' ? null : (body.experiment ?? null),
      control_group_percent: m.channelType === 'CELL_DCM' ? 0 : domain.control_group_percent,
    },
    timeZone: domain.timezone,
    timing,
    domainTiming,
    to,
    cap: capped ? { perDay: domain.frequency_cap_day, perWeek: domain.frequency_cap_week } : null,
    tally,
    onSent: options.onSent,
    journey: null,
    worktimeDeferral: byBlock((at, zone) => worktimeDeferral(at, m, zone), 5 * 60_000),
    quietDeferral: byBlock(
      (at, zone) => quietDeferral(at, m.channelType, domainTiming.quietHours, { timezone: zone }, domain.timezone),
      60_000,
    ),
  };
  const journey = steps
    ? createJourneyReplay(sim, { db: ctx.db, from, companyUuid, domainUuid: domain.uuid, steps, exit: body.exit })
    : null;
  sim.journey = journey;
  const scope = { db: ctx.db, database: ctx.database, companyUuid, domainUuid: domain.uuid, from, except, signal };
  if (m.triggerKind === 'recurrence' || (body.type === 'campaign' && !m.triggerKind)) {
    const scheduledAt = typeof body.scheduled_at === 'string' ? new Date(body.scheduled_at) : null;
    await replayOccurrences(sim, { ...scope, occurrences: occurrencesIn(sim, from, to, scheduledAt) });
  } else if (timing?.throttle_per_minute) {
    // 'Limite de envios por minuto' links persons in trigger order: replayed in time order across persons.
    await replayThrottled(sim, { ...scope, blocks: body.momentums });
  } else {
    await replayEvents(sim, { ...scope, blocks: body.momentums });
  }
  const result = tally.result(Math.round(performance.now() - started));
  return journey ? { ...result, journey: journey.rows() } : result;
}

/** One simulation at a time per user: a second one while the first runs is refused with 429. */
export function createSimulator(ctx: AppContext) {
  const running = new Set<string>();
  return async (principal: Principal, input: Parsed, signal: AbortSignal, options?: SimulateOptions) => {
    if (running.has(principal.userUuid)) throw new AppError('SIMULATION_BUSY', 429, simulateMessages.busy);
    running.add(principal.userUuid);
    try {
      return await simulate(ctx, principal, input, signal, options);
    } finally {
      running.delete(principal.userUuid);
    }
  };
}
