import { describe, expect, it } from 'vitest';
import {
  createThrottle,
  type DomainTiming,
  nextLocalHour,
  nextLocalTime,
  personZone,
  planFirstSend,
  quietDeferral,
  quietHoursEnd,
  skipHolidays,
  throttledEnd,
  throttledSlot,
  worktimeZone,
} from './timing.ts';

/* Issue #27's timing rules, pure: zones, local time, best hour, holidays, quiet hours and the throttle's slots. */

const iso = (d: Date) => d.toISOString();
const SP = 'America/Sao_Paulo';
const domain: DomainTiming = { timeZone: SP, quietHours: null, extraHolidays: [] };

describe('a person’s zone', () => {
  it('is the browser’s, else the place’s, else the domain’s', () => {
    const acre = { 'client.location.country': 'BR', 'client.location.region': 'Acre' };
    expect(personZone({ timezone: 'America/Manaus', attributes: acre }, SP)).toBe('America/Manaus');
    expect(personZone({ timezone: 'Mars/Olympus', attributes: acre }, SP)).toBe('America/Rio_Branco');
    expect(personZone({ timezone: null, attributes: acre }, SP)).toBe('America/Rio_Branco');
    expect(personZone({ timezone: null, attributes: {} }, 'Europe/Lisbon')).toBe('Europe/Lisbon');
  });
});

describe('the clock a rule reads', () => {
  const acre = { timezone: null, attributes: { 'client.location.country': 'BR', 'client.location.region': 'AC' } };
  it('is the domain’s for worktime, or the visitor’s with worktime_zone: visitor', () => {
    expect(worktimeZone(null, acre, SP)).toBe(SP);
    expect(worktimeZone({ worktime_zone: 'domain' }, acre, SP)).toBe(SP);
    expect(worktimeZone({ worktime_zone: 'visitor' }, acre, SP)).toBe('America/Rio_Branco');
  });

  it('is the visitor’s for quiet hours at send time, on push, SMS and e-mail only', () => {
    const quiet = { start: '22:00', end: '08:00' };
    const at = new Date('2026-03-11T02:30:00Z'); // 23:30 in São Paulo, 21:30 in Acre
    expect(quietDeferral(at, 'CELL_NOTIFICATION', quiet, acre, SP)).toBeNull();
    expect(iso(quietDeferral(at, 'AKNA', quiet, { timezone: SP }, SP)!)).toBe('2026-03-11T11:00:00.000Z');
    expect(quietDeferral(at, 'SUPERARE_WEBVIEW', quiet, { timezone: SP }, SP)).toBeNull();
    expect(quietDeferral(at, 'ZENVIA', null, { timezone: SP }, SP)).toBeNull();
  });
});

describe('local time', () => {
  it('finds the next HH:MM on each visitor’s clock within 24 hours', () => {
    const at = new Date('2026-03-10T12:00:00Z'); // 09:00 in São Paulo
    expect(iso(nextLocalTime(at, '10:00', SP))).toBe('2026-03-10T13:00:00.000Z');
    expect(iso(nextLocalTime(at, '10:00', 'America/Noronha'))).toBe('2026-03-10T12:00:00.000Z');
    expect(iso(nextLocalTime(at, '10:00', 'America/Manaus'))).toBe('2026-03-10T14:00:00.000Z');
    expect(iso(nextLocalTime(at, '10:00', 'America/Rio_Branco'))).toBe('2026-03-10T15:00:00.000Z');
    // Already past 08:00 in São Paulo: tomorrow.
    expect(iso(nextLocalTime(at, '08:00', SP))).toBe('2026-03-11T11:00:00.000Z');
  });

  it('sends at the best hour now when the person is inside it, else at its next start', () => {
    const at = new Date('2026-03-10T12:20:00Z'); // 09:20 in São Paulo
    expect(iso(nextLocalHour(at, 9, SP))).toBe(iso(at));
    expect(iso(nextLocalHour(at, 20, SP))).toBe('2026-03-10T23:00:00.000Z');
    expect(iso(nextLocalHour(at, 7, SP))).toBe('2026-03-11T10:00:00.000Z');
  });
});

describe('holidays', () => {
  it('move a send to the same time of the next day that is not one, in the zone that set it', () => {
    // Carnaval 2026: Monday 16 and Tuesday 17 February.
    expect(iso(skipHolidays(new Date('2026-02-16T13:00:00Z'), SP, []))).toBe('2026-02-18T13:00:00.000Z');
    expect(iso(skipHolidays(new Date('2026-02-18T13:00:00Z'), SP, ['2026-02-18']))).toBe('2026-02-19T13:00:00.000Z');
    // 02:00 UTC of the 16th is still the 15th in São Paulo: no holiday there.
    expect(iso(skipHolidays(new Date('2026-02-16T02:00:00Z'), SP, []))).toBe('2026-02-16T02:00:00.000Z');
  });
});

