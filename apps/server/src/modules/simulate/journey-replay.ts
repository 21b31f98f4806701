import {
  DEFAULT_JOURNEY_EXIT,
  type JourneyExit,
  type JourneyStep,
  journeyMessages,
  type SimulationJourneyStep,
  waitMs,
} from '@impeto/shared';
import type { Db } from '../../db/client.ts';
import type { DispatchPerson } from '../../engine/deliveries.queries.ts';
import type { PersonEvent } from '../../engine/journey.queries.ts';
import { compileCondition, optedOut, stepArm, stepContent } from '../../engine/journey.ts';
import { textRule } from '../../engine/matcher.ts';
import { unreachableReason } from '../../engine/qualify.ts';
import { quietDeferral, worktimeZone } from '../../engine/timing.ts';
import { compileFilter } from '../../lib/filter/compile-filter.ts';
import {
  byBlock,
  decide,
  type Ended,
  malformedContact,
  type PersonView,
  record,
  type Simulation,
  type StepSend,
  stillWaiting,
} from './planned-send.ts';
import * as q from './simulate.queries.ts';

/*
 * A journey's steps in the simulation (issue #26), the engine's journey stage (engine/journey.ts) replayed: a person
 * enters when their first message (step 0) goes out and no journey of theirs is running; each step is due its wait
 * after the previous one (the first, after the message), a wait 'no horário de funcionamento' moves to the opening;
 * a conversion while waiting ends the journey at once (exit on conversion, the attribution statement's rule); at the
 * due time the exit rules (conversion, opt-out of the step's channel, the exit filter), then the step's condition on
 * what the person did since the previous step (the engine's compileCondition over the same reads, bounded by the due
 * time), then the step's message as a planned send at that instant (planned-send.ts decide with the step's channel:
 * filter, reach, worktime, quiet hours, cap; its A/B arm by stepArm). A journey that ends lets the person enter again
 * with their next first message.
 *
 * It runs a batch of persons at a time, after the replay decided their first messages (their `entries`): the domain's
 * conversions in the range are read once, and for conditions on pages or events the batch's events in the range in
 * one statement; each step reads its window of them. What it cannot know: a simulated message is never clicked ('not_clicked' holds),
 * and a person's first messages were decided before their steps (a step's message counts against the frequency cap
 * of the steps after it, not of the first messages sent later).
 */

interface Position {
  person: PersonView;
  row: q.SimPerson;
  /** Index in the person's sorted `entries` of the message that entered this journey. */
  entry: number;
  entered: number;
  since: number;
  /** The step waited for, 1..n, and when it is due. */
  step: number;
  due: number;
}

export interface JourneyReplayInput {
  db: Db;
  /** The range's start. */
  from: Date;
  companyUuid: string;
  domainUuid: string;
  steps: JourneyStep[];
  exit: JourneyExit | null | undefined;
}

