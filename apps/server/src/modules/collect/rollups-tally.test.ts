import type { CollectEvent } from '@impeto/shared';
import { describe, expect, it } from 'vitest';
import type { VisitorEvent } from './incoming.ts';
import { createDayOf, tallyRollups } from './rollups.ts';

/* The rollups stage's counting alone, without a database (rollups.test.ts checks the rows through the app). */

const D = '6f1c2b1e-5d8a-4c7e-9a31-2b8f0d4e6a10';
const SITE = 'https://loja.com.br';
const personUuid = new Map([
  [`${D}|ana`, 'a0000000-0000-4000-8000-000000000001'],
  [`${D}|bia`, 'b0000000-0000-4000-8000-000000000002'],
]);
const desktop = { device: 'desktop', mobile: false };
const phone = { device: 'mobile', mobile: true };

const item = (visitorId: string, at: string, event: CollectEvent, device = desktop): VisitorEvent => ({
  domainUuid: D,
  visitorId,
  device,
  geo: {},
  receivedAt: new Date(at),
  event,
});

describe('the day of an instant', () => {
  it('is the São Paulo day, moving at local midnight even between two calls in the same batch', () => {
    const dayOf = createDayOf('America/Sao_Paulo');
    expect(dayOf(new Date('2026-11-23T01:30:00.000Z'))).toBe('2026-11-22');
    expect(dayOf(new Date('2026-11-23T02:59:59.999Z'))).toBe('2026-11-22');
    expect(dayOf(new Date('2026-11-23T03:00:00.000Z'))).toBe('2026-11-23');
    expect(createDayOf('UTC')(new Date('2026-11-23T01:30:00.000Z'))).toBe('2026-11-23');
  });
});

describe('tallyRollups', () => {
  const dayOf = createDayOf('America/Sao_Paulo');
  const tally = tallyRollups(
    [
      item('ana', '2026-11-23T01:30:00.000Z', { t: 'pv', u: `${SITE}/` }),
      item('ana', '2026-11-23T01:31:00.000Z', { t: 'pv', u: `${SITE}/` }),
      item('ana', '2026-11-23T01:32:00.000Z', { t: 'ev', c: 'compra' }),
      item('ana', '2026-11-23T01:33:00.000Z', { t: 'ev', c: 'compra' }),
      item('bia', '2026-11-23T01:34:00.000Z', { t: 'pv', u: `${SITE}/produto/1` }, phone),
      item('bia', '2026-11-23T01:35:00.000Z', { t: 'optout' }, phone),
      // 09:00 in São Paulo on the 23rd: another day.
      item('ana', '2026-11-23T12:00:00.000Z', { t: 'pv', u: `${SITE}/` }),
    ],
    personUuid,
    dayOf,
  );
  const count = (day: string, dim: string, value = '') => tally.counters.get(`${D}|${day}|${dim}|${value}`)?.count;

  it('counts page views per day, per page and device class, and per device', () => {
    expect(count('2026-11-22', 'pageviews')).toBe(3);
    expect(count('2026-11-22', 'page:desktop', `${SITE}/`)).toBe(2);
    expect(count('2026-11-22', 'page:mobile', `${SITE}/produto/1`)).toBe(1);
    expect(count('2026-11-22', 'device', 'mobile')).toBe(1);
    expect(count('2026-11-23', 'pageviews')).toBe(1);
  });

  it('counts custom events and opt-outs, and leaves the unique-visitor counters to the database', () => {
    expect(count('2026-11-22', 'event', 'compra')).toBe(2);
    expect(count('2026-11-22', 'optouts')).toBe(1);
    expect(count('2026-11-22', 'optins')).toBeUndefined();
    expect(count('2026-11-22', 'visitors')).toBeUndefined();
  });

  it('lists each visitor once per day, with its first device, and once per category that day', () => {
    expect([...tally.visitors.values()].map((v) => [v.day, v.device])).toEqual([
      ['2026-11-22', 'desktop'],
      ['2026-11-22', 'mobile'],
      ['2026-11-23', 'desktop'],
    ]);
    expect([...tally.categoryVisitors.values()]).toEqual([
      { d: D, day: '2026-11-22', c: 'compra', p: personUuid.get(`${D}|ana`) },
    ]);
  });
});
