import { msg } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocks,
  call,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import { createIngestor, type IncomingRequest } from '../collect/ingest.ts';

/*
 * Visitors' rights (LGPD art. 18) through the API a company's DPO would call: a visitor browses, identifies
 * itself and gets an on-site message; the company finds it by visitor id, e-mail or phone, exports everything and
 * erases it for good. Another company's visitor with the same id is never touched.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SITE = 'https://loja-lgpd.com.br';
const OTHER_SITE = 'https://outra-lgpd.com.br';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string };
let foreign: { uuid: string; gero_id: string };
let momentumUuid: string;

const collect = async (target: { gero_id: string }, site: string, vid: string, events: object[]) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: site, 'user-agent': CHROME },
    payload: JSON.stringify({ id: target.gero_id, vid, e: events }),
  });
  expect(res.statusCode).toBe(202);
  await t.app.ingestor.drain();
};

const count = async (query: ReturnType<typeof sql>) =>
  Number((await queryRows<{ n: number }>(t.app.ctx.db, query))[0]!.n);

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja', SITE);
  foreign = await createDomain(t.app, stranger, 'Outra', OTHER_SITE);
  momentumUuid = (
    await createMomentum(t.app, owner, domain.uuid, 'Oferta no site', [
      blocks.everyone,
      blocks.pageviewContaining('/oferta'),
      blocks.topbar(),
    ])
  ).uuid;

  await collect(domain, SITE, 'ana-1', [
    { t: 'pv', u: `${SITE}/` },
    { t: 'id', p: { email: ' Ana@Exemplo.com.br ', phone: '(11) 98765-4321', name: 'Ana' } },
    { t: 'ev', c: 'compra', p: { valor: 99 } },
  ]);
  // The same person on her phone: another visitor id, the same e-mail.
  await collect(domain, SITE, 'ana-2', [
    { t: 'pv', u: `${SITE}/oferta` },
    { t: 'id', p: { email: 'ana@exemplo.com.br' } },
  ]);
  await collect(domain, SITE, 'bia', [{ t: 'pv', u: `${SITE}/oferta` }]);
  // Another company's visitor with the same visitor id as Ana's first one.
  await collect(foreign, OTHER_SITE, 'ana-1', [{ t: 'pv', u: `${OTHER_SITE}/` }]);
  while ((await t.app.engine.dispatchDue()) > 0);
});
afterAll(() => t.close());

describe('finding and exporting a visitor', () => {
  it('finds the persons by visitor id, by e-mail (any case) and by phone (any mask), with a summary', async () => {
    const byVid = await call(t.app, 'GET', `/api/person/lookup/${domain.uuid}?vid=ana-1`, undefined, owner.token);
    expect(byVid.status).toBe(200);
    expect(byVid.body.data).toHaveLength(1);
    expect(byVid.body.data[0]).toMatchObject({
      visitor_id: 'ana-1',
      email: 'ana@exemplo.com.br',
      phone: '11987654321',
      name: 'Ana',
      events: 3,
      deliveries: 0,
    });

    const byEmail = await call(
      t.app,
      'GET',
      `/api/person/lookup/${domain.uuid}?email=${encodeURIComponent('ANA@exemplo.com.br')}`,
      undefined,
      owner.token,
    );
    expect(byEmail.body.data.map((p: { visitor_id: string }) => p.visitor_id).sort()).toEqual(['ana-1', 'ana-2']);
    expect(byEmail.body.data.find((p: { visitor_id: string }) => p.visitor_id === 'ana-2').deliveries).toBe(1);

    const byPhone = await call(
      t.app,
      'GET',
      `/api/person/lookup/${domain.uuid}?phone=${encodeURIComponent('+55 (11) 98765-4321'.slice(4))}`,
      undefined,
      owner.token,
    );
    expect(byPhone.body.data.map((p: { visitor_id: string }) => p.visitor_id)).toEqual(['ana-1']);
  });

  it('exports attributes, events, deliveries and waiting on-site messages as one JSON document', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/person/export/${domain.uuid}?email=ana@exemplo.com.br`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    const { message, data } = res.json();
    expect(message).toBe('Dados do visitante exportados.');
    expect(data.domain).toMatchObject({ uuid: domain.uuid, domain: `${SITE}/` });
    const ana1 = data.persons.find((p: { visitor_id: string }) => p.visitor_id === 'ana-1');
    const ana2 = data.persons.find((p: { visitor_id: string }) => p.visitor_id === 'ana-2');
    expect(ana1.user_stored_data['navigator.browser']).toBe('Chrome');
    expect(ana1.user_stored_data['visited.url']).toEqual([`${SITE}/`]);
    expect(ana1.events.map((e: { kind: string }) => e.kind)).toEqual(['pageview', 'identify', 'event']);
    expect(ana1.events[2]).toMatchObject({ category: 'compra', props: { valor: 99 } });
    expect(ana2.deliveries).toHaveLength(1);
    expect(ana2.deliveries[0]).toMatchObject({
      momentum_uuid: momentumUuid,
      momentum_title: 'Oferta no site',
      channel_type: 'SUPERARE_WEBVIEW',
      status: 'sent',
    });
    expect(ana2.onsite_queue).toHaveLength(1);
    expect(ana2.onsite_queue[0].payload.props.topbarContent).toBe('Frete grátis hoje!');
  });

  it('answers bad lookups with a 400 in pt-BR and an unknown person with a 404', async () => {
    const none = await call(t.app, 'GET', `/api/person/export/${domain.uuid}`, undefined, owner.token);
    expect(none.status).toBe(400);
    expect(none.body.message).toContain('Informe exatamente um dado');
    const two = await call(
      t.app,
      'GET',
      `/api/person/lookup/${domain.uuid}?vid=a&phone=11987654321`,
      undefined,
      owner.token,
    );
    expect(two.status).toBe(400);
    const badEmail = await call(t.app, 'GET', `/api/person/lookup/${domain.uuid}?email=ana`, undefined, owner.token);
    expect(badEmail.status).toBe(400);
    expect(JSON.stringify(badEmail.body)).toContain('Informe um e-mail válido.');
    const nul = await call(t.app, 'GET', `/api/person/lookup/${domain.uuid}?vid=ana%00`, undefined, owner.token);
    expect(nul.status).toBe(400);
    // The API-wide text rule refuses the NUL before the lookup's own validation.
    expect(nul.body.message).toBe(msg.input.nulCharacter);
    const badPhone = await call(t.app, 'GET', `/api/person/lookup/${domain.uuid}?phone=123`, undefined, owner.token);
    expect(badPhone.status).toBe(400);
    const nobody = await call(t.app, 'GET', `/api/person/export/${domain.uuid}?vid=ninguem`, undefined, owner.token);
    expect(nobody).toMatchObject({ status: 404, body: { code: 'PERSON_NOT_FOUND' } });
    expect(nobody.body.message).toBe('Nenhum visitante encontrado com esses dados neste domínio.');
    const noToken = await call(t.app, 'GET', `/api/person/export/${domain.uuid}?vid=ana-1`);
    expect(noToken.status).toBe(401);
  });

  it("never shows or erases another company's visitor: its domain answers 404", async () => {
    for (const [method, url, body] of [
      ['GET', `/api/person/lookup/${foreign.uuid}?vid=ana-1`, undefined],
      ['GET', `/api/person/export/${foreign.uuid}?vid=ana-1`, undefined],
      ['DELETE', `/api/person/erase/${foreign.uuid}`, { person: { vid: 'ana-1' } }],
    ] as const) {
      const res = await call(t.app, method, url, body, owner.token);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('DOMAIN_NOT_FOUND');
    }
    expect(
      await count(
        sql`SELECT count(*) AS n FROM persons WHERE domain_uuid = ${foreign.uuid}::uuid AND visitor_id = 'ana-1'`,
      ),
    ).toBe(1);
  });
});

describe('erasing a visitor', () => {
  it('removes the person, events and on-site queue, unlinks deliveries and keeps the rollups counting', async () => {
    const personUuids = (
      await queryRows<{ uuid: string }>(
        t.app.ctx.db,
        sql`SELECT uuid FROM persons WHERE domain_uuid = ${domain.uuid}::uuid AND email = 'ana@exemplo.com.br'`,
      )
    ).map((r) => r.uuid);
    expect(personUuids).toHaveLength(2);
    const ids = sql`(SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(personUuids)}::jsonb))`;
    const visitorsBefore = await count(
      sql`SELECT count(*) AS n FROM daily_visitors WHERE domain_uuid = ${domain.uuid}::uuid`,
    );
    expect(visitorsBefore).toBe(3);

    const res = await call(
      t.app,
      'DELETE',
      `/api/person/erase/${domain.uuid}`,
      { person: { email: 'ANA@exemplo.com.br' } },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Dados do visitante apagados definitivamente.',
      data: { persons: 2, events: 5, deliveries: 1, onsite: 1 },
    });

    expect(await count(sql`SELECT count(*) AS n FROM persons WHERE uuid IN ${ids}`)).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM events WHERE person_uuid IN ${ids}`)).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM onsite_queue WHERE person_uuid IN ${ids}`)).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM daily_visitors WHERE person_uuid IN ${ids}`)).toBe(0);
    expect(await count(sql`SELECT count(*) AS n FROM deliveries WHERE person_uuid IN ${ids}`)).toBe(0);
    // The momentum still counts its send, with nothing that leads back to Ana.
    const [delivery] = await queryRows<{ person_uuid: string | null; dedupe_key: string; status: string }>(
      t.app.ctx.db,
      sql`SELECT person_uuid, dedupe_key, status FROM deliveries
          WHERE momentum_uuid = ${momentumUuid}::uuid AND person_uuid IS NULL`,
    );
    expect(delivery).toMatchObject({ person_uuid: null, status: 'sent' });
    expect(personUuids.some((uuid) => delivery!.dedupe_key.includes(uuid))).toBe(false);
    // Unique visitors of past days do not change.
    expect(await count(sql`SELECT count(*) AS n FROM daily_visitors WHERE domain_uuid = ${domain.uuid}::uuid`)).toBe(
      visitorsBefore,
    );

    // Erasure is final: nothing left to find, export or erase again.
    const again = await call(t.app, 'GET', `/api/person/export/${domain.uuid}?vid=ana-1`, undefined, owner.token);
    expect(again.status).toBe(404);
    const twice = await call(
      t.app,
      'DELETE',
      `/api/person/erase/${domain.uuid}`,
      { person: { vid: 'ana-1' } },
      owner.token,
    );
    expect(twice.status).toBe(404);

    // Bia and the other company's ana-1 are untouched.
    const bia = await call(t.app, 'GET', `/api/person/lookup/${domain.uuid}?vid=bia`, undefined, stranger.token);
    expect(bia.status).toBe(404);
    const biaOwn = await call(t.app, 'GET', `/api/person/lookup/${domain.uuid}?vid=bia`, undefined, owner.token);
    expect(biaOwn.body.data[0]).toMatchObject({ visitor_id: 'bia', events: 1, deliveries: 1 });
    expect(
      await count(sql`SELECT count(*) AS n FROM events e JOIN persons p ON p.uuid = e.person_uuid
                      WHERE p.domain_uuid = ${foreign.uuid}::uuid AND p.visitor_id = 'ana-1'`),
    ).toBe(1);
  });

  it('drops requests accepted before the erasure and stored after it, but not a later visit', async () => {
    await collect(domain, SITE, 'carla', [{ t: 'pv', u: `${SITE}/` }]);
    const before = t.clock.now();
    // A request accepted just before the erasure that waits in another process (or a spool) until after it.
    const late = createIngestor(t.app.ctx);
    const request = (receivedAt: Date): IncomingRequest => ({
      domainUuid: domain.uuid,
      visitorId: 'carla',
      device: { browser: 'Chrome', version: '131', os: 'Linux', device: 'desktop', mobile: false },
      geo: { country: 'BR' },
      language: 'pt-BR',
      receivedAt,
      events: [{ t: 'pv', u: `${SITE}/carrinho` }],
    });
    t.clock.advance(1000);
    const res = await call(
      t.app,
      'DELETE',
      `/api/person/erase/${domain.uuid}`,
      { person: { vid: 'carla' } },
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ persons: 1, events: 1 });
    // Stored only now, after the erasure.
    expect(late.push(request(before))).toBe(true);
    await late.drain();
    const lookup = await call(t.app, 'GET', `/api/person/lookup/${domain.uuid}?vid=carla`, undefined, owner.token);
    expect(lookup.status).toBe(404);
    expect(await count(sql`SELECT count(*) AS n FROM person_erasures WHERE domain_uuid = ${domain.uuid}::uuid`)).toBe(
      3,
    );
    expect(await count(sql`SELECT count(*) AS n FROM person_erasures WHERE visitor_hash LIKE '%carla%'`)).toBe(0);

    // Coming back later is a new visit, with a new consent decision on the site: it is stored.
    t.clock.advance(60_000);
    await collect(domain, SITE, 'carla', [{ t: 'pv', u: `${SITE}/de-volta` }]);
    const back = await call(t.app, 'GET', `/api/person/lookup/${domain.uuid}?vid=carla`, undefined, owner.token);
    expect(back.body.data[0]).toMatchObject({ visitor_id: 'carla', events: 1 });
  });

  it('validates the erase body in pt-BR', async () => {
    const empty = await call(t.app, 'DELETE', `/api/person/erase/${domain.uuid}`, { person: {} }, owner.token);
    expect(empty.status).toBe(400);
    expect(JSON.stringify(empty.body)).toContain('Informe exatamente um dado');
    const missing = await call(t.app, 'DELETE', `/api/person/erase/${domain.uuid}`, undefined, owner.token);
    expect(missing.status).toBe(400);
    const extra = await call(
      t.app,
      'DELETE',
      `/api/person/erase/${domain.uuid}`,
      { person: { vid: 'bia', uuid: 'x' } },
      owner.token,
    );
    expect(extra.status).toBe(400);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/person/lookup/{domain}',
        '/api/person/export/{domain}',
        '/api/person/erase/{domain}',
      ]),
    );
    expect(doc.paths['/api/person/erase/{domain}'].delete.requestBody).toBeDefined();
  });
});
