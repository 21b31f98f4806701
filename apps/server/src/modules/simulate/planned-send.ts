import { type MomentumTiming, type SimulationStage, simulateMessages } from '@impeto/shared';
import { isEmailAddress } from '../../channels/email-content.ts';
import { toE164Mobile } from '../../channels/zenvia.ts';
import type { ArmMomentum } from '../../engine/arm.ts';
import type { CompiledMomentum } from '../../engine/matcher.ts';
import { engineMessages } from '../../engine/messages.ts';
import { momentumStopped, OUT_OF_AUDIENCE, passesAudience, unreachableReason } from '../../engine/qualify.ts';
import {
  capDeferral,
  capFullUntil,
  type DomainTiming,
  personZone,
  WEEK_MS,
  worktimeZone,
} from '../../engine/timing.ts';
import { recipientOf } from '../../lib/mask.ts';
import { heldOutAsControl } from './control-group.ts';
import type { SimPerson } from './simulate.queries.ts';
import type { Recipient, Tally } from './tally.ts';

/*
 * A planned send at its due time, decided by the engine's own send-time functions (deliver.ts asks the same ones):
 * the momentum still running (finish date), the audience filter, the channel's reach, the worktime window, the
 * control groups (before the cap, as in the engine: a person held out uses none of it), then the frequency cap. Nothing here is written anywhere: the person's messages are a list kept
 * in memory while the replay runs. A person's attributes are the stored ones, as they are now.
 */

/** The event loop's next turn: the replays wait for it between pages. */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface Simulation {
  m: CompiledMomentum;
  /** What the arm decision reads: the momentum's uuid and experiment, the domain's global control group. */
  arm: ArmMomentum;
  /** The company's time zone (worktime, recurrences). */
  timeZone: string;
  /** The end of the range: what would be sent later is not counted. */
  to: Date;
  cap: { perDay: number | null; perWeek: number | null } | null;
  tally: Tally;
  /** Every message the simulation sends, with its journey step (0: the momentum's own; the agreement tests). */
  onSent?: (personUuid: string, at: Date, step: number) => void;
  /** The momentum's timing options (issue #27), null without. */
  timing: MomentumTiming | null;
  /** The domain's zone, quiet hours and own holidays. */
  domainTiming: DomainTiming;
  /** worktimeDeferral for this momentum on a zone's clock, remembered (see byBlock). */
  worktimeDeferral: (at: Date, zone: string) => Date | null;
  /** quietDeferral on a person's clock, remembered (see byBlock). */
  quietDeferral: (at: Date, zone: string) => Date | null;
  /**
   * The momentum's journey (issue #26), null without steps: the persons whose first message went out (their
   * `entries`) run its steps (journey-replay.ts); each replay hands it a batch of persons once they are replayed.
   */
  journey: {
    run(persons: PersonView[]): Promise<void>;
    /**
     * The page addresses the steps' conditions read, when every condition that reads what the person did reads page
     * views (null otherwise): a page-view replay carries them in its stream (PersonView.pages).
     */
    pageRule: ((url: string) => boolean) | null;
  } | null;
}

/**
 * A deferral of the engine's calendar (worktime, quiet hours) asked once per block of `blockMs` and zone: the
 * calendar's time-zone arithmetic is the slow part of a replay that decides hundreds of thousands of sends, met in any
 * order (person after person). Exact when the rule's windows open and close on block boundaries of UTC: worktime on
 * 10-minute steps of local time (worktimeSchema's HH:m0), quiet hours on whole minutes, and every zone's offset a
 * multiple of 15 minutes (5-minute blocks for worktime, 1-minute blocks for quiet hours); and when an instant is held,
 * every instant before its release is held until that same release (so a closed stretch is asked once: every block
 * in it is given the same release).
 */
export function byBlock(
  deferral: (at: Date, zone: string) => Date | null,
  blockMs: number,
): (at: Date, zone: string) => Date | null {
  const zones = new Map<string, Map<number, number | null>>();
  return (at, zone) => {
    let known = zones.get(zone);
    if (!known) {
      known = new Map();
      zones.set(zone, known);
    }
    const block = Math.floor(at.getTime() / blockMs);
    let release = known.get(block);
    if (release === undefined) {
      release = deferral(new Date(block * blockMs), zone)?.getTime() ?? null;
      known.set(block, release);
      if (release !== null) for (let b = block + 1; b * blockMs < release; b++) known.set(b, release);
    }
    return release === null ? null : new Date(release);
  };
}

