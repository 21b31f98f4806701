import { describe, expect, it } from 'vitest';
import { scheduleMarker } from './momentum-status.ts';

describe('scheduleMarker', () => {
  const now = new Date('2026-05-10T15:00:00.000Z'); // 12:00 in São Paulo

  it('reads HOJE! on the same day in São Paulo, earlier or later', () => {
    expect(scheduleMarker('2026-05-10T20:00:00.000Z', now)).toBe('HOJE!');
    expect(scheduleMarker('2026-05-10T04:00:00.000Z', now)).toBe('HOJE!');
  });

  it('counts days ahead by calendar day', () => {
    expect(scheduleMarker('2026-05-11T03:30:00.000Z', now)).toBe('1d'); // 00:30 of the 11th in São Paulo
    expect(scheduleMarker('2026-05-13T12:00:00.000Z', now)).toBe('3d');
  });

  it('shows a check mark when past', () => {
    expect(scheduleMarker('2026-05-10T02:00:00.000Z', now)).toBe('✓'); // 23:00 of the 9th in São Paulo
    expect(scheduleMarker('2026-04-01T12:00:00.000Z', now)).toBe('✓');
  });
});
