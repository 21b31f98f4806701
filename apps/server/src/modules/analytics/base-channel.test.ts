import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';

/*
 * base/channel reads counters the persons triggers keep (issue #30) instead of counting persons: the same answer
 * as counting them, whatever changed the persons (the collector, the engine, an erasure, a new time zone).
 */

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SITE = 'https://base-canais.com.br';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string };
let other: { uuid: string; gero_id: string };

const collect = async (geroId: string, site: string, vid: string, at: string, events: object[]) => {
  t.clock.set(at);
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: site, 'user-agent': CHROME },
    payload: JSON.stringify({ id: geroId, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};
const visit = (vid: string, at: string, events: object[]) => collect(domain.gero_id, SITE, vid, at, events);
const sub = (n: number) => ({
  t: 'optin',
  s: { endpoint: `https://fcm.googleapis.com/fcm/send/base-${n}`, keys: { p256dh: 'BPk', auth: 'xyz' } },
});

/** The answer before the counters: persons counted now, in the domain's time zone (the query issue #30 replaced). */
async function countedFromPersons(domainUuid: string, start: string, end: string) {
  const [row] = await queryRows<Record<string, number>>(
    t.app.ctx.db,
    sql`SELECT
        (SELECT count(*)::int FROM persons WHERE domain_uuid = d.uuid) AS onsite,
        (SELECT count(*)::int FROM persons WHERE domain_uuid = d.uuid AND push_status = 'subscribed') AS push,
        (SELECT count(*)::int FROM persons WHERE domain_uuid = d.uuid AND email IS NOT NULL) AS email,
        (SELECT count(*)::int FROM persons WHERE domain_uuid = d.uuid AND phone IS NOT NULL) AS sms,
        n.onsite AS new_onsite, n.push AS new_push, n.email AS new_email, n.sms AS new_sms
      FROM domains d, LATERAL (
        SELECT count(*)::int AS onsite, count(*) FILTER (WHERE push_status = 'subscribed')::int AS push,
          count(email)::int AS email, count(phone)::int AS sms
        FROM persons WHERE domain_uuid = d.uuid
          AND first_seen >= (${start}::date::timestamp AT TIME ZONE d.timezone)
          AND first_seen < ((${end}::date + 1)::timestamp AT TIME ZONE d.timezone)
      ) AS n
      WHERE d.uuid = ${domainUuid}::uuid`,
  );
  return ['push', 'onsite', 'email', 'sms'].map((channel) => ({
    channel,
    amount: row![channel],
    new: row![`new_${channel}`],
  }));
}

const RANGES = [
  ['2026-05-01', '2026-05-01'],
  ['2026-05-02', '2026-05-02'],
  ['2026-05-01', '2026-05-03'],
  ['2026-04-01', '2026-04-30'],
];

async function expectSameAsCounting(domainUuid = domain.uuid) {
  for (const [start, end] of RANGES) {
    const res = await call(
      t.app,
      'GET',
      `/api/analytics/${domainUuid}/base/channel?start=${start}&end=${end}`,
      undefined,
      owner.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data, `${start}..${end}`).toEqual(await countedFromPersons(domainUuid, start!, end!));
  }
}

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Base', SITE);
  other = await createDomain(t.app, owner, 'Outra base', 'https://outra-base.com.br');
});
afterAll(() => t.close());

it('equals counting the persons as the collector adds, subscribes, identifies and unsubscribes them', async () => {
  // 23:30 on 1 May in São Paulo is 2 May in UTC: the day boundary is the domain's.
  await visit('ana', '2026-05-02T02:30:00Z', [{ t: 'pv', u: `${SITE}/` }, sub(1)]);
  await visit('bia', '2026-05-02T13:00:00Z', [{ t: 'id', p: { email: 'bia@exemplo.com.br', phone: '11987654321' } }]);
  await visit('caio', '2026-05-02T14:00:00Z', [sub(2)]);
  await visit('duda', '2026-05-03T12:00:00Z', [{ t: 'pv', u: `${SITE}/` }]);
  await collect(other.gero_id, 'https://outra-base.com.br', 'ana', '2026-05-02T12:00:00Z', [sub(3)]);
  const [first] = await countedFromPersons(domain.uuid, '2026-05-01', '2026-05-03');
  expect(first).toEqual({ channel: 'push', amount: 2, new: 2 });
  await expectSameAsCounting();

  // Caio opts out, Duda identifies with an e-mail, Ana's subscription is refused by her push service (the engine).
  await visit('caio', '2026-05-03T13:00:00Z', [{ t: 'optout' }]);
  await visit('duda', '2026-05-03T13:05:00Z', [{ t: 'id', p: { email: 'duda@exemplo.com.br' } }]);
  await t.app.ctx.db.execute(
    sql`UPDATE persons SET push_status = 'unsubscribed' WHERE domain_uuid = ${domain.uuid}::uuid AND visitor_id = 'ana'`,
  );
  await expectSameAsCounting();
  await expectSameAsCounting(other.uuid);
});

it('equals counting the persons after an erasure and after the domain moves to another time zone', async () => {
  const erased = await call(
    t.app,
    'DELETE',
    `/api/person/erase/${domain.uuid}`,
    { person: { vid: 'bia' } },
    owner.token,
  );
  expect(erased.status, JSON.stringify(erased.body)).toBe(200);
  await expectSameAsCounting();

  const moved = await call(
    t.app,
    'PUT',
    `/api/domain/update/${domain.uuid}`,
    { domain: { timezone: 'Asia/Tokyo' } },
    owner.token,
  );
  expect(moved.status).toBe(200);
  await expectSameAsCounting();
  await expectSameAsCounting(other.uuid);
});
