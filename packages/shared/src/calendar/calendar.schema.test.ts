import { describe, expect, it } from 'vitest';
import { calendarMessages, holidaysQuerySchema } from './calendar.schema.ts';

describe('holidays query', () => {
  it('takes a four-digit year in range, or none', () => {
    expect(holidaysQuerySchema.parse({ year: '2026' })).toEqual({ year: 2026 });
    expect(holidaysQuerySchema.parse({})).toEqual({});
  });

  it('refuses anything else in Portuguese', () => {
    for (const year of ['26', '20261', 'abcd', '1899', '2200', '2026.5', ' 2026', '']) {
      const r = holidaysQuerySchema.safeParse({ year });
      expect(r.success, year).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(calendarMessages.yearInvalid);
    }
  });
});
