import { type SimulationStage, simulateMessages } from '@impeto/shared';
import { isEmailAddress } from '../../channels/email-content.ts';
import { toE164Mobile } from '../../channels/zenvia.ts';
import type { ArmMomentum } from '../../engine/arm.ts';
import type { CompiledMomentum } from '../../engine/matcher.ts';
import { engineMessages } from '../../engine/messages.ts';
import { momentumStopped, OUT_OF_AUDIENCE, passesAudience, unreachableReason } from '../../engine/qualify.ts';
import { capDeferral, capFullUntil, WEEK_MS } from '../../engine/timing.ts';
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
  /** Every message the simulation sends (the agreement tests list the people). */
  onSent?: (personUuid: string, at: Date) => void;
  /** worktimeDeferral for this momentum, remembered (see byBlock). */
  worktimeDeferral: (at: Date) => Date | null;
}

/**
 * The engine's worktimeDeferral asked once per 5 minutes, and once per closed stretch: the calendar's time-zone
 * arithmetic is the slow part of a replay that decides hundreds of thousands of sends. Exact because a window opens
 * and closes on 10-minute steps of local time (worktimeSchema's HH:m0) and every zone's offset is a multiple of 15
 * minutes, so the window's state only changes on 5-minute boundaries of UTC; and when an instant is closed, every
 * instant before the next opening is closed and waits for that same opening.
 */
export function byBlock(deferral: (at: Date) => Date | null): (at: Date) => Date | null {
  const BLOCK_MS = 5 * 60_000;
  const known = new Map<number, number | null>();
  let closed: { from: number; until: number } | null = null;
  return (at) => {
    const t = at.getTime();
    if (closed && t >= closed.from && t < closed.until) return new Date(closed.until);
    const block = Math.floor(t / BLOCK_MS);
    let opening = known.get(block);
    if (opening === undefined) {
      opening = deferral(new Date(block * BLOCK_MS))?.getTime() ?? null;
      known.set(block, opening);
    }
    if (opening === null) return null;
    closed = { from: block * BLOCK_MS, until: opening };
    return new Date(opening);
  };
}

/** What the simulation keeps of one person while it replays them. */
export interface PersonView {
  uuid: string;
  /** passesAudience on the stored attributes. */
  passes: boolean;
  /** unreachableReason for the momentum's channel, or null. */
  unreachable: string | null;
  /** Only while the sample still takes people. */
  who: Recipient | undefined;
  /** Messages sent or being sent to the person (the real ones of other momentums, then the simulated), epoch ms ascending. */
  sends: number[];
  /** The day of the person's last simulated message, and whether there was one. */
  lastDay: string | null;
}

/**
 * A phone or address that is there but malformed: the channel's adapter skips it at send time (zenvia.ts, aws-ses.ts,
 * akna.ts), with these reasons, through these same checks.
 */
function malformedContact(channelType: string | null, p: Pick<SimPerson, 'email' | 'phone'>): string | null {
  if (channelType === 'ZENVIA') return toE164Mobile(p.phone) ? null : 'Telefone do visitante inválido.';
  if (channelType === 'AWS_SES' || channelType === 'AKNA')
    return isEmailAddress(p.email) ? null : 'E-mail do visitante inválido.';
  return null;
}

export function personView(sim: Simulation, p: SimPerson, realSends: number[]): PersonView {
  const attributes = p.attributes ?? {};
  return {
    uuid: p.uuid,
    passes: passesAudience(sim.m, attributes),
    unreachable: unreachableReason(sim.m.channelType, { ...p, attributes }) ?? malformedContact(sim.m.channelType, p),
    who: sim.tally.wantsSamples() ? { recipient: recipientOf(sim.m.channelType ?? '', p) } : undefined,
    sends: realSends,
    lastDay: null,
  };
}

export type Decision =
  | { kind: 'sent' }
  | { kind: 'removed'; stage: SimulationStage; reason: string }
  /** Waits until `at` (which may be past the range's end): why, should it still wait when the range ends. */
  | { kind: 'later'; at: Date; stage: SimulationStage; reason: string };

type Ended = Exclude<Decision, { kind: 'later' }>;
const removed = (stage: SimulationStage, reason: string): Ended => ({ kind: 'removed', stage, reason });

/** The person's messages in the cap's week before `at` (none after it: they had not happened yet). */
function weekBefore(sends: number[], at: number): number[] {
  const out: number[] = [];
  for (const t of sends) if (t > at - WEEK_MS && t <= at) out.push(t);
  return out;
}

/** What happens to a planned send of `person` due at `at`. */
export function decide(sim: Simulation, person: PersonView, at: Date): Decision {
  const { m } = sim;
  const stopped = momentumStopped('Active', m, at);
  if (stopped) return removed('schedule', stopped.error);
  if (!person.passes) return removed('filter', OUT_OF_AUDIENCE.error);
  if (person.unreachable) return removed('channel', person.unreachable);
  const opening = sim.worktimeDeferral(at);
  if (opening) return { kind: 'later', at: opening, stage: 'schedule', reason: simulateMessages.waitingWindow };
  const heldOut = heldOutAsControl(sim.arm, person.uuid);
  if (heldOut) return removed('control_group', heldOut);
  if (sim.cap) {
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
): Ended {
  if (waiting) return removed(waiting.stage, waiting.reason);
  const d = decide(sim, person, at);
  return d.kind === 'removed' && (d.stage === 'filter' || d.stage === 'channel')
    ? d
    : removed('schedule', simulateMessages.stillWaiting);
}

/** Records a decision that ended a planned send: the tally, and the person's messages when it went out. */
export function record(sim: Simulation, person: PersonView, at: Date, d: Ended) {
  if (d.kind === 'removed') return sim.tally.removed(d.stage, person.uuid, person.who, d.reason, at);
  const t = at.getTime();
  let i = person.sends.length;
  while (i > 0 && person.sends[i - 1]! > t) i--;
  person.sends.splice(i, 0, t);
  // The cap looks a week back: older messages are dropped as the replay moves on.
  while (person.sends.length > 0 && person.sends[0]! <= t - WEEK_MS) person.sends.shift();
  const day = sim.tally.dayOf(at);
  sim.tally.sent(person.uuid, person.who, at, day !== person.lastDay, person.lastDay === null);
  person.lastDay = day;
  sim.onSent?.(person.uuid, at);
}

/** The first words a person would have received: the e-mail's subject, the push's title and text, the SMS. */
export function messagePreview(content: Record<string, unknown> | null): string | null {
  if (!content) return null;
  const text = (k: string) => (typeof content[k] === 'string' ? (content[k] as string).trim() : '');
  const preview =
    text('subject') ||
    [text('title'), text('message') || text('message_pt')].filter(Boolean).join(' — ') ||
    text('body')
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim() ||
    text('name');
  return preview ? preview.slice(0, 200) : null;
}
