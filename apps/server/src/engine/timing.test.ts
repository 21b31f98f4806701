import { describe, expect, it } from 'vitest';
import type { NewDelivery } from './deliveries.queries.ts';
import { type CompiledMomentum, compileMomentum, type StoredEvent } from './matcher.ts';
import { appendChain, capDeferral, capFullUntil, nextOccurrence, retryAt, worktimeDeferral } from './timing.ts';

/* Timing alone, without a database: when a delivery is due. */

const SP = 'America/Sao_Paulo';
const PERSON = '00000000-0000-4000-8000-00000000000a';
const at = (iso: string) => new Date(iso);

const momentum = (
  blocks: unknown[],
  worktime: CompiledMomentum['worktime'] = null,
  uuid = '00000000-0000-4000-8000-0000000000a1',
) =>
  compileMomentum({
    uuid,
    domainUuid: '00000000-0000-4000-8000-0000000000d1',
    type: 'momentum',
    status: 'Active',
    version: 1,
    blocks,
    worktime,
    activatedAt: null,
  });

const pageview = (dischargeIn: number[]) => ({
  type: 'trigger',
  regex: false,
  values: [{ filter: 'pageview', comparation: 'contain', value: ['/'], dischargeIn }],
});
const push = (intervalRecurrency?: number[]) => ({
  type: 'dispatcher',
  values: [{ filter: 'CELL_NOTIFICATION', title: 'Oi', message: 'Olá', intervalRecurrency }],
});
const event: StoredEvent = {
  id: 42,
  domainUuid: '00000000-0000-4000-8000-0000000000d1',
  personUuid: PERSON,
  kind: 'pageview',
  url: 'https://loja.com.br/',
  category: null,
  props: null,
  ts: at('2026-11-20T12:00:00.000Z'),
};

describe('a trigger’s chain', () => {
  it('without repeats: one delivery, once per person, due after the delay', () => {
    const m = momentum([pageview([300]), push()]);
    const rows: NewDelivery[] = [];
    appendChain(rows, m, PERSON, event);
    expect(rows.map((r) => [r.dedupeKey, r.dueAt.toISOString(), r.unlessPending])).toEqual([
      [`${m.uuid}:${PERSON}:once`, '2026-11-20T12:05:00.000Z', false],
    ]);
  });

  it("with 'Permitir mais de um envio': the first after the delay, then each gap after the previous send", () => {
    const m = momentum([pageview([60]), push([3600, 86_400])]);
    const rows: NewDelivery[] = [];
    appendChain(rows, m, PERSON, event);
    expect(rows.map((r) => [r.dedupeKey, r.dueAt.toISOString(), r.unlessPending])).toEqual([
      [`${m.uuid}:${PERSON}:e42:0`, '2026-11-20T12:01:00.000Z', true],
      [`${m.uuid}:${PERSON}:e42:1`, '2026-11-20T13:01:00.000Z', true],
      [`${m.uuid}:${PERSON}:e42:2`, '2026-11-21T13:01:00.000Z', true],
    ]);
  });
});

