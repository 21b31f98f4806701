import { describe, expect, it } from 'vitest';
import { nextQuarterInput, snapToQuarter } from './zoned-time.ts';

describe('the pickers keep every time on the 15-minute grid (spec doc 2 §5, §9)', () => {
  it('moves typed minutes such as :07 up to the next quarter and drops seconds', () => {
    expect(snapToQuarter('2026-12-01 14:07:00')).toBe('2026-12-01 14:15:00');
    expect(snapToQuarter('2026-12-01 14:45:31')).toBe('2026-12-01 14:45:00');
    expect(snapToQuarter('2026-12-01 23:52:00')).toBe('2026-12-02 00:00:00');
    expect(snapToQuarter('2026-12-01 09:30:00')).toBe('2026-12-01 09:30:00');
    expect(snapToQuarter('')).toBe('');
  });

  it('offers the next quarter after now as the earliest time of today', () => {
    expect(nextQuarterInput(new Date('2026-12-01T17:07:00.000Z'))).toBe('2026-12-01 14:15:00');
    expect(nextQuarterInput(new Date('2026-12-01T17:15:00.000Z'))).toBe('2026-12-01 14:30:00');
  });
});