describe('quiet hours', () => {
  const quiet = { start: '22:00', end: '08:00' };
  it('hold a send made inside the window until its end, on the person’s clock', () => {
    expect(iso(quietHoursEnd(new Date('2026-03-11T02:00:00Z'), quiet, SP)!)).toBe('2026-03-11T11:00:00.000Z');
    expect(iso(quietHoursEnd(new Date('2026-03-11T09:00:00Z'), quiet, SP)!)).toBe('2026-03-11T11:00:00.000Z');
    expect(quietHoursEnd(new Date('2026-03-11T11:00:00Z'), quiet, SP)).toBeNull();
    expect(quietHoursEnd(new Date('2026-03-11T00:59:00Z'), quiet, SP)).toBeNull(); // 21:59
    // 23:30 in Acre is 01:30 in São Paulo: both inside, each released at their own 08:00.
    expect(iso(quietHoursEnd(new Date('2026-03-11T04:30:00Z'), quiet, 'America/Rio_Branco')!)).toBe(
      '2026-03-11T13:00:00.000Z',
    );
    expect(iso(quietHoursEnd(new Date('2026-03-11T14:00:00Z'), { start: '09:00', end: '12:00' }, SP)!)).toBe(
      '2026-03-11T15:00:00.000Z',
    );
    expect(quietHoursEnd(new Date('2026-03-11T14:00:00Z'), null, SP)).toBeNull();
  });

  it('hold push, SMS and e-mail in the plan, never on-site messages', () => {
    const at = new Date('2026-03-11T02:00:00Z');
    const withQuiet = { ...domain, quietHours: quiet };
    for (const channelType of ['CELL_NOTIFICATION', 'ZENVIA', 'AWS_SES'])
      expect(iso(planFirstSend({ at, timing: null, domain: withQuiet, zone: SP, channelType }))).toBe(
        '2026-03-11T11:00:00.000Z',
      );
    expect(iso(planFirstSend({ at, timing: null, domain: withQuiet, zone: SP, channelType: 'SUPERARE_WEBVIEW' }))).toBe(
      iso(at),
    );
  });
});

describe('the plan of one person’s send', () => {
  it('combines local time, holidays and quiet hours', () => {
    const at = new Date('2026-02-15T15:00:00Z'); // Sunday 12:00, the day before Carnaval
    const timing = { send_at_local_time: '09:00', skip_holidays: true as const };
    expect(iso(planFirstSend({ at, timing, domain, zone: 'America/Manaus', channelType: 'CELL_NOTIFICATION' }))).toBe(
      '2026-02-18T13:00:00.000Z',
    );
    expect(
      iso(
        planFirstSend({
          at,
          timing: { best_time: true },
          domain,
          zone: SP,
          bestHour: 20,
          channelType: 'CELL_NOTIFICATION',
        }),
      ),
    ).toBe('2026-02-15T23:00:00.000Z');
    // Best time without an hour (no history, no domain history either): at the occurrence.
    expect(iso(planFirstSend({ at, timing: { best_time: true }, domain, zone: SP, channelType: 'ZENVIA' }))).toBe(
      iso(at),
    );
  });
});

describe('the throttle', () => {
  it('spreads sends evenly at the rate, never two in one slot, whatever the planned times', () => {
    const origin = new Date('2026-03-10T12:00:00Z');
    const throttle = createThrottle(origin, 120); // one every 500 ms
    const first = [0, 1, 2, 3].map(() => throttle.slot(origin).getTime() - origin.getTime());
    expect(first).toEqual([0, 500, 1000, 1500]);
    // Planned a second later: slot 2 is taken, 3 too: the next free is 4.
    expect(throttle.slot(new Date(origin.getTime() + 1000)).getTime() - origin.getTime()).toBe(2000);
    // Planned an hour later: its own slot.
    expect(throttle.slot(new Date(origin.getTime() + 3_600_000)).getTime() - origin.getTime()).toBe(3_600_000);
    expect(iso(throttledEnd(origin, 1000, 100))).toBe('2026-03-10T12:09:59.400Z');
  });

  it('holds the rate for 10,000 sends planned at the same instant (any 60 s window has at most the rate)', () => {
    const origin = new Date('2026-03-10T12:00:00Z');
    const throttle = createThrottle(origin, 600);
    const times = Array.from({ length: 10_000 }, () => throttle.slot(origin).getTime()).sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= 60_000) j++;
      most = Math.max(most, i - j + 1);
    }
    expect(most).toBe(600);
    expect(times.at(-1)! - origin.getTime()).toBe(9_999 * 100);
  });

  it('keeps a momentum’s sends 60/rate s apart, around what is already planned, whatever the order they come in', () => {
    const t0 = Date.parse('2026-03-10T12:00:00Z');
    // 6 per minute: 10 s apart. A send held for quiet hours an hour ahead blocks nothing now.
    const taken = [t0 - 15_000, t0 + 3_600_000];
    expect(throttledSlot(taken, t0, 6) - t0).toBe(0);
    expect(throttledSlot(taken, t0, 6) - t0).toBe(10_000);
    // Planned in a gap wide enough: its own time.
    taken.push(t0 + 100_000);
    taken.sort((a, b) => a - b);
    expect(throttledSlot(taken, t0 + 50_000, 6) - t0).toBe(50_000);
    // Planned 5 s before a taken one: after it.
    expect(throttledSlot(taken, t0 + 95_000, 6) - t0).toBe(110_000);
    expect(throttledSlot(taken, t0 + 3_599_000, 6) - t0).toBe(3_610_000);
    // Random arrivals over ten minutes at 120 a minute: never two closer than 500 ms, none before its plan.
    const many: number[] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let i = 0; i < 2000; i++) {
      const planned = t0 + Math.floor(random() * 600_000);
      expect(throttledSlot(many, planned, 120)).toBeGreaterThanOrEqual(planned);
    }
    for (let i = 1; i < many.length; i++) expect(many[i]! - many[i - 1]!).toBeGreaterThanOrEqual(500);
  });
});
