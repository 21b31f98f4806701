import { timingMessages } from '@impeto/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

/* Issue #27: a domain's quiet hours and its own holidays, set on the domain and shown in the domain list. */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja Silêncio', 'https://silencio.com.br');
});
afterAll(() => t.close());

const update = (body: unknown, token = owner.token) =>
  call(t.app, 'PUT', `/api/domain/update/${domain.uuid}`, { domain: body }, token);
const listed = async () =>
  (await call(t.app, 'GET', `/api/domain/list/${owner.company.uuid}`, undefined, owner.token)).body.data.find(
    (d: { uuid: string }) => d.uuid === domain.uuid,
  );

it('has no quiet hours and no own holidays by default', async () => {
  expect(await listed()).toMatchObject({ quiet_hours: null, extra_holidays: [] });
});

it('sets quiet hours and own holidays, alone or together, and turns quiet hours off with null', async () => {
  const quiet = await update({ quiet_hours: { start: '22:00', end: '08:00' } });
  expect(quiet.status, JSON.stringify(quiet.body)).toBe(200);
  expect(quiet.body.data.quiet_hours).toEqual({ start: '22:00', end: '08:00' });

  const holidays = await update({ extra_holidays: ['2026-01-25', '2026-07-09', '2026-01-25'] });
  expect(holidays.status).toBe(200);
  expect(await listed()).toMatchObject({
    quiet_hours: { start: '22:00', end: '08:00' },
    extra_holidays: ['2026-01-25', '2026-07-09'],
  });

  await update({ quiet_hours: null, extra_holidays: [] });
  expect(await listed()).toMatchObject({ quiet_hours: null, extra_holidays: [] });

  // They may come along with the name and address, and editing those alone keeps them.
  const edit = await update({
    name: 'Loja Silêncio 2',
    address: 'https://silencio.com.br',
    quiet_hours: { start: '21:30', end: '07:45' },
  });
  expect(edit.status).toBe(200);
  await update({ name: 'Loja Silêncio 3', address: 'https://silencio.com.br' });
  expect(await listed()).toMatchObject({ name: 'Loja Silêncio 3', quiet_hours: { start: '21:30', end: '07:45' } });
});

it('refuses bad values with a pt-BR 400 and changes nothing', async () => {
  const before = await listed();
  for (const [body, message] of [
    [{ quiet_hours: { start: '24:00', end: '08:00' } }, timingMessages.timeInvalid],
    [{ quiet_hours: { start: '22:00' } }, undefined],
    [{ quiet_hours: { start: '08:00', end: '08:00' } }, timingMessages.quietHoursEmpty],
    [{ extra_holidays: ['2026-02-30'] }, timingMessages.holidayInvalid],
    [{ extra_holidays: ['25/01/2026'] }, timingMessages.holidayInvalid],
    [{ extra_holidays: '2026-01-25' }, undefined],
    [
      {
        extra_holidays: Array.from({ length: 201 }, (_, i) =>
          `2027-01-01`.replace('01-01', `0${1 + (i % 9)}-1${i % 10}`),
        ),
      },
      undefined,
    ],
  ] as const) {
    const res = await update(body);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(typeof res.body.message).toBe('string');
    if (message) expect(res.body.message, JSON.stringify(body)).toContain(message);
  }
  expect(await listed()).toEqual(before);
});

it('answers 404 for another company’s domain', async () => {
  const res = await update({ quiet_hours: { start: '22:00', end: '08:00' } }, stranger.token);
  expect(res.status).toBe(404);
  expect((await listed()).quiet_hours).toEqual({ start: '21:30', end: '07:45' });
});
