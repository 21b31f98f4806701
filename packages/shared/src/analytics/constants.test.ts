import { describe, expect, it } from 'vitest';
import { analyticsRangeSchema } from './analytics.schema.ts';
import { isAnalyticsRange } from './constants.ts';

describe('isAnalyticsRange (the zod-free check the dashboard uses on first load)', () => {
  it('agrees with analyticsRangeSchema', () => {
    const cases: [unknown, unknown][] = [
      ['2026-03-01', '2026-03-31'],
      ['2026-03-31', '2026-03-01'],
      ['2026-02-30', '2026-03-01'],
      ['2026-3-1', '2026-03-02'],
      ['2025-01-01', '2026-01-01'],
      ['2025-01-01', '2026-01-02'],
      ['2026-03-01', '2026-03-01'],
      [null, '2026-03-01'],
      ['', ''],
      ['2026-03-01T00:00', '2026-03-02'],
    ];
    for (const [start, end] of cases) {
      expect(isAnalyticsRange(start, end), `${start} → ${end}`).toBe(
        analyticsRangeSchema.safeParse({ start, end }).success,
      );
    }
  });
});
