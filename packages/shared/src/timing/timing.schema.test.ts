import { describe, expect, it } from 'vitest';
import { extraHolidaysSchema, pickTiming, quietHoursSchema, timingMessages } from './timing.schema.ts';

describe('timing options', () => {
  it('keep only what is on: false, null, absent and the domain zone are the spec’s behaviour', () => {
    expect(pickTiming({})).toBeNull();
    expect(
      pickTiming({ throttle_per_minute: null, best_time: false, skip_holidays: false, worktime_zone: 'domain' }),
    ).toBeNull();
    expect(
      pickTiming({
        throttle_per_minute: 5,
        send_at_local_time: '09:15',
        skip_holidays: true,
        worktime_zone: 'visitor',
      }),
    ).toEqual({ throttle_per_minute: 5, send_at_local_time: '09:15', skip_holidays: true, worktime_zone: 'visitor' });
  });

  it('read quiet hours overnight, refuse an empty window and bad times', () => {
    expect(quietHoursSchema.parse({ start: '22:00', end: '08:00' })).toEqual({ start: '22:00', end: '08:00' });
    expect(quietHoursSchema.parse(null)).toBeNull();
    expect(quietHoursSchema.safeParse({ start: '08:00', end: '08:00' }).error?.issues[0]?.message).toBe(
      timingMessages.quietHoursEmpty,
    );
    expect(quietHoursSchema.safeParse({ start: '8:00', end: '09:00' }).error?.issues[0]?.message).toBe(
      timingMessages.timeInvalid,
    );
  });

  it('store own holidays sorted without repeats and refuse dates that do not exist', () => {
    expect(extraHolidaysSchema.parse(['2026-07-09', '2026-01-25', '2026-07-09'])).toEqual(['2026-01-25', '2026-07-09']);
    expect(extraHolidaysSchema.parse(['2028-02-29'])).toEqual(['2028-02-29']);
    for (const bad of ['2027-02-29', '2026-13-01', '2026-1-5', '09/07/2026'])
      expect(extraHolidaysSchema.safeParse([bad]).error?.issues[0]?.message, bad).toBe(timingMessages.holidayInvalid);
  });
});
