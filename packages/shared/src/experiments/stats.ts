/*
 * The statistics of an experiment's report, zod-free: a variant against the control by conversion rate (lift in
 * percentage points, its 95 % confidence interval, the two-sided p-value), variants against each other by click
 * rate, and how many more persons per group a difference of the observed size needs to show (power 80 %).
 * Textbook formulas: the Wald interval of a difference of proportions (unpooled standard error), the two-proportion
 * z-test (pooled), and the sample size of Fleiss (no continuity correction).
 */

export const Z_95 = 1.959963984540054;
export const Z_POWER_80 = 0.8416212335729143;

/** erfc with a fractional error below 1.2e-7 (Numerical Recipes' Chebyshev fit). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** P(Z ≤ z) for a standard normal Z. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

export interface Proportion {
  /** Persons who did it (converted, clicked). */
  successes: number;
  /** Persons it was measured over (assigned, sent). */
  trials: number;
}

export interface ProportionComparison {
  /** Rate of the first group minus the second's, in percentage points. */
  lift_pp: number;
  /** The 95 % confidence interval of that difference, in percentage points. */
  ci_low_pp: number;
  ci_high_pp: number;
  /** Two-sided p-value of the difference (null when either group is empty or no one in either did it). */
  p_value: number | null;
  /** The difference is significant at 5 %: p < 0.05 and the interval leaves out zero. */
  significant: boolean;
}

const rate = (p: Proportion) => (p.trials > 0 ? p.successes / p.trials : 0);

/** `a` against `b` (a variant against the control): lift, interval and p-value. */
export function compareProportions(a: Proportion, b: Proportion): ProportionComparison {
  const pa = rate(a);
  const pb = rate(b);
  const diff = pa - pb;
  if (a.trials === 0 || b.trials === 0) {
    return { lift_pp: diff * 100, ci_low_pp: Number.NaN, ci_high_pp: Number.NaN, p_value: null, significant: false };
  }
  const se = Math.sqrt((pa * (1 - pa)) / a.trials + (pb * (1 - pb)) / b.trials);
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const sePooled = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  const p = sePooled > 0 ? 2 * (1 - normalCdf(Math.abs(diff) / sePooled)) : null;
  const low = diff - Z_95 * se;
  const high = diff + Z_95 * se;
  return {
    lift_pp: diff * 100,
    ci_low_pp: low * 100,
    ci_high_pp: high * 100,
    p_value: p,
    significant: p !== null && p < 0.05 && (low > 0 || high < 0),
  };
}

/**
 * Persons per group that detect the difference between rates p1 and p2 with a two-sided test at 5 % and power 80 %
 * (Fleiss, without continuity correction), rounded up; null when the rates are equal.
 */
export function sampleSizePerGroup(p1: number, p2: number): number | null {
  const d = Math.abs(p2 - p1);
  if (!(d > 0)) return null;
  const mean = (p1 + p2) / 2;
  const n =
    (Z_95 * Math.sqrt(2 * mean * (1 - mean)) + Z_POWER_80 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / d ** 2;
  return Math.ceil(n - 1e-9);
}

/** Relative effect assumed when the observed rates are equal: a tenth of the control's rate. */
export const DEFAULT_RELATIVE_EFFECT = 0.1;

/**
 * How many more persons each group needs before a difference of the observed size (a tenth of the control's rate
 * when none is observed yet) would show, rounded up to two significant figures ('cerca de'); at least 1 while the
 * result is not significant. Null when no one in either group converted yet (no rate to plan from).
 */
export function personsStillNeeded(variant: Proportion, control: Proportion): number | null {
  const pc = rate(control);
  const pv = rate(variant);
  if (variant.successes + control.successes === 0) return null;
  const needed =
    pv !== pc ? sampleSizePerGroup(pc, pv) : sampleSizePerGroup(pc, Math.min(pc * (1 + DEFAULT_RELATIVE_EFFECT), 1));
  if (needed === null) return null;
  const missing = needed - Math.min(variant.trials, control.trials);
  return missing <= 0 ? 1 : roundUpTwoFigures(missing);
}

function roundUpTwoFigures(n: number): number {
  if (n < 100) return Math.ceil(n);
  const step = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.ceil(n / step) * step;
}