describe('when a due delivery goes out', () => {
  const businessHours = { weekdays: [1, 2, 3, 4, 5], start_at: '09:00', stop_at: '18:00' };

  it('outside the worktime it waits for the next opening in the company time zone; inside it goes now', () => {
    const m = momentum([pageview([]), push()], businessHours);
    // Friday 18:30 in São Paulo → Monday 09:00.
    expect(worktimeDeferral(at('2026-11-20T21:30:00.000Z'), m, SP)?.toISOString()).toBe('2026-11-23T12:00:00.000Z');
    expect(worktimeDeferral(at('2026-11-20T15:00:00.000Z'), m, SP)).toBeNull();
    expect(worktimeDeferral(at('2026-11-20T21:30:00.000Z'), momentum([push()]), SP)).toBeNull();
  });

  it('a transient failure waits for Retry-After, else a backoff that doubles up to an hour', () => {
    const now = at('2026-11-20T12:00:00.000Z');
    expect(retryAt(now, 1, 30).toISOString()).toBe('2026-11-20T12:00:30.000Z');
    expect(retryAt(now, 1, undefined).toISOString()).toBe('2026-11-20T12:00:10.000Z');
    expect(retryAt(now, 2, undefined).toISOString()).toBe('2026-11-20T12:00:20.000Z');
    expect(retryAt(now, 20, undefined).toISOString()).toBe('2026-11-20T13:00:00.000Z');
  });

  it('over the frequency cap a repeating momentum waits for the next allowed moment; a single send is skipped', () => {
    const nextAt = at('2026-11-21T12:00:01.000Z');
    expect(capDeferral(momentum([pageview([]), push([3600])]), nextAt)).toBe(nextAt);
    expect(capDeferral(momentum([pageview([]), push()]), nextAt)).toBeNull();
  });

  it('the cap is full until the oldest counted message leaves its window (24 h, 7 days), plus a second', () => {
    const now = at('2026-11-20T12:00:00.000Z');
    const h = (hoursAgo: number) => now.getTime() - hoursAgo * 3_600_000;
    expect(capFullUntil([h(30), h(5)], now, 2, null)).toBeNull();
    expect(capFullUntil([h(20), h(5)], now, 2, null)?.toISOString()).toBe('2026-11-20T16:00:01.000Z');
    // Three in the week, one in the day: the week's window is the full one.
    expect(capFullUntil([h(150), h(100), h(20)], now, 3, 3)?.toISOString()).toBe('2026-11-21T06:00:01.000Z');
    expect(capFullUntil([h(150), h(100), h(20)], now, null, null)).toBeNull();
  });
});

describe('a recurrence’s next tick', () => {
  const weekly = (finish?: string) =>
    momentum([
      {
        type: 'trigger',
        values: [{ filter: 'recurrence', comparation: 'weekly', value: ['tuesday'], hours: '10:00' }],
      },
      push(),
      ...(finish ? [{ type: 'finish', values: [{ value: finish }] }] : []),
    ]);

  it('is the next occurrence in the company time zone, none at or past the finish date', () => {
    const friday = at('2026-11-20T21:30:00.000Z');
    expect(nextOccurrence(weekly(), SP, null, friday)?.toISOString()).toBe('2026-11-24T13:00:00.000Z');
    expect(nextOccurrence(weekly('2026-11-24T13:00:00.000Z'), SP, null, friday)).toBeNull();
  });
});

describe('a recurrence on the visitor’s clock', () => {
  const daily = (timing: { worktime_zone?: 'visitor' } | null) =>
    compileMomentum({
      uuid: '00000000-0000-4000-8000-0000000000a2',
      domainUuid: '00000000-0000-4000-8000-0000000000d1',
      type: 'momentum',
      status: 'Active',
      version: 1,
      blocks: [
        { type: 'trigger', values: [{ filter: 'recurrence', comparation: 'daily', value: [], hours: '10:00' }] },
        push(),
      ],
      worktime: null,
      activatedAt: null,
      timing,
    });

  it('ticks when the first clock on Earth (UTC+14) reads its time; an activation keeps the occurrence still to come somewhere', () => {
    // 18:00 in São Paulo on 1 April: 11:00 of 2 April at UTC+14.
    const now = at('2026-04-01T21:00:00Z');
    expect(nextOccurrence(daily(null), SP, now, now)?.toISOString()).toBe('2026-04-02T13:00:00.000Z');
    const visitor = daily({ worktime_zone: 'visitor' });
    expect(visitor.recurrenceOnVisitorClock).toBe(true);
    // 3 April 10:00 at UTC+14; with `ongoing`, 1 April's (10:00 has not come to UTC−12 yet).
    expect(nextOccurrence(visitor, SP, now, now)?.toISOString()).toBe('2026-04-02T20:00:00.000Z');
    expect(nextOccurrence(visitor, SP, now, now, true)?.toISOString()).toBe('2026-03-31T20:00:00.000Z');
  });
});
