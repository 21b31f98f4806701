import type { CollectEvent } from '@impeto/shared';
import { describe, expect, it } from 'vitest';
import type { VisitorEvent } from './incoming.ts';
import { gatherPersons, personKey } from './person-upsert.ts';

/* What a batch tells about each person, gathered before the upsert (spool.test.ts checks the merge in the database). */

const D = '6f1c2b1e-5d8a-4c7e-9a31-2b8f0d4e6a10';
const SITE = 'https://loja.com.br';

const item = (visitorId: string, at: string, event: CollectEvent): VisitorEvent => ({
  domainUuid: D,
  visitorId,
  device: { device: 'mobile', mobile: true, browser: 'Safari', os: 'iOS' },
  geo: { country: 'BR', city: 'Recife' },
  language: 'pt-BR',
  receivedAt: new Date(at),
  event,
});

describe('gatherPersons', () => {
  it('keeps one person per visitor with the first request’s place, origin and time and the last request’s time', () => {
    const people = gatherPersons([
      item('ana', '2026-11-23T12:00:00.000Z', { t: 'pv', u: `${SITE}/`, r: 'https://www.google.com/search?q=tenis' }),
      item('ana', '2026-11-23T12:05:00.000Z', { t: 'pv', u: `${SITE}/produto/1`, r: `${SITE}/` }),
      item('ana', '2026-11-23T12:01:00.000Z', { t: 'pv', u: `${SITE}/` }),
      item('bia', '2026-11-23T12:02:00.000Z', { t: 'pv', u: `${SITE}/`, r: `${SITE}/outra` }),
    ]);
    expect([...people.keys()]).toEqual([`${D}|ana`, `${D}|bia`]);
    const ana = people.get(personKey({ domainUuid: D, visitorId: 'ana' }))!;
    expect(ana.attrs).toMatchObject({
      createdAt: '2026-11-23T12:00:00.000Z',
      origin: 'www.google.com',
      'navigator.mobile': true,
      'navigator.browser': 'Safari',
      'navigator.language': 'pt-BR',
      'client.location.city': 'Recife',
    });
    expect(ana.first.toISOString()).toBe('2026-11-23T12:00:00.000Z');
    expect(ana.last.toISOString()).toBe('2026-11-23T12:05:00.000Z');
    expect(ana.visited).toEqual([`${SITE}/`, `${SITE}/produto/1`]);
    expect(people.get(`${D}|bia`)!.attrs.origin).toBe('direct');
  });

  it('takes e-mail, phone and name from identify, cleaned, and keeps the other properties as identify.*', () => {
    const people = gatherPersons([
      item('ana', '2026-11-23T12:00:00.000Z', {
        t: 'id',
        p: { email: '  Ana@Exemplo.COM.br ', phone: '+55 (81) 99999-0000', name: ' Ana ', plano: 'ouro' },
      }),
    ]);
    const ana = people.get(`${D}|ana`)!;
    expect([ana.email, ana.phone, ana.name]).toEqual(['ana@exemplo.com.br', '5581999990000', 'Ana']);
    expect(ana.attrs['identify.plano']).toBe('ouro');
    expect(ana.attrs).not.toHaveProperty('identify.email');
  });
});