/** What the simulation keeps of one person while it replays them. */
export interface PersonView {
  uuid: string;
  /** passesAudience on the stored attributes. */
  passes: boolean;
  /** unreachableReason for the momentum's channel (or the adapter's own refusal of a malformed contact), or null. */
  unreachable: string | null;
  /** unreachableReason alone: whom the fan-out writes a skipped row for (they take no throttle slot). */
  fanOutSkip: boolean;
  /** The person's clock (timing.ts personZone: their browser's zone, else their place's, else the domain's). */
  zone: string;
  /** Only while the sample still takes people. */
  who: Recipient | undefined;
  /** Messages sent or being sent to the person (the real ones of other momentums, then the simulated), epoch ms ascending. */
  sends: number[];
  /** The days (the domain's zone) of the person's simulated messages: distinct people per day. */
  days: Set<string> | null;
  /** With a journey: when each of the person's first messages (step 0) went out, epoch ms in the order recorded. */
  entries?: number[];
  /** The person's stored row, when the replay read it whole (a journey step may use another channel). */
  stored?: SimPerson;
  /** With a journey whose conditions read pages: the person's page views in the range the steps read, in order. */
  pages?: { at: number; url: string }[];
  /** The control group's decision for them (the same at every send), once asked. */
  heldOut?: string | null;
}

/**
 * A phone or address that is there but malformed: the channel's adapter skips it at send time (zenvia.ts, aws-ses.ts,
 * akna.ts), with these reasons, through these same checks.
 */
export function malformedContact(channelType: string | null, p: Pick<SimPerson, 'email' | 'phone'>): string | null {
  if (channelType === 'ZENVIA') return toE164Mobile(p.phone) ? null : 'Telefone do visitante inválido.';
  if (channelType === 'AWS_SES' || channelType === 'AKNA')
    return isEmailAddress(p.email) ? null : 'E-mail do visitante inválido.';
  return null;
}

/** `skip`: unreachableReason when the database already gave it (unreachableReasonSql, the fan-out's own). */
export function personView(
  sim: Simulation,
  p: SimPerson,
  realSends: number[],
  skip: string | null = unreachableReason(sim.m.channelType, { ...p, attributes: p.attributes ?? {} }),
): PersonView {
  const attributes = p.attributes ?? {};
  return {
    uuid: p.uuid,
    passes: passesAudience(sim.m, attributes),
    unreachable: skip ?? malformedContact(sim.m.channelType, p),
    fanOutSkip: skip !== null,
    zone: personZone({ timezone: p.timezone, attributes }, sim.domainTiming.timeZone),
    who: sim.tally.wantsSamples() ? { recipient: recipientOf(sim.m.channelType ?? '', p) } : undefined,
    sends: realSends,
    days: null,
  };
}

export type Decision =
  | { kind: 'sent' }
  | { kind: 'removed'; stage: SimulationStage; reason: string }
  /** Waits until `at` (which may be past the range's end): why, should it still wait when the range ends. */
  | { kind: 'later'; at: Date; stage: SimulationStage; reason: string };

export type Ended = Exclude<Decision, { kind: 'later' }>;
const removed = (stage: SimulationStage, reason: string): Ended => ({ kind: 'removed', stage, reason });

/** The person's messages in the cap's week before `at` (none after it: they had not happened yet). */
function weekBefore(sends: number[], at: number): number[] {
  const out: number[] = [];
  for (const t of sends) if (t > at - WEEK_MS && t <= at) out.push(t);
  return out;
}

/**
 * A journey step's message (issue #26), sent instead of the momentum's own: its channel's reach of the person (with
 * the adapters' contact checks) and that channel's quiet hours. No control group: a step's A/B test holds no one out.
 */
export interface StepSend {
  unreachable: string | null;
  quietDeferral: (at: Date, zone: string) => Date | null;
}

