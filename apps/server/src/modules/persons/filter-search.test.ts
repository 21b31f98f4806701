import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDomain } from '../../../test/domain-fixture.ts';
import { call, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domainUuid: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domainUuid = (await insertDomain(t.app, owner.company.uuid)).uuid;
  const people: [string, string, string, string][] = [
    ['v1', 'BR', 'São Paulo', 'Chrome'],
    ['v2', 'BR', 'Rio Grande do Sul', 'Chrome'],
    ['v3', 'PT', 'Lisboa', 'Édge Beta'],
    ['v4', 'US', 'Texas', 'Firefox'],
  ];
  for (const [vid, country, region, browser] of people) {
    await t.app.ctx.db.execute(sql`
      INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes)
      VALUES (gen_random_uuid(), ${domainUuid}::uuid, ${vid}, jsonb_build_object(
        'client.location.country', ${country}::text, 'client.location.region', ${region}::text,
        'navigator.browser', ${browser}::text))`);
  }
});
afterAll(() => t.close());

const search = async (key: string, text: string, token = owner.token) => {
  const res = await call(
    t.app,
    'GET',
    `/api/person/search/${domainUuid}/filter/user_stored_data.${key}?search=${encodeURIComponent(text)}`,
    undefined,
    token,
  );
  return res;
};
const values = async (key: string, text: string) => {
  const res = await search(key, text);
  expect(res.status).toBe(200);
  return (res.body.data as { value: string }[]).map((o) => o.value).sort();
};

describe('filter value search (country, state and text filters)', () => {
  it('finds a country by its pt-BR name, its code and initials, ignoring case and accents', async () => {
    expect(await values('client.location.country', 'Bra')).toEqual(['BR']);
    expect(await values('client.location.country', 'brasil')).toEqual(['BR']);
    expect(await values('client.location.country', 'br')).toEqual(['BR']);
    expect(await values('client.location.country', 'PORTUGAL')).toEqual(['PT']);
    expect(await values('client.location.country', 'estados unidos')).toEqual(['US']);
    expect(await values('client.location.country', 'xyz')).toEqual([]);
  });

  it('finds a state by name without accents and by its UF initials', async () => {
    expect(await values('client.location.region', 'sao')).toEqual(['São Paulo']);
    expect(await values('client.location.region', 'SP')).toEqual(['São Paulo']);
    expect(await values('client.location.region', 'rs')).toEqual(['Rio Grande do Sul']);
  });

  it('matches other filters case- and accent-insensitively', async () => {
    expect(await values('navigator.browser', 'edge')).toEqual(['Édge Beta']);
    expect(await values('navigator.browser', 'CHROME')).toEqual(['Chrome']);
  });

  it("keeps another company's domain out", async () => {
    expect((await search('client.location.country', 'Bra', stranger.token)).status).toBe(404);
  });
});
