import { z } from '../../zod.ts';
import { m } from './common.ts';

/** Seconds per unit (spec doc 2 §9; a month is 30 days). */
export const INTERVAL_UNITS = { A: 31536000, M: 2592000, D: 86400, h: 3600, m: 60, s: 1 } as const;
type IntervalUnit = keyof typeof INTERVAL_UNITS;

export class IntervalError extends Error {
  readonly hint = m.intervalHint;
  constructor() {
    super(m.intervalError);
  }
}

/** '1D 4h 30m' → 102600. Parts are a number followed by one unit letter (case matters: M month, m minute). */
export function parseInterval(text: string): number {
  const trimmed = text.trim();
  if (!/^(?:\d{1,9}[AMDhms]\s*)+$/.test(trimmed)) throw new IntervalError();
  let seconds = 0;
  for (const [, n, unit] of trimmed.matchAll(/(\d+)([AMDhms])/g))
    seconds += Number(n) * INTERVAL_UNITS[unit as IntervalUnit];
  if (!Number.isSafeInteger(seconds)) throw new IntervalError();
  return seconds;
}

/** 102600 → '1D 4h 30m'; greedy from the largest unit; 0 → '0s'. */
export function formatInterval(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new IntervalError();
  if (seconds === 0) return '0s';
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of Object.entries(INTERVAL_UNITS)) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join(' ');
}

/** An interval text field that yields seconds. */
export const intervalSchema = z.string({ error: m.intervalError }).transform((text, ctx) => {
  try {
    return parseInterval(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: m.intervalError });
    return z.NEVER;
  }
});
