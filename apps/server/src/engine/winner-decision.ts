import type { Experiment, ExperimentDecision, ExperimentWinner } from '@impeto/shared';
import { storedExperiment } from './arm.ts';

/*
 * Send the winner (issue #25), the pure part: which campaigns do it, what their stored decision says, and which
 * variant wins. The campaign's fan-out goes to the test share only (packages/shared inTestShare: person + momentum,
 * independent of the arm); `hours` later the decision job (timed-jobs.ts 'experiment.decide') reads each variant's rate,
 * stores the decision on the momentum (momentums.experiment_decision) and fans out the rest with the winner's message
 * (arm.ts decideArm: a delivery triggered at or after the decision gets the winner).
 */

export interface WinnerTest {
  experiment: Experiment;
  winner: ExperimentWinner;
}

/** The campaign's send-the-winner test, or null (not a campaign, fewer than 2 variants, no `winner`). */
export function winnerTest(m: { type: string; experiment?: unknown }): WinnerTest | null {
  if (m.type !== 'campaign') return null;
  const experiment = storedExperiment(m.experiment);
  const winner = experiment?.winner;
  if (!experiment || !winner || experiment.variants.length < 2) return null;
  return { experiment, winner };
}

/** The stored decision (momentums.experiment_decision), or null. */
export function storedDecision(value: unknown): ExperimentDecision | null {
  return value && typeof value === 'object' ? (value as ExperimentDecision) : null;
}

/** The winner and when it was chosen, once decided. */
export function decidedWinner(value: unknown): { winner: string; decidedAt: Date } | null {
  const d = storedDecision(value);
  if (!d?.winner || !d.decided_at) return null;
  return { winner: d.winner, decidedAt: new Date(d.decided_at) };
}

export interface ArmRate {
  arm: string;
  /** In %. */
  rate: number;
  successes: number;
  trials: number;
}

/**
 * Each variant's rate on the metric, in the variants' order: click rate = clicks ÷ messages sent; conversion rate =
 * persons converted ÷ persons assigned (as the experiment report counts them).
 */
export function variantRates(
  variants: readonly { name: string }[],
  counters: { arm: string; sent: number; clicked: number; assigned: number; converted: number }[],
  metric: ExperimentWinner['metric'],
): ArmRate[] {
  return variants.map(({ name }) => {
    const c = counters.find((x) => x.arm === name);
    const successes = (metric === 'click_rate' ? c?.clicked : c?.converted) ?? 0;
    const trials = (metric === 'click_rate' ? c?.sent : c?.assigned) ?? 0;
    return { arm: name, rate: trials > 0 ? (successes / trials) * 100 : 0, successes, trials };
  });
}

/** The variant with the highest rate; a tie goes to the first of them (A before B). */
export function pickWinner(rates: ArmRate[]): string {
  let best = rates[0]!;
  for (const r of rates) if (r.rate > best.rate) best = r;
  return best.arm;
}