export function createJourneyReplay(sim: Simulation, input: JourneyReplayInput) {
  const { db, companyUuid, domainUuid, steps } = input;
  const { tally } = sim;
  const end = sim.to.getTime();
  const exit = { ...DEFAULT_JOURNEY_EXIT, ...(input.exit ?? {}) };
  const exitFilter = exit.filter ? compileFilter(exit.filter) : null;
  const conditions = steps.map((s) => compileCondition(s.condition));
  const readsEvents = steps.map(
    (s) => s.condition.kind !== 'not_converted' && s.condition.kind !== 'not_clicked' && s.condition.kind !== 'filter',
  );
  const armRow = { uuid: sim.m.uuid, steps };
  /** The batch's events by person (for those whose pages the replay did not carry). */
  let eventsOf: Map<string, q.JourneyEvent[]> | null = null;
  /**
   * The pages the steps' conditions read, when those that read what the person did all read page views: a page-view
   * replay carries them (PersonView.pages) and no read per batch is needed.
   */
  const pageRule = pageRuleOf(steps);
  /** The domain's conversions in the range by person, read with the first batch. */
  let conversions: Map<string, { at: number }[]> | undefined;
  /** The quiet hours of each step channel, remembered like the momentum's own (byBlock). */
  const quietOf = new Map<string, (at: Date, zone: string) => Date | null>();
  const quietFor = (channel: string) => {
    let f = quietOf.get(channel);
    if (!f) {
      const { quietHours, timeZone } = sim.domainTiming;
      f = byBlock((at, zone) => quietDeferral(at, channel, quietHours, { timezone: zone }, timeZone), 60_000);
      quietOf.set(channel, f);
    }
    return f;
  };

  // The report's rows: step 0, then each step's main row and its 'otherwise' row when it has one.
  const rows: SimulationJourneyStep[] = [{ step: 0, branch: 'main', ...zero() }];
  for (const [i, s] of steps.entries()) {
    rows.push({
      step: i + 1,
      branch: 'main',
      ...zero(),
      ...(s.variants?.length ? { variants: s.variants.map((v) => ({ name: v.name, sent: 0 })) } : {}),
    });
    if (s.otherwise?.length) rows.push({ step: i + 1, branch: 'otherwise', ...zero() });
  }
  const rowOf = (step: number, branch: 'main' | 'otherwise') =>
    rows.find((r) => r.step === step && r.branch === branch)!;

  /** The person's journey ended at `at`: they enter again with their next first message at or after it. */
  function next(p: Position, at: number, out: Position[]) {
    const entries = p.person.entries!;
    let i = p.entry + 1;
    while (i < entries.length && entries[i]! < at) i++;
    if (i < entries.length) out.push(enter(p.person, p.row, i));
  }

  function enter(person: PersonView, row: q.SimPerson, entry: number): Position {
    const entered = person.entries![entry]!;
    rowOf(0, 'main').reached++;
    return { person, row, entry, entered, since: entered, step: 1, due: entered + waitMs(steps[0]!.wait) };
  }

  /**
   * A step's exit or failed condition: the planned send it would have been is removed at the journey's stage. An exit
   * while waiting (a conversion) is not counted as reaching the step, as the journey report counts it.
   */
  function leave(p: Position, at: number, how: 'exited' | 'left_by_condition', reason: string, waiting = false) {
    const row = rowOf(p.step, 'main');
    if (!waiting) row.reached++;
    row[how]++;
    tally.enter();
    tally.removed('journey', p.person.uuid, p.person.who, reason, new Date(at));
  }

  /** The step's message, planned at `at` on `branch`, decided at its due time until it ends or the range does. */
  function send(p: Position, at: number, branch: 'main' | 'otherwise') {
    const step = steps[p.step - 1]!;
    const content = stepContent(step, branch === 'otherwise' ? 'otherwise' : null)!;
    const channel = content.filter;
    const target: StepSend = {
      unreachable:
        unreachableReason(channel, { ...p.row, attributes: p.row.attributes ?? {} }) ??
        malformedContact(channel, p.row),
      quietDeferral: quietFor(channel),
    };
    tally.enter();
    let due = at;
    let waiting: Parameters<typeof stillWaiting>[3];
    let d: Ended | undefined;
    while (!d) {
      if (due >= end) {
        d = stillWaiting(sim, p.person, new Date(end - 1), waiting, target);
        due = end - 1;
        break;
      }
      const decided = decide(sim, p.person, new Date(due), target);
      if (decided.kind === 'later') {
        due = decided.at.getTime();
        waiting = { stage: decided.stage, reason: decided.reason };
      } else d = decided;
    }
    record(sim, p.person, new Date(due), d, p.step, channel);
    if (d.kind !== 'sent') return;
    const row = rowOf(p.step, branch);
    row.sent++;
    const arm = stepArm(armRow, p.person.uuid, p.step, branch === 'otherwise' ? 'otherwise' : null).arm;
    const variant = arm ? row.variants?.find((v) => v.name === arm) : undefined;
    if (variant) variant.sent++;
  }

  /** What the step's condition reads of what the person did since the previous step (the engine's first 500). */
  function eventsIn(p: Position, until: number): PersonEvent[] {
    const carried = p.person.pages;
    if (carried) {
      const out: PersonEvent[] = [];
      for (const e of carried) {
        if (e.at >= p.since && e.at <= until && out.length < 500)
          out.push({ id: '', kind: 'pageview', url: e.url, category: null, props: null });
      }
      return out;
    }
    return (eventsOf?.get(p.person.uuid) ?? [])
      .filter((e) => e.at >= p.since && e.at <= until)
      .slice(0, 500)
      .map((e) => ({ ...e, id: '' }));
  }

  return {
    rows: () => rows,
    pageRule,
    /** Runs the journeys of a batch of replayed persons (those whose first message went out). */
    async run(persons: PersonView[]) {
      const entering = persons.filter((p) => p.entries?.length);
      if (entering.length === 0) return;
      // The persons' rows, unless the replay read them whole.
      const unread = entering.filter((p) => !p.stored).map((p) => p.uuid);
      const people = unread.length ? await q.journeyPersons(db, companyUuid, domainUuid, unread) : [];
      const rowOfPerson = new Map(people.map((r) => [r.uuid, r]));
      conversions ??= byPerson(await q.journeyConversions(db, companyUuid, domainUuid, input.from, sim.to));
      // Page and event conditions read the batch's events in the range (unless the replay's stream carried the pages
      // they read), each step its window of them.
      const uncarried = readsEvents.some(Boolean) ? entering.filter((p) => !p.pages).map((p) => p.uuid) : [];
      eventsOf = uncarried.length
        ? byPerson(await q.journeyEvents(db, companyUuid, domainUuid, uncarried, input.from, sim.to))
        : null;
      let active: Position[] = [];
      for (const person of entering) {
        const row = person.stored ?? rowOfPerson.get(person.uuid);
        if (!row) continue;
        person.entries!.sort((a, b) => a - b);
        // Step 0's messages: every first message sent, also those sent while the person's journey ran.
        rowOf(0, 'main').sent += person.entries!.length;
        active.push(enter(person, row, 0));
      }
      while (active.length > 0) {
        const later: Position[] = [];
        for (const p of active) {
          const until = Math.min(p.due, end);
          const bought = conversions.get(p.person.uuid);
          // A conversion while waiting ends the journey then (the attribution statement's exit).
          const firstConversion = bought?.find((c) => c.at >= p.entered && c.at <= until)?.at;
          if (exit.on_conversion && firstConversion !== undefined) {
            const at = firstConversion;
            leave(p, at, 'exited', journeyMessages.exitedConversion, true);
            next(p, at, later);
            continue;
          }
          if (p.due >= end) {
            rowOf(p.step, 'main').waiting++;
            continue;
          }
          const step = steps[p.step - 1]!;
          if (step.wait.worktime) {
            const zone = worktimeZone(sim.timing, { timezone: p.person.zone }, sim.timeZone);
            const opening = sim.worktimeDeferral(new Date(p.due), zone);
            if (opening) {
              later.push({ ...p, due: opening.getTime() });
              continue;
            }
          }
          const attributes = p.row.attributes ?? {};
          if (
            exit.on_opt_out &&
            optedOut(stepContent(step, null)?.filter ?? '', { ...p.row, attributes } as DispatchPerson)
          ) {
            leave(p, p.due, 'exited', journeyMessages.exitedOptOut);
            next(p, p.due, later);
            continue;
          }
          if (exitFilter?.matches({ attributes })) {
            leave(p, p.due, 'exited', journeyMessages.exitedFilter);
            next(p, p.due, later);
            continue;
          }
          const holds = conditions[p.step - 1]!({
            facts: {
              id: '',
              converted_entered: false,
              converted_since: bought?.some((c) => c.at >= p.since && c.at <= until) ?? false,
              clicked_previous: false,
            },
            // The engine's reading: the first 500 since the previous step.
            events: readsEvents[p.step - 1] ? eventsIn(p, until) : [],
            attributes,
          });
          const branch = holds ? 'main' : step.otherwise?.length ? 'otherwise' : null;
          if (!branch) {
            leave(p, p.due, 'left_by_condition', journeyMessages.leftByCondition);
            next(p, p.due, later);
            continue;
          }
          const main = rowOf(p.step, 'main');
          main.reached++;
          if (branch === 'otherwise') rowOf(p.step, 'otherwise').reached++;
          send(p, p.due, branch);
          const following = steps[p.step];
          if (following) {
            later.push({ ...p, step: p.step + 1, since: p.due, due: p.due + waitMs(following.wait) });
          } else next(p, p.due, later);
        }
        active = later;
      }
    },
  };
}

/** The page addresses the steps' page conditions read; null when a condition reads events (or none reads pages). */
function pageRuleOf(steps: JourneyStep[]): ((url: string) => boolean) | null {
  const rules: ((url: string) => boolean)[] = [];
  for (const { condition: c } of steps) {
    if (c.kind === 'event' || c.kind === 'no_event') return null;
    if (c.kind === 'viewed_page' || c.kind === 'not_viewed_page')
      rules.push(textRule(c.comparation ?? 'contain', c.value, false, true));
  }
  return rules.length ? (url) => rules.some((r) => r(url)) : null;
}

/** Rows by person, each person's in the order read (time). */
function byPerson<T extends { person_uuid: string }>(rows: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const list = out.get(r.person_uuid);
    if (list) list.push(r);
    else out.set(r.person_uuid, [r]);
  }
  return out;
}

function zero() {
  return { reached: 0, exited: 0, left_by_condition: 0, waiting: 0, sent: 0 };
}
