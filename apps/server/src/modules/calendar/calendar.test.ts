import { calendarMessages } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

describe('GET /api/calendar/holidays', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('lists a year’s national holidays without a session, moveable ones included', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/calendar/holidays?year=2027' });
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe(calendarMessages.holidaysLoaded);
    expect(data).toHaveLength(13);
    expect(data).toContainEqual({ date: '2027-02-08', name: 'Carnaval (segunda-feira)' });
    expect(data).toContainEqual({ date: '2027-03-26', name: 'Sexta-feira Santa' });
    expect(data).toContainEqual({ date: '2027-05-27', name: 'Corpus Christi' });
    expect(data).toContainEqual({ date: '2027-11-20', name: 'Dia Nacional de Zumbi e da Consciência Negra' });
  });

  it('without a year, lists the current year of the server’s clock in São Paulo', async () => {
    t.clock.set('2029-01-01T02:30:00Z'); // still 31/12/2028 in São Paulo
    const res = await t.app.inject({ method: 'GET', url: '/api/calendar/holidays' });
    expect(res.json().data[0]).toEqual({ date: '2028-01-01', name: 'Confraternização Universal' });
  });

  it('refuses a bad year with a 400 in Portuguese', async () => {
    for (const year of ['26', 'dois', '1800', '99999', '2026-01']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/calendar/holidays?year=${year}` });
      expect(res.statusCode, year).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: calendarMessages.yearInvalid });
    }
  });

  it('is described in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const op = res.json().paths['/api/calendar/holidays'].get;
    expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(['year']);
  });
});
