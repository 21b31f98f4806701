import {
  assignArm,
  CONTROL_ARM,
  type DispatcherValues,
  type Experiment,
  GLOBAL_CONTROL_ARM,
  inGlobalControl,
} from '@impeto/shared';
import { engineMessages } from './messages.ts';
import { decidedWinner } from './winner-decision.ts';

/*
 * The experiment stage of a claimed delivery (issue #25), pure: which arm the person is in (packages/shared
 * assignArm: person + momentum; inGlobalControl: person + domain), whether that arm holds them out (a `skipped`
 * outcome with the reason, before the frequency cap is asked) and which variant's message goes out. The simulator
 * calls the same function. A momentum without `experiment` in a domain without a global group: no arm, its own
 * message, exactly as before.
 */

/** What the send stage reads of a momentum for its experiment. */
export interface ArmMomentum {
  uuid: string;
  domain_uuid: string;
  /** The stored `experiment` (validated when saved), or null. */
  experiment?: unknown;
  /** The domain's global control group, 0–20 %. */
  control_group_percent?: number | null;
  /** Send the winner (campaigns): the stored decision (momentums.experiment_decision), or null before it. */
  experiment_decision?: unknown;
}

export interface ArmDecision {
  /** Recorded on the delivery: 'global', 'control', a variant's name, or null without an experiment. */
  arm: string | null;
  /** Why nothing is sent (the skipped delivery's reason), or null. */
  heldOut: string | null;
  /** The variant's message, or null for the dispatcher block's own. */
  content: (DispatcherValues & Record<string, unknown>) | null;
}

export const NO_ARM: ArmDecision = { arm: null, heldOut: null, content: null };

/** The stored experiment, or null when absent or not one (a row written by hand). */
export function storedExperiment(value: unknown): Experiment | null {
  if (!value || typeof value !== 'object') return null;
  const e = value as Partial<Experiment>;
  if (typeof e.control_percent !== 'number' || !Array.isArray(e.variants)) return null;
  return e as Experiment;
}

/**
 * `triggerAt`: the delivery's trigger. A campaign that sends the winner (winner-decision.ts) gives the winner's
 * message to deliveries triggered at or after its decision (the rest, or anyone a resumed campaign reaches since);
 * those of the test keep their own variant.
 */
export function decideArm(m: ArmMomentum, personUuid: string, triggerAt?: Date): ArmDecision {
  if (inGlobalControl(personUuid, m.domain_uuid, m.control_group_percent)) {
    return { arm: GLOBAL_CONTROL_ARM, heldOut: engineMessages.globalControlGroup, content: null };
  }
  const experiment = storedExperiment(m.experiment);
  const arm = assignArm(personUuid, m.uuid, experiment);
  if (arm === null || !experiment) return NO_ARM;
  if (arm === CONTROL_ARM) return { arm, heldOut: engineMessages.controlGroup, content: null };
  const decided = experiment.winner ? decidedWinner(m.experiment_decision) : null;
  const name = decided && triggerAt && triggerAt >= decided.decidedAt ? decided.winner : arm;
  const variant = experiment.variants.find((v) => v.name === name);
  return { arm: name, heldOut: null, content: (variant?.values[0] as ArmDecision['content']) ?? null };
}
