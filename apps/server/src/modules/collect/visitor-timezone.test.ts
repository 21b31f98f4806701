import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';

/*
 * Issue #27: the tag reports the browser's IANA zone (`tz` beside `l`, once per session). The person keeps it as
 * `timezone` (what the engine reads first), it shows as 'Fuso horário' among the filters and in the privacy export;
 * a name the server does not know is ignored, never a refused batch.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SITE = 'https://fuso-do-visitante.com.br';
let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja Fuso', SITE);
});
afterAll(() => t.close());

const send = async (vid: string, extra: Record<string, unknown>) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': CHROME },
    payload: JSON.stringify({ id: domain.gero_id, vid, l: 'pt-BR', ...extra, e: [{ t: 'pv', u: `${SITE}/` }] }),
  });
  expect(res.statusCode).toBe(202);
  expect(res.json().accepted).toBe(1);
  await t.app.ingestor.drain();
};
const personOf = async (vid: string) =>
  (
    await queryRows<{ timezone: string | null; attributes: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`SELECT timezone, attributes FROM persons WHERE domain_uuid = ${domain.uuid}::uuid AND visitor_id = ${vid}`,
    )
  )[0]!;

it('keeps the zone the tag reported on the person, and keeps it when later batches carry none', async () => {
  await send('acreano', { tz: 'America/Rio_Branco' });
  expect(await personOf('acreano')).toMatchObject({
    timezone: 'America/Rio_Branco',
    attributes: { 'client.location.timezone': 'America/Rio_Branco' },
  });
  await send('acreano', {});
  expect((await personOf('acreano')).timezone).toBe('America/Rio_Branco');
  // Travelled: the next session reports another zone.
  await send('acreano', { tz: 'America/Manaus' });
  expect((await personOf('acreano')).timezone).toBe('America/Manaus');
});

it('ignores a zone the server does not know, and accepts the batch', async () => {
  for (const tz of ['Mars/Olympus', '-03:00', 'America/Sao Paulo']) await send(`sem-fuso-${tz.length}`, { tz });
  for (const tz of ['Mars/Olympus', '-03:00', 'America/Sao Paulo']) {
    const p = await personOf(`sem-fuso-${tz.length}`);
    expect(p.timezone).toBeNull();
    expect(p.attributes).not.toHaveProperty('client.location.timezone');
  }
});

it('is a filter ("Fuso horário") and part of the privacy export', async () => {
  const filters = await call(t.app, 'GET', `/api/person/filter/${domain.uuid}`, undefined, owner.token);
  expect(filters.body.data).toContainEqual({
    key: 'user_stored_data.client.location.timezone',
    name: 'Fuso horário',
    mask: 'select',
  });
  const impact = await call(
    t.app,
    'POST',
    `/api/person/search/peopleImpacted/${domain.uuid}`,
    {
      momentums: [
        {
          type: 'filter',
          values: [
            { filter: 'user_stored_data.client.location.timezone', comparation: '==', value: ['America/Manaus'] },
          ],
        },
      ],
    },
    owner.token,
  );
  expect(impact.status, JSON.stringify(impact.body)).toBe(200);
  // Four persons so far, one of them (acreano) now in Manaus.
  expect(impact.body.data).toMatchObject({ total: 4, percentualAtingido: 25 });
  const exported = await call(t.app, 'GET', `/api/person/export/${domain.uuid}?vid=acreano`, undefined, owner.token);
  expect(exported.status).toBe(200);
  expect(exported.body.data.persons[0]).toMatchObject({
    visitor_id: 'acreano',
    timezone: 'America/Manaus',
    user_stored_data: { 'client.location.timezone': 'America/Manaus' },
  });
});
