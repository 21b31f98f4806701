import { msg } from '@impeto/shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

/* Each company's own day: the analytics count in the domain's IANA time zone, São Paulo unless set. */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja Fuso', 'https://fuso.com.br');
});
afterAll(() => t.close());

const listed = async () =>
  (await call(t.app, 'GET', `/api/domain/list/${owner.company.uuid}`, undefined, owner.token)).body.data.find(
    (d: { uuid: string }) => d.uuid === domain.uuid,
  );

it('is America/Sao_Paulo by default and set by PUT /api/domain/update/:uuid { domain: { timezone } }', async () => {
  expect((await listed()).timezone).toBe('America/Sao_Paulo');
  const res = await call(
    t.app,
    'PUT',
    `/api/domain/update/${domain.uuid}`,
    { domain: { timezone: 'America/Manaus' } },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.timezone).toBe('America/Manaus');
  expect(await listed()).toMatchObject({ timezone: 'America/Manaus', name: 'Loja Fuso' });
  // Editing name and address keeps it; it may come along.
  const edit = await call(
    t.app,
    'PUT',
    `/api/domain/update/${domain.uuid}`,
    { domain: { name: 'Loja Fuso 2', address: 'https://fuso.com.br', timezone: 'Europe/Lisbon' } },
    owner.token,
  );
  expect(edit.status).toBe(200);
  expect(await listed()).toMatchObject({ timezone: 'Europe/Lisbon', name: 'Loja Fuso 2' });
});

it('refuses what is not an IANA zone with a pt-BR 400, and another company’s domain with a 404', async () => {
  for (const bad of ['Mars/Phobos', '-03:00', 'GMT-3 ', '', 'America/Sao Paulo']) {
    const res = await call(
      t.app,
      'PUT',
      `/api/domain/update/${domain.uuid}`,
      { domain: { timezone: bad } },
      owner.token,
    );
    expect(res.status, String(bad)).toBe(400);
    expect(res.body.message).toBe(msg.domain.timezoneInvalid);
  }
  const notText = await call(
    t.app,
    'PUT',
    `/api/domain/update/${domain.uuid}`,
    { domain: { timezone: 42 } },
    owner.token,
  );
  expect(notText.status).toBe(400);
  expect((await listed()).timezone).toBe('Europe/Lisbon');
  const foreign = await call(
    t.app,
    'PUT',
    `/api/domain/update/${domain.uuid}`,
    { domain: { timezone: 'UTC' } },
    stranger.token,
  );
  expect(foreign.status).toBe(404);
  expect((await listed()).timezone).toBe('Europe/Lisbon');
});
