import { describe, expect, it } from 'vitest';
import { isWithinWorktime, nextRecurrence, nextWorktimeOpening } from './schedule.ts';

const SP = 'America/Sao_Paulo';
// Friday 2026-11-20 18:30 in São Paulo is 21:30 UTC (UTC-3, no daylight saving time).
const fridayEvening = new Date('2026-11-20T21:30:00.000Z');
const businessHours = { weekdays: [1, 2, 3, 4, 5], start_at: '09:00', stop_at: '18:00' };

describe('worktime', () => {
  it('is open inside the window, in the company time zone', () => {
    expect(isWithinWorktime(new Date('2026-11-20T12:00:00.000Z'), businessHours, SP)).toBe(true); // 09:00 local
    expect(isWithinWorktime(new Date('2026-11-20T11:59:00.000Z'), businessHours, SP)).toBe(false); // 08:59 local
    expect(isWithinWorktime(new Date('2026-11-20T21:00:00.000Z'), businessHours, SP)).toBe(false); // 18:00 local
  });

  it('defers a Friday-evening message across the weekend to Monday 09:00 local', () => {
    expect(nextWorktimeOpening(fridayEvening, businessHours, SP).toISOString()).toBe('2026-11-23T12:00:00.000Z');
  });

  it('waits for the same day opening in the morning', () => {
    expect(nextWorktimeOpening(new Date('2026-11-18T10:00:00.000Z'), businessHours, SP).toISOString()).toBe(
      '2026-11-18T12:00:00.000Z',
    );
  });

  it('runs overnight windows into the next morning', () => {
    const night = { weekdays: [5], start_at: '22:00', stop_at: '06:00' };
    expect(isWithinWorktime(new Date('2026-11-21T02:00:00.000Z'), night, SP)).toBe(true); // Fri 23:00
    expect(isWithinWorktime(new Date('2026-11-21T08:00:00.000Z'), night, SP)).toBe(true); // Sat 05:00
    expect(isWithinWorktime(new Date('2026-11-21T10:00:00.000Z'), night, SP)).toBe(false); // Sat 07:00
  });

  it('is always open without a complete window', () => {
    expect(isWithinWorktime(fridayEvening, null, SP)).toBe(true);
    expect(isWithinWorktime(fridayEvening, { weekdays: [], start_at: '', stop_at: '' }, SP)).toBe(true);
    expect(nextWorktimeOpening(fridayEvening, undefined, SP)).toBe(fridayEvening);
  });
});

describe('recurrence', () => {
  it('daily at HH:mm local, today when still ahead, else tomorrow', () => {
    const at = new Date('2026-11-20T12:00:00.000Z'); // 09:00 local
    expect(nextRecurrence(at, { period: 'daily', hours: '10:30' }, SP).toISOString()).toBe('2026-11-20T13:30:00.000Z');
    expect(nextRecurrence(at, { period: 'daily', hours: '08:00' }, SP).toISOString()).toBe('2026-11-21T11:00:00.000Z');
  });

  it('weekly on the named weekday', () => {
    expect(nextRecurrence(fridayEvening, { period: 'weekly', value: 'monday', hours: '08:00' }, SP).toISOString()).toBe(
      '2026-11-23T11:00:00.000Z',
    );
    // Friday 18:30 local, weekly on friday at 18:00: already past → next Friday.
    expect(nextRecurrence(fridayEvening, { period: 'weekly', value: 'friday', hours: '18:00' }, SP).toISOString()).toBe(
      '2026-11-27T21:00:00.000Z',
    );
  });

  it('monthly on day DD from month MM, clamped to the last day of shorter months (A-43)', () => {
    const rule = { period: 'monthly' as const, value: '01-31', hours: '09:00' };
    const first = nextRecurrence(fridayEvening, rule, SP);
    expect(first.toISOString()).toBe('2027-01-31T12:00:00.000Z');
    const second = nextRecurrence(first, rule, SP, fridayEvening);
    expect(second.toISOString()).toBe('2027-02-28T12:00:00.000Z');
    expect(nextRecurrence(second, rule, SP, fridayEvening).toISOString()).toBe('2027-03-31T12:00:00.000Z');
    // MM already this month: runs this month when the day is still ahead.
    expect(nextRecurrence(fridayEvening, { period: 'monthly', value: '11-25', hours: '09:00' }, SP).toISOString()).toBe(
      '2026-11-25T12:00:00.000Z',
    );
  });
});
