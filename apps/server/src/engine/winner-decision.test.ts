import { describe, expect, it } from 'vitest';
import { decidedWinner, pickWinner, variantRates, winnerTest } from './winner-decision.ts';

/* Send the winner's pure part (issue #25): which items do it, each variant's rate, the winner, the stored decision. */

const variants = [
  { name: 'A', weight: 50, values: [] },
  { name: 'B', weight: 50, values: [] },
];
const winner = { test_percent: 20, hours: 4, metric: 'click_rate' as const };

describe('send the winner, decided', () => {
  it('is a campaign with 2 or more variants and the option; a momentum or a control group alone is not', () => {
    expect(winnerTest({ type: 'campaign', experiment: { control_percent: 0, variants, winner } })?.winner).toEqual(
      winner,
    );
    expect(winnerTest({ type: 'momentum', experiment: { control_percent: 0, variants, winner } })).toBeNull();
    expect(winnerTest({ type: 'campaign', experiment: { control_percent: 10, variants: [], winner } })).toBeNull();
    expect(winnerTest({ type: 'campaign', experiment: { control_percent: 0, variants } })).toBeNull();
    expect(winnerTest({ type: 'campaign', experiment: null })).toBeNull();
  });

  it('reads clicks ÷ sent or converted ÷ assigned per variant, 0 without trials, in the variants’ order', () => {
    const counters = [
      { arm: 'control', sent: 0, clicked: 0, assigned: 50, converted: 5 },
      { arm: 'B', sent: 80, clicked: 20, assigned: 90, converted: 9 },
    ];
    expect(variantRates(variants, counters, 'click_rate')).toEqual([
      { arm: 'A', rate: 0, successes: 0, trials: 0 },
      { arm: 'B', rate: 25, successes: 20, trials: 80 },
    ]);
    expect(variantRates(variants, counters, 'conversion_rate')[1]).toEqual({
      arm: 'B',
      rate: 10,
      successes: 9,
      trials: 90,
    });
  });

  it('picks the highest rate, a tie going to the first variant', () => {
    const rate = (arm: string, r: number) => ({ arm, rate: r, successes: 0, trials: 0 });
    expect(pickWinner([rate('A', 1), rate('B', 3), rate('C', 2)])).toBe('B');
    expect(pickWinner([rate('A', 2), rate('B', 2)])).toBe('A');
    expect(pickWinner([rate('A', 0), rate('B', 0), rate('C', 0)])).toBe('A');
  });

  it('knows a decision only once it has a winner and an instant (a plan alone is not one)', () => {
    expect(decidedWinner(null)).toBeNull();
    expect(decidedWinner({ planned_at: '2026-05-04T17:00:00.000Z' })).toBeNull();
    expect(decidedWinner({ decided_at: '2026-05-04T17:00:00.000Z', winner: 'B' })).toEqual({
      winner: 'B',
      decidedAt: new Date('2026-05-04T17:00:00.000Z'),
    });
  });
});