/** What happens to a planned send of `person` due at `at` (the momentum's message, or a journey step's: `step`). */
export function decide(sim: Simulation, person: PersonView, at: Date, step?: StepSend): Decision {
  const { m } = sim;
  const stopped = momentumStopped('Active', m, at);
  if (stopped) return removed('schedule', stopped.error);
  if (!person.passes) return removed('filter', OUT_OF_AUDIENCE.error);
  const unreachable = step ? step.unreachable : person.unreachable;
  if (unreachable) return removed('channel', unreachable);
  const opening = sim.worktimeDeferral(at, worktimeZone(sim.timing, { timezone: person.zone }, sim.timeZone));
  if (opening) return { kind: 'later', at: opening, stage: 'schedule', reason: simulateMessages.waitingWindow };
  // Quiet hours (issue #27): push, SMS and e-mail wait for the window's end on the person's clock.
  const quietEnd = (step?.quietDeferral ?? sim.quietDeferral)(at, person.zone);
  if (quietEnd) return { kind: 'later', at: quietEnd, stage: 'schedule', reason: simulateMessages.waitingQuiet };
  if (!step && person.heldOut === undefined) person.heldOut = heldOutAsControl(sim.arm, person.uuid);
  const heldOut = step ? null : person.heldOut;
  if (heldOut) return removed('control_group', heldOut);
  // Fewer messages in the cap's week than either limit allows cannot fill it (nor its day): no need to ask.
  if (sim.cap && person.sends.length >= Math.min(sim.cap.perDay ?? Infinity, sim.cap.perWeek ?? Infinity)) {
    const full = capFullUntil(weekBefore(person.sends, at.getTime()), at, sim.cap.perDay, sim.cap.perWeek);
    if (full) {
      const later = capDeferral(m, full);
      if (!later) return removed('frequency_cap', engineMessages.frequencyCap);
      return { kind: 'later', at: later, stage: 'frequency_cap', reason: simulateMessages.waitingCap };
    }
  }
  return { kind: 'sent' };
}

/** How a planned send still waiting when the range ends is counted: where it waits. */
export function stillWaiting(
  sim: Simulation,
  person: PersonView,
  at: Date,
  waiting: { stage: SimulationStage; reason: string } | undefined,
  step?: StepSend,
): Ended {
  if (waiting) return removed(waiting.stage, waiting.reason);
  const d = decide(sim, person, at, step);
  return d.kind === 'removed' && (d.stage === 'filter' || d.stage === 'channel')
    ? d
    : removed('schedule', simulateMessages.stillWaiting);
}

/**
 * Records a decision that ended a planned send: the tally, and the person's messages when it went out (on `channel`:
 * a journey step's may differ from the momentum's; `step` 0 is the momentum's own message, which enters the journey).
 */
export function record(sim: Simulation, person: PersonView, at: Date, d: Ended, step = 0, channel?: string) {
  if (d.kind === 'removed') return sim.tally.removed(d.stage, person.uuid, person.who, d.reason, at);
  const t = at.getTime();
  let i = person.sends.length;
  while (i > 0 && person.sends[i - 1]! > t) i--;
  person.sends.splice(i, 0, t);
  // The cap looks a week back: older messages are dropped as the replay moves on.
  while (person.sends.length > 0 && person.sends[0]! <= t - WEEK_MS) person.sends.shift();
  const day = sim.tally.dayOf(at);
  const firstEver = person.days === null;
  person.days ??= new Set();
  const firstToday = !person.days.has(day);
  person.days.add(day);
  sim.tally.sent(person.uuid, person.who, at, firstToday, firstEver, channel);
  if (step === 0 && sim.journey) {
    person.entries ??= [];
    person.entries.push(t);
  }
  sim.onSent?.(person.uuid, at, step);
}

/** The first words a person would have received: the e-mail's subject, the push's title and text, the SMS. */
export function messagePreview(content: Record<string, unknown> | null): string | null {
  if (!content) return null;
  const text = (k: string) => (typeof content[k] === 'string' ? (content[k] as string).trim() : '');
  // An on-site message's words: its title, then its text (topbar, notification box, popup), not its buttons.
  const props = (content.webview_props ?? {}) as Record<string, unknown>;
  const onsite = Object.entries(props)
    .filter(([k, v]) => typeof v === 'string' && v.trim() && /(Title|Content|Text)$/.test(k) && !/Btn|Button/.test(k))
    .sort(([a], [b]) => Number(/Title$/.test(b)) - Number(/Title$/.test(a)))
    .map(([, v]) => (v as string).trim())
    .slice(0, 2)
    .join(' — ');
  const preview =
    onsite ||
    text('subject') ||
    [text('title'), text('message') || text('message_pt')].filter(Boolean).join(' — ') ||
    text('body')
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() ||
    text('name');
  return preview ? preview.slice(0, 200) : null;
}
