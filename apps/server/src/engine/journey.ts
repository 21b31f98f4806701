import {
  assignArm,
  DEFAULT_JOURNEY_EXIT,
  hasJourney,
  type JourneyExit,
  type JourneyStep,
  journeyMessages,
  type StepCondition,
  waitMs,
} from '@impeto/shared';
import type { AppContext } from '../lib/context.ts';
import { type CompiledFilter, compileFilter } from '../lib/filter/compile-filter.ts';
import { type ArmDecision, NO_ARM } from './arm.ts';
import * as q from './deliveries.queries.ts';
import * as jq from './journey.queries.ts';
import { type CompiledMomentum, textRule, tryCompileStored } from './matcher.ts';
import { engineMessages } from './messages.ts';
import { unreachableReason } from './qualify.ts';
import { worktimeDeferral, worktimeZone } from './timing.ts';

/*
 * The journey stage (issue #26, DESIGN.md §13). A person whose step-0 message went out has a position (the outcome
 * recorder inserts it in the statement that records the send: deliveries.queries.ts recordOutcomes); this stage claims
 * due positions of active momentums under the deliveries' lease (the sweeper hands back a dead worker's), and for each
 * one: the exit rules first (converted since entering, opted out of the step's channel, matches the exit filter →
 * 'exited'), then the step's condition on what the person did since the previous step (conversions, the previous
 * message's click, page views and events, a person filter: the same predicate and text rules triggers use), then the
 * step's message is inserted as a delivery (keyed by position and step, so a rerun never sends twice: the send stage
 * applies caps, quiet hours, worktime) and the position advances (next step due after its wait, or 'done'), all in
 * one transaction per batch. A failed condition without 'otherwise' leaves the journey ('left').
 */

/** A momentum's journey as the stage and the send stage read it. */
interface Journey {
  row: q.DispatchMomentum;
  compiled: CompiledMomentum;
  steps: JourneyStep[];
  exit: JourneyExit;
  exitFilter: CompiledFilter | null;
  /** Each step's condition as a test (filters compiled once). */
  conditions: ((input: ConditionInput) => boolean)[];
  /** Whether its exit rules, conditions or waits read the person's row (else the pass does not load it). */
  readsPerson: boolean;
}

interface ConditionInput {
  facts: jq.PositionFacts | undefined;
  events: jq.PersonEvent[];
  attributes: Record<string, unknown>;
}

/** The stored steps of a momentum, or null when it has none (the spec's momentum). */
export const storedSteps = (value: unknown): JourneyStep[] | null =>
  Array.isArray(value) && hasJourney(value as JourneyStep[]) ? (value as JourneyStep[]) : null;

const anyEvent = (
  events: jq.PersonEvent[],
  c: Extract<StepCondition, { kind: 'event' | 'no_event' }>,
  rule: ((text: string) => boolean) | null,
) =>
  events.some((e) => {
    if (e.kind !== 'event' || e.category !== c.category) return false;
    if (!rule || !c.key) return true;
    const v = e.props?.[c.key];
    return rule(v === undefined || v === null ? '' : String(v));
  });

/** A step's condition as a test of what the person did since the previous step. */
export function compileCondition(c: StepCondition): (input: ConditionInput) => boolean {
  switch (c.kind) {
    case 'not_converted':
      return (i) => !i.facts?.converted_since;
    case 'not_clicked':
      return (i) => !i.facts?.clicked_previous;
    case 'viewed_page':
    case 'not_viewed_page': {
      const rule = textRule(c.comparation ?? 'contain', c.value, false, true);
      const viewed = (i: ConditionInput) =>
        i.events.some((e) => e.kind === 'pageview' && e.url !== null && rule(e.url));
      return c.kind === 'viewed_page' ? viewed : (i) => !viewed(i);
    }
    case 'event':
    case 'no_event': {
      const rule = c.key && c.value?.length ? textRule(c.comparation ?? '==', c.value, false, false) : null;
      return c.kind === 'event' ? (i) => anyEvent(i.events, c, rule) : (i) => !anyEvent(i.events, c, rule);
    }
    case 'filter': {
      const f = compileFilter(c.filter);
      return (i) => f.matches({ attributes: i.attributes });
    }
  }
}

const needsEvents = (c: StepCondition | undefined) =>
  c !== undefined && c.kind !== 'not_converted' && c.kind !== 'not_clicked' && c.kind !== 'filter';

