import { collectMessages } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import { processGeo } from './enrich.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const SITE = 'https://loja-coleta.com.br';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, trustProxy: true });
  await processGeo().load();
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Coleta', SITE);
});
afterAll(() => t.close());

const collect = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: {
      'content-type': 'text/plain',
      origin: SITE,
      'user-agent': CHROME,
      'x-forwarded-for': '200.160.2.3',
      ...headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
const api = (url: string, token = owner.token) => call(t.app, 'GET', url, undefined, token);
const countEvents = async () =>
  (
    await queryRows<{ n: number }>(
      t.app.ctx.db,
      sql`SELECT count(*)::int AS n FROM events WHERE domain_uuid = ${domain.uuid}::uuid`,
    )
  )[0]!.n;

describe('collector', () => {
  it('stores page views, events, identification and opt-in, and the person API shows the visitor', async () => {
    const ts = Date.now();
    const res = await collect({
      id: domain.gero_id,
      vid: 'visitante-1',
      v: '1.1.0',
      l: 'pt-BR',
      e: [
        { t: 'pv', u: `${SITE}/`, r: 'https://www.google.com/search?q=tenis', ti: 'Início', ts },
        { t: 'pv', u: `${SITE}/produto/tenis-corrida`, ts },
        { t: 'ev', c: 'carrinho', p: { produto: 'Tênis Corrida', valor: 299.9 }, ts },
        { t: 'id', p: { email: 'Ana@Exemplo.com.br', phone: '(11) 98765-4321', name: 'Ana' }, ts },
        {
          t: 'optin',
          s: { endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: { p256dh: 'BPk', auth: 'xyz' } },
          ts,
        },
      ],
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 5, rejected: [], onsite: [] });
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    await collect(
      {
        id: domain.gero_id,
        vid: 'visitante-2',
        e: [
          { t: 'pv', u: `${SITE}/carrinho` },
          { t: 'ev', c: 'carrinho', p: { produto: 'Meia' } },
        ],
      },
      { 'user-agent': IPHONE, 'x-forwarded-for': '177.10.10.10' },
    );
    await t.app.ingestor.drain();

    const people = (await api(`/api/person/list/${domain.uuid}`)).body.data as {
      visitor_id: string;
      email: string;
      phone: string;
      push_status: string;
      user_stored_data: Record<string, unknown>;
    }[];
    const ana = people.find((p) => p.visitor_id === 'visitante-1')!;
    expect(ana).toMatchObject({ email: 'ana@exemplo.com.br', phone: '11987654321', push_status: 'subscribed' });
    expect(ana.user_stored_data).toMatchObject({
      'navigator.browser': 'Chrome',
      'navigator.version': '130.0.0.0',
      'navigator.mobile': false,
      'navigator.language': 'pt-BR',
      'client.device.os': 'Windows',
      'client.device.name': 'desktop',
      'client.location.country': 'BR',
      'client.location.region': 'Sao Paulo',
      'client.location.city': 'Sao Paulo',
      'asn.autonomous_system_organization': expect.stringContaining('NIC.BR'),
      origin: 'www.google.com',
    });
    expect(ana.user_stored_data['visited.url']).toEqual(
      expect.arrayContaining([`${SITE}/`, `${SITE}/produto/tenis-corrida`]),
    );
    const bruno = people.find((p) => p.visitor_id === 'visitante-2')!;
    expect(bruno.user_stored_data).toMatchObject({
      'navigator.mobile': true,
      'client.device.os': 'iOS',
      'client.location.region': 'Rio Grande do Sul',
      origin: 'direct',
    });
    expect(JSON.stringify(people)).not.toContain('200.160.2.3');

    const categories = (await api(`/api/person/event/${domain.uuid}`)).body.data;
    expect(categories).toEqual([expect.objectContaining({ parent_category: 'carrinho', seen_count: 2 })]);
    const keys = (await api(`/api/person/event/filters/${categories[0].uuid}`)).body.data;
    expect(keys.map((k: { key: string }) => k.key)).toEqual(['produto', 'valor']);
    const values = (await api(`/api/person/event/filters/${categories[0].uuid}/key/produto`)).body.data;
    expect(values.map((v: { value: string }) => v.value).sort()).toEqual(['Meia', 'Tênis Corrida']);

    const filters = (await api(`/api/person/filter/${domain.uuid}`)).body.data;
    expect(filters).toContainEqual({ key: 'user_stored_data.client.location.country', name: 'País', mask: 'select' });
    const countries = (await api(`/api/person/search/${domain.uuid}/filter/user_stored_data.client.location.country`))
      .body.data;
    expect(countries).toEqual([{ name: 'Brasil', value: 'BR', emoji: '🇧🇷', code: 'BR', initials: 'BR', state: null }]);
    const regions = (
      await api(`/api/person/search/${domain.uuid}/filter/user_stored_data.client.location.region?search=grande`)
    ).body.data;
    expect(regions).toEqual([
      {
        name: 'Rio Grande do Sul',
        value: 'Rio Grande do Sul',
        emoji: '📍',
        code: 'RS',
        initials: 'RS',
        state: 'Rio Grande do Sul',
      },
    ]);

    const impact = await call(
      t.app,
      'POST',
      `/api/person/search/peopleImpacted/${domain.uuid}`,
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
    expect(impact.body.data.percentualAtingido).toBe(50);
    const everyone = await call(
      t.app,
      'POST',
      `/api/person/search/peopleImpacted/${domain.uuid}`,
      { momentums: [] },
      owner.token,
    );
    expect(everyone.body.data.percentualAtingido).toBe(100);
  });

  it("another company's visitors, categories and filters answer 404", async () => {
    const categories = (await api(`/api/person/event/${domain.uuid}`)).body.data;
    for (const url of [
      `/api/person/list/${domain.uuid}`,
      `/api/person/filter/${domain.uuid}`,
      `/api/person/event/${domain.uuid}`,
      `/api/person/search/${domain.uuid}/filter/user_stored_data.navigator.browser`,
      `/api/person/event/filters/${categories[0].uuid}`,
    ]) {
      expect((await api(url, stranger.token)).status, url).toBe(404);
    }
    const impact = await call(
      t.app,
      'POST',
      `/api/person/search/peopleImpacted/${domain.uuid}`,
      { momentums: [] },
      stranger.token,
    );
    expect(impact.status).toBe(404);
  });

  it('refuses a foreign origin, an unknown or disabled id, and drops bots', async () => {
    const batch = { id: domain.gero_id, vid: 'x', e: [{ t: 'pv', u: `${SITE}/` }] };
    const foreign = await collect(batch, { origin: 'https://golpe.com' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe(collectMessages.foreignOrigin);
    expect((await collect(batch, { origin: 'https://loja-coleta.com.br.golpe.com' })).statusCode).toBe(403);
    expect((await collect(batch, { origin: 'http://loja-coleta.com.br' })).statusCode).toBe(403);
    expect((await collect(batch, { origin: 'https://m.loja-coleta.com.br' })).statusCode).toBe(202);
    const unknown = await collect({ ...batch, id: 'G-NAOEXISTE' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(collectMessages.unknownId);

    const before = await countEvents();
    const bot = await collect(batch, {
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    expect(bot.statusCode).toBe(202);
    expect(bot.json().accepted).toBe(0);
    const headless = await collect(batch, { 'user-agent': CHROME.replace('Chrome/', 'HeadlessChrome/') });
    expect(headless.json().accepted).toBe(0);
    await t.app.ingestor.drain();
    expect(await countEvents()).toBe(before + 1);

    const other = await createDomain(t.app, owner, 'Off', 'https://off.com.br');
    await call(t.app, 'DELETE', '/api/domain/remove', { domain: { uuid: other.uuid } }, owner.token);
    const disabled = await collect({ ...batch, id: other.gero_id }, { origin: 'https://off.com.br' });
    expect(disabled.statusCode).toBe(403);
    expect(disabled.json().message).toBe(collectMessages.disabled);
  });

  it('answers malformed batches with 4xx or per-index rejections, never 5xx, and stores exactly what it accepted', async () => {
    expect((await collect('{"id":')).statusCode).toBe(400);
    expect((await collect('[]')).statusCode).toBe(400);
    expect((await collect({ id: domain.gero_id, vid: 'v', e: 'não é lista' })).statusCode).toBe(400);
    const many = await collect({
      id: domain.gero_id,
      vid: 'v',
      e: Array.from({ length: 10_000 }, () => ({ t: 'pv', u: `${SITE}/` })),
    });
    expect(many.statusCode).toBe(413);
    const huge = await collect({ id: domain.gero_id, vid: 'v', e: [{ t: 'pv', u: `${SITE}/${'a'.repeat(600_000)}` }] });
    expect(huge.statusCode).toBe(413);

    const before = await countEvents();
    const mixed = await collect({
      id: domain.gero_id,
      vid: 'misto',
      e: [
        { t: 'pv', u: `${SITE}/ok` },
        { t: 'pv', u: 42 },
        { t: 'desconhecido' },
        { t: 'ev', c: 'x'.repeat(101) },
        { t: 'ev', c: 'busca', p: { termo: 'x'.repeat(501) } },
        { t: 'optin', s: { endpoint: 'http://127.0.0.1:9/push', keys: { p256dh: 'a', auth: 'b' } } },
        { t: 'ev', c: 'busca', p: { termo: 'tênis' } },
        null,
      ],
    });
    expect(mixed.statusCode).toBe(202);
    const body = mixed.json();
    expect(body.accepted).toBe(2);
    expect(body.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2, 3, 4, 5, 7]);
    expect(body.rejected.find((r: { index: number }) => r.index === 5).message).toBe(collectMessages.privateEndpoint);

    let accepted = 0;
    for (let i = 0; i < 20; i++) {
      const res = await collect({
        id: domain.gero_id,
        vid: `lote-${i % 7}`,
        e: Array.from({ length: 20 }, (_, j) => ({ t: 'pv', u: `${SITE}/p/${j}` })),
      });
      accepted += res.json().accepted;
    }
    await t.app.ingestor.drain();
    expect(accepted).toBe(400);
    expect(await countEvents()).toBe(before + 2 + 400);
  });

  it('keeps the service worker reports without a visitor, and answers CORS preflights', async () => {
    const res = await collect({
      id: domain.gero_id,
      e: [
        { t: 'viewed', d: 'entrega-1' },
        { t: 'pv', u: `${SITE}/` },
      ],
    });
    expect(res.json()).toMatchObject({
      accepted: 1,
      rejected: [{ index: 1, message: collectMessages.missingVisitor }],
    });
    await t.app.ingestor.drain();
    const rows = await queryRows<{ kind: string; person_uuid: string | null }>(
      t.app.ctx.db,
      sql`SELECT kind, person_uuid FROM events WHERE props ->> 'delivery_id' = 'entrega-1'`,
    );
    expect(rows).toEqual([{ kind: 'viewed', person_uuid: null }]);
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/collect',
      headers: { origin: SITE, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(SITE);
  });
});
