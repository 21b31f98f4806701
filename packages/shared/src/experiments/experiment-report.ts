/*
 * The answer of GET /api/analytics/:domainUuid/momentum/:momentumUuid/experiment?start=&end= (issue #25): per arm
 * (the control group and each variant) what the per-arm daily counters hold over the range, each variant against
 * the control by conversion rate, and the variants against each other by click rate.
 */

import type { WinnerMetric } from './experiment.schema.ts';

export interface ExperimentArmRow {
  /** 'control', or a variant's name ('A' for a message tested against a control group alone). */
  arm: string;
  /** 'Grupo de controle', 'Variante A' or 'Mensagem'. */
  label: string;
  /** The share of persons the arm was given (%). */
  share: number;
  /** Persons assigned in the range (their first decision in this momentum). */
  assigned: number;
  sent: number;
  viewed: number;
  clicked: number;
  /** Conversions (orders) by the arm's persons within the click window after their message (or its absence). */
  conversions: number;
  /** Persons of the arm who converted at least once. */
  converted: number;
  /** In reais. */
  revenue: number;
  /** converted ÷ assigned, in %. */
  conversion_rate: number;
  /** clicked ÷ sent, in %. */
  click_rate: number;
}

export interface ExperimentComparison {
  /** The variant compared with the control (or, by click rate, with `against`). */
  arm: string;
  against: string;
  lift_pp: number;
  ci_low_pp: number | null;
  ci_high_pp: number | null;
  p_value: number | null;
  significant: boolean;
}

export interface ExperimentVsControl extends ExperimentComparison {
  /** (revenue per assigned person of the variant − the control's) × the variant's assigned persons, in reais. */
  incremental_revenue: number;
  /** The sentence the report shows ('A variante B converte 1,8 p.p. a mais que o controle (…)'). */
  verdict: string;
}

export interface ExperimentDailyRow {
  date: string;
  arm: string;
  assigned: number;
  sent: number;
  clicked: number;
  converted: number;
  conversions: number;
}

/** A campaign's send-the-winner test (experiment.winner) and, once taken, its decision. */
export interface ExperimentWinnerReport {
  test_percent: number;
  hours: number;
  metric: WinnerMetric;
  /** When the decision is due (the test share's fan-out + hours); null before the campaign went out. */
  planned_at: string | null;
  /** When the winner was chosen and the rest queued; null before. */
  decided_at: string | null;
  winner: string | null;
  /** Each variant's rate on the metric at decision time (%), with its counts (clicks ÷ sent, converted ÷ assigned). */
  rates: { arm: string; rate: number; successes: number; trials: number }[];
  /** Persons of the rest queued the winner's message (held-out ones not counted). */
  rest: number | null;
}

export interface ExperimentReport {
  momentum_uuid: string;
  momentum_title: string;
  type: string;
  control_percent: number;
  /** The variants' names in order; empty for a control group alone. */
  variants: string[];
  arms: ExperimentArmRow[];
  /** Each variant against the control, by conversion rate; empty without a control group. */
  against_control: ExperimentVsControl[];
  /** Each pair of variants by click rate (the first against the second). */
  by_click_rate: ExperimentComparison[];
  daily: ExperimentDailyRow[];
  /** Send the winner (campaigns): the test and its decision; null without. */
  winner?: ExperimentWinnerReport | null;
  start: string;
  end: string;
}

export const armLabel = (arm: string, hasVariants: boolean) =>
  arm === 'control' ? 'Grupo de controle' : hasVariants ? `Variante ${arm}` : 'Mensagem';