/** The message a step sends on a branch: its channel and content. */
export const stepContent = (step: JourneyStep | undefined, branch: string | null) =>
  (branch === 'otherwise' ? step?.otherwise?.[0] : step?.values[0]) as
    | (Record<string, unknown> & { filter: string })
    | undefined;

/**
 * What the send stage sends for a delivery of journey step `step` (≥ 1): the momentum compiled with the step's channel
 * and content, no repeats and no abandon goal (the step's condition said whether to send). Null when the momentum no
 * longer has that step (edited while the delivery waited).
 */
export function stepCompiled(
  compiled: CompiledMomentum,
  row: q.DispatchMomentum,
  step: number,
  branch: string | null,
): CompiledMomentum | null {
  const content = stepContent(storedSteps(row.steps)?.[step - 1], branch);
  if (!content) return null;
  return { ...compiled, channelType: content.filter, content, repeats: [], triggerKind: null };
}

/**
 * The A/B arm of a delivery of journey step `step` (≥ 1) on its main branch, when the step's message has variants:
 * assignArm over the person and '<momentum uuid>:<step>' with the variants' weights (stable across retries, workers
 * and restarts; no control group), the variant's name recorded on the delivery and its message sent. NO_ARM for a
 * step without variants, an 'otherwise' message, or a step the momentum no longer has.
 */
export function stepArm(
  row: Pick<q.DispatchMomentum, 'uuid' | 'steps'>,
  personUuid: string,
  step: number,
  branch: string | null,
): ArmDecision {
  const variants = branch === 'otherwise' ? null : storedSteps(row.steps)?.[step - 1]?.variants;
  if (!variants?.length) return NO_ARM;
  const arm = assignArm(personUuid, `${row.uuid}:${step}`, { control_percent: 0, variants });
  const variant = variants.find((v) => v.name === arm);
  if (!arm || !variant) return NO_ARM;
  return { arm, heldOut: null, content: variant.values[0] as ArmDecision['content'] };
}

/** Stands for the person in journeys whose rules read nothing of them. */
const UNREAD_PERSON: q.DispatchPerson = Object.freeze({
  uuid: '',
  visitor_id: '',
  email: null,
  phone: null,
  push_subscription: null,
  push_status: null,
  attributes: {},
  timezone: null,
});

/** Has the person opted out of the channel (push unsubscribed, SMS or e-mail opt-out)? */
export const optedOut = (channelType: string, p: q.DispatchPerson) => {
  if (channelType === 'CELL_NOTIFICATION') return p.push_status === 'unsubscribed';
  const reason = unreachableReason(channelType, p);
  return reason === engineMessages.smsOptOut || reason === engineMessages.emailOptOut;
};

