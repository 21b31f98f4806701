import { describe, expect, it } from 'vitest';
import { brazilianHolidays, easterSunday, isHoliday, nextNonHoliday } from './holidays.ts';

// Written by hand from published calendars, not from the code: Carnaval Monday and Tuesday, Sexta-feira Santa and
// Corpus Christi of each year.
const MOVEABLE: Record<number, [string, string, string, string]> = {
  2024: ['02-12', '02-13', '03-29', '05-30'],
  2025: ['03-03', '03-04', '04-18', '06-19'],
  2026: ['02-16', '02-17', '04-03', '06-04'],
  2027: ['02-08', '02-09', '03-26', '05-27'],
  2028: ['02-28', '02-29', '04-14', '06-15'],
  2029: ['02-12', '02-13', '03-30', '05-31'],
  2030: ['03-04', '03-05', '04-19', '06-20'],
};
const FIXED = ['01-01', '04-21', '05-01', '09-07', '10-12', '11-02', '11-15', '11-20', '12-25'];

describe('Brazilian national holidays', () => {
  for (const [year, moveable] of Object.entries(MOVEABLE)) {
    it(`are the 13 dates of ${year}, in order, each named`, () => {
      const expected = [...FIXED, ...moveable].map((md) => `${year}-${md}`).sort();
      const holidays = brazilianHolidays(Number(year));
      expect(holidays.map((h) => h.date)).toEqual(expected);
      for (const h of holidays) expect(h.name.length).toBeGreaterThan(3);
    });
  }

  it('name the days in Portuguese', () => {
    const names = Object.fromEntries(brazilianHolidays(2026).map((h) => [h.date, h.name]));
    expect(names).toMatchObject({
      '2026-01-01': 'Confraternização Universal',
      '2026-02-16': 'Carnaval (segunda-feira)',
      '2026-02-17': 'Carnaval (terça-feira)',
      '2026-04-03': 'Sexta-feira Santa',
      '2026-04-21': 'Tiradentes',
      '2026-06-04': 'Corpus Christi',
      '2026-09-07': 'Independência do Brasil',
      '2026-10-12': 'Nossa Senhora Aparecida',
      '2026-11-02': 'Finados',
      '2026-11-15': 'Proclamação da República',
      '2026-11-20': 'Dia Nacional de Zumbi e da Consciência Negra',
      '2026-12-25': 'Natal',
    });
  });

  it('count Consciência Negra as national only from 2024 (Lei 14.759/2023)', () => {
    expect(brazilianHolidays(2023).map((h) => h.date)).not.toContain('2023-11-20');
    expect(brazilianHolidays(2024).map((h) => h.date)).toContain('2024-11-20');
  });

  it('find Easter at its earliest and latest dates', () => {
    expect(easterSunday(2008).toISOString().slice(0, 10)).toBe('2008-03-23');
    expect(easterSunday(2038).toISOString().slice(0, 10)).toBe('2038-04-25');
    expect(easterSunday(1943).toISOString().slice(0, 10)).toBe('1943-04-25');
    expect(easterSunday(2000).toISOString().slice(0, 10)).toBe('2000-04-23');
  });

  it('tell a holiday, with the domain’s own dates, and the next day that is not one', () => {
    expect(isHoliday('2026-02-16')).toBe(true);
    expect(isHoliday('2026-02-18')).toBe(false);
    expect(isHoliday('2026-01-25')).toBe(false);
    expect(isHoliday('2026-01-25', ['2026-01-25'])).toBe(true);
    expect(nextNonHoliday('2026-02-16')).toBe('2026-02-18');
    expect(nextNonHoliday('2026-02-18')).toBe('2026-02-18');
    expect(nextNonHoliday('2026-12-25', ['2026-12-26'])).toBe('2026-12-27');
    expect(nextNonHoliday('2026-12-31', ['2026-12-31'])).toBe('2027-01-02');
  });
});
