import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDomain } from '../../../test/domain-fixture.ts';
import { call, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpAndSignIn(t.app);
});
afterAll(() => t.close());

/** `count` persons of which exactly 30% are on a phone (i % 10 < 3). */
const generate = (domainUuid: string, count: number) =>
  t.app.ctx.db.execute(sql`
    INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes)
    SELECT gen_random_uuid(), ${domainUuid}::uuid, 'v' || i,
           jsonb_build_object('navigator.mobile', i % 10 < 3, 'navigator.browser', 'Chrome')
    FROM generate_series(1, ${count}) AS i`);

const impact = async (domainUuid: string) => {
  const res = await call(
    t.app,
    'POST',
    `/api/person/search/peopleImpacted/${domainUuid}`,
    {
      momentums: [
        {
          type: 'filter',
          values: [{ filter: 'user_stored_data.navigator.mobile', comparation: '==', value: ['Sim'] }],
        },
      ],
    },
    owner.token,
  );
  expect(res.status).toBe(200);
  return res.body.data as { percentualAtingido: number; total: number; impacted: number; estimated: boolean };
};

describe('peopleImpacted', () => {
  it('counts a base of up to 60,000 persons exactly', async () => {
    const domain = await insertDomain(t.app, owner.company.uuid);
    await generate(domain.uuid, 5000);
    expect(await impact(domain.uuid)).toEqual({
      percentualAtingido: 30,
      total: 5000,
      impacted: 1500,
      estimated: false,
    });
  });

  it('estimates a large base from a uniform random sample, close to the exact share', async () => {
    const domain = await insertDomain(t.app, owner.company.uuid);
    await generate(domain.uuid, 150_000);
    const result = await impact(domain.uuid);
    expect(result.estimated).toBe(true);
    expect(Math.abs(result.percentualAtingido - 30)).toBeLessThan(2);
    expect(Math.abs(result.total - 150_000)).toBeLessThan(15_000);
  });
});