export function createJourneys(
  ctx: Pick<AppContext, 'db' | 'clock' | 'log'>,
  deps: { wake: () => void; batchSize: number },
) {
  const { db, clock, log } = ctx;
  const uniq = <T>(list: T[]) => [...new Set(list)];

  const journeyOf = (row: q.DispatchMomentum): Journey | null => {
    const compiled = tryCompileStored(row, log);
    const steps = storedSteps(row.steps);
    if (!compiled || !steps) return null;
    const exit = { ...DEFAULT_JOURNEY_EXIT, ...((row.journey_exit as JourneyExit | null) ?? {}) };
    try {
      return {
        row,
        compiled,
        steps,
        exit,
        exitFilter: exit.filter ? compileFilter(exit.filter) : null,
        conditions: steps.map((s) => compileCondition(s.condition)),
        readsPerson:
          exit.on_opt_out ||
          Boolean(exit.filter) ||
          steps.some((s) => s.condition.kind === 'filter' || s.wait.worktime),
      };
    } catch (err) {
      log.warn({ err, momentum: row.uuid }, 'jornada ignorada: etapas inválidas');
      return null;
    }
  };

  /** One pass: claims due positions, decides each, writes the batch. Answers how many positions it handled. */
  return async function journeyPass(): Promise<number> {
    const now = clock.now();
    const claimed = await jq.claimDuePositions(db, now, deps.batchSize);
    if (claimed.length === 0) return 0;
    const moms = await q.momentumsByUuid(db, uniq(claimed.map((c) => c.momentum_uuid)));
    const journeys = new Map(moms.map((m) => [m.uuid, journeyOf(m)]));
    // Persons are read only for journeys whose rules read them (opt-out, exit filter, filter condition, worktime).
    const reading = claimed.filter((c) => journeys.get(c.momentum_uuid)?.readsPerson);
    const clicks = new Set(
      claimed
        .filter((c) => journeys.get(c.momentum_uuid)?.steps[c.step - 1]?.condition.kind === 'not_clicked')
        .map((c) => c.id),
    );
    const [people, facts] = await Promise.all([
      reading.length ? q.personsByUuid(db, uniq(reading.map((c) => c.person_uuid))) : [],
      jq.positionFacts(db, claimed, clicks),
    ]);
    const personOf = new Map(people.map((p) => [p.uuid, p]));
    const factsOf = new Map(facts.map((f) => [f.id, f]));
    const withEvents = claimed.filter((c) => needsEvents(journeys.get(c.momentum_uuid)?.steps[c.step - 1]?.condition));
    const eventsOf = new Map<string, jq.PersonEvent[]>();
    if (withEvents.length) {
      for (const e of await jq.eventsSince(db, withEvents)) {
        const list = eventsOf.get(e.id);
        if (list) list.push(e);
        else eventsOf.set(e.id, [e]);
      }
    }

    const deliveries: jq.StepDelivery[] = [];
    const moves: jq.PositionMove[] = [];
    for (const c of claimed) {
      const j = journeys.get(c.momentum_uuid);
      const person = j && !j.readsPerson ? UNREAD_PERSON : personOf.get(c.person_uuid);
      const end = (state: 'done' | 'left' | 'exited', reason: string | null) =>
        moves.push({ id: c.id, lockedAt: c.locked_at, state, step: c.step, dueAt: now, sinceAt: null, reason });
      if (!j || !person) {
        // A paused journey edited to have no steps has nothing left to run; a momentum whose blocks no longer
        // compile (or a person gone) ends it.
        const row = moms.find((m) => m.uuid === c.momentum_uuid);
        if (row && !storedSteps(row.steps)) end('done', null);
        else end('exited', journeyMessages.exitedRemoved);
        continue;
      }
      const step = j.steps[c.step - 1];
      // A paused momentum edited to fewer steps: those past its last step have finished it.
      if (!step) {
        end('done', null);
        continue;
      }
      if (step.wait.worktime) {
        const opening = worktimeDeferral(now, j.compiled, worktimeZone(j.row.timing, person, j.row.time_zone));
        if (opening) {
          moves.push({
            id: c.id,
            lockedAt: c.locked_at,
            state: 'waiting',
            step: c.step,
            dueAt: opening,
            sinceAt: null,
            reason: null,
          });
          continue;
        }
      }
      const f = factsOf.get(c.id);
      const channel = stepContent(step, null)?.filter ?? '';
      if (j.exit.on_conversion && f?.converted_entered) {
        end('exited', journeyMessages.exitedConversion);
        continue;
      }
      if (j.exit.on_opt_out && optedOut(channel, person)) {
        end('exited', journeyMessages.exitedOptOut);
        continue;
      }
      if (j.exitFilter?.matches({ attributes: person.attributes })) {
        end('exited', journeyMessages.exitedFilter);
        continue;
      }
      const holds = j.conditions[c.step - 1]!({
        facts: f,
        events: eventsOf.get(c.id) ?? [],
        attributes: person.attributes,
      });
      const branch = holds ? null : step.otherwise?.length ? ('otherwise' as const) : undefined;
      if (branch === undefined) {
        end('left', journeyMessages.leftByCondition);
        continue;
      }
      deliveries.push({
        domainUuid: c.domain_uuid,
        momentumUuid: c.momentum_uuid,
        personUuid: c.person_uuid,
        channelType: stepContent(step, branch)!.filter,
        dedupeKey: `${c.momentum_uuid}:${c.person_uuid}:j:${c.id}:${c.step}`,
        step: c.step,
        branch,
      });
      const next = j.steps[c.step];
      if (next) {
        moves.push({
          id: c.id,
          lockedAt: c.locked_at,
          state: 'waiting',
          step: c.step + 1,
          dueAt: new Date(now.getTime() + waitMs(next.wait)),
          sinceAt: now,
          reason: null,
        });
      } else end('done', null);
    }
    const inserted = await jq.advancePositions(db, deliveries, moves, clock.now());
    if (inserted) deps.wake();
    return claimed.length;
  };
}
