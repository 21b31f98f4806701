import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocks,
  call,
  companyForm,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../test/harness.ts';
import { sealText } from '../test/seal-text.ts';
import { queryRows } from './db/client.ts';

/*
 * Every registered route, driven with generated path parameters, query strings and bodies (shaped after the
 * route's own schema, with hostile values mixed in at every level) as a signed-in user of company A.
 * Properties: no answer is a 5xx, and company B's rows are exactly what they were.
 * FUZZ_RUNS scales the cases per route; FUZZ_SEED replays a run (fast-check prints the seed of a failure).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

type Owner = Awaited<ReturnType<typeof signUpAndSignIn>>;
interface Tenant {
  owner: Owner;
  domain: { uuid: string; gero_id: string };
  momentum: string;
  channel: string;
  media: string;
  mediaFile: string;
  category: string;
}
interface Route {
  method: string;
  url: string;
}
type JsonSchema = Record<string, unknown>;

let t: TestApp;
let dataDir: string;
let a: Tenant;
let b: Tenant;
const SITE_A = 'https://loja-a-fuzz.com.br';
const SITE_B = 'https://loja-b-fuzz.com.br';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function tenant(site: string): Promise<Tenant> {
  const owner = await signUpAndSignIn(t.app);
  const domain = await createDomain(t.app, owner, 'Loja', site);
  const momentum = await createMomentum(t.app, owner, domain.uuid, 'Boas-vindas', [
    blocks.everyone,
    blocks.pageviewContaining('/produto'),
    blocks.topbar(),
  ]);
  const channel = await call(
    t.app,
    'POST',
    '/api/channel/create',
    {
      channel: {
        domain_uuid: domain.uuid,
        channel_type: 'ZENVIA',
        properties: { login: 'l', password: 'p', sender: 'S' },
      },
    },
    owner.token,
  );
  const media = await call(t.app, 'POST', `/api/gallery/upload/${domain.uuid}/domain`, { images: [PNG] }, owner.token);
  const visit = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: site, 'user-agent': CHROME },
    payload: JSON.stringify({
      id: domain.gero_id,
      vid: 'visitante-1',
      e: [
        { t: 'pv', u: `${site}/produto/1`, ti: 'Produto' },
        { t: 'ev', c: 'carrinho', p: { produto: 'Tênis', valor: 10 } },
        { t: 'id', p: { email: 'ana@exemplo.com.br' } },
      ],
    }),
  });
  expect(visit.statusCode).toBe(202);
  await t.app.ingestor.drain();
  const categories = await call(t.app, 'GET', `/api/person/event/${domain.uuid}`, undefined, owner.token);
  return {
    owner,
    domain,
    momentum: momentum.uuid,
    channel: channel.body.data.uuid,
    media: media.body.data[0].id,
    mediaFile:
      String(media.body.data[0].url ?? '')
        .split('/')
        .pop() ?? '',
    category: categories.body.data[0].uuid,
  };
}

/** Every row of every table that belongs to B, as text: by company, domain, user, person or momentum. */
async function snapshotOf(x: Tenant) {
  const columns = await queryRows<{ table_name: string; column_name: string }>(
    t.app.ctx.db,
    sql`SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' ORDER BY table_name, column_name`,
  );
  const byTable = new Map<string, Set<string>>();
  for (const c of columns) byTable.set(c.table_name, (byTable.get(c.table_name) ?? new Set()).add(c.column_name));
  const ids = {
    company_uuid: [x.owner.company.uuid],
    domain_uuid: [x.domain.uuid],
    user_uuid: [x.owner.signin.body.data.user_uuid],
    momentum_uuid: [x.momentum],
  };
  const out: Record<string, string[]> = {};
  for (const [table, cols] of byTable) {
    const conditions = Object.entries(ids)
      .filter(([col]) => cols.has(col))
      .map(
        ([col, values]) =>
          sql`t.${sql.identifier(col)}::text IN (${sql.join(
            values.map((v) => sql`${v}`),
            sql`, `,
          )})`,
      );
    if (table === 'companies') conditions.push(sql`t.uuid::text = ${x.owner.company.uuid}`);
    if (table === 'users') conditions.push(sql`t.company_uuid::text = ${x.owner.company.uuid}`);
    if (cols.has('person_uuid'))
      conditions.push(sql`t.person_uuid IN (SELECT uuid FROM persons WHERE domain_uuid::text = ${x.domain.uuid})`);
    if (cols.has('category_uuid'))
      conditions.push(
        sql`t.category_uuid IN (SELECT uuid FROM event_categories WHERE domain_uuid::text = ${x.domain.uuid})`,
      );
    if (conditions.length === 0) continue;
    const rows = await queryRows<{ row: string }>(
      t.app.ctx.db,
      sql`SELECT to_jsonb(t)::text AS row FROM ${sql.identifier(table)} t WHERE ${sql.join(conditions, sql` OR `)} ORDER BY 1`,
    );
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

/** The routes Fastify has, read from its own route tree (printRoutes), so a new route is fuzzed the day it lands. */
function registeredRoutes(): Route[] {
  const tree = t.app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const m = line.match(/^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/u);
    if (!m) continue;
    const depth = [...m[1]!].length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = url;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method === 'HEAD') continue;
      routes.push({ method, url });
    }
  }
  return routes.filter((r) => !r.url.startsWith('/api/docs') && !(r.method === 'OPTIONS' && r.url === '*'));
}

/* ---------- generated values ---------- */

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
const CONTROL = [...Array(32).keys(), 127].map((c) => String.fromCharCode(c));

/** NUL above all: PostgreSQL cannot store it in text or jsonb. */
const oddCharacter = fc.oneof(
  { weight: 4, arbitrary: fc.constant('\u0000') },
  { weight: 2, arbitrary: fc.constantFrom(...CONTROL) },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udc00', '\u2028', '\ufffe', '😀', '\u0301') },
);

const hostileString = fc.oneof(
  fc.tuple(fc.string({ maxLength: 6 }), oddCharacter, fc.string({ maxLength: 6 })).map((p) => p.join('')),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\u0000'.repeat(3), '%00', '\\u0000', '..', '../..', '%2F', '/'),
  fc.constantFrom('\ud800', 'x\udfff', '\u202e', '\ufeff', '😀', 'São Paulo ção', 'NaN', 'null', 'undefined', '-1'),
  fc.constantFrom("' OR 1=1 --", '"; DROP TABLE users; --', '<script>alert(1)</script>', '$' + '{7*7}', '{{7*7}}'),
  fc.constantFrom(...PROTO_KEYS),
  fc.array(fc.constantFrom(...CONTROL, 'a', 'ç'), { maxLength: 8 }).map((cs) => cs.join('')),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(1_000, 70_000, 300_000).map((n) => 'a'.repeat(n)),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 63), 1e308, -1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...PROTO_KEYS), hostileString), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** A value shaped after a JSON schema, with hostile values mixed in at every level. */
function fromSchema(schema: JsonSchema | undefined, pools: { uuids: string[] }, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 8) return hostileValue;
  const typed = typedFromSchema(schema, pools, depth);
  return fc.oneof({ weight: 6, arbitrary: typed }, { weight: 1, arbitrary: hostileValue });
}

function typedFromSchema(s: JsonSchema, pools: { uuids: string[] }, depth: number): fc.Arbitrary<unknown> {
  const anyOf = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (anyOf?.length) return fc.oneof(...anyOf.map((x) => fromSchema(x, pools, depth + 1)));
  if (Array.isArray(s.allOf) && s.allOf.length) return fromSchema(s.allOf[0] as JsonSchema, pools, depth + 1);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fromSchema(v, pools, depth + 1)]));
      const required = ((s.required ?? []) as string[]).filter((k) => k in model);
      const extra =
        typeof s.additionalProperties === 'object'
          ? fc.dictionary(
              fc.string({ maxLength: 8 }),
              fromSchema(s.additionalProperties as JsonSchema, pools, depth + 1),
              {
                maxKeys: 2,
              },
            )
          : fc.constant({});
      return fc
        .tuple(fc.record(model, { requiredKeys: required }), extra)
        .map(([known, more]) => ({ ...more, ...known }));
    }
    case 'array':
      return fc.array(fromSchema(s.items as JsonSchema, pools, depth + 1), {
        maxLength: Math.min(Number(s.maxItems ?? 3), 3),
      });
    case 'string':
      if (s.format === 'uuid') return fc.oneof(fc.constantFrom(...pools.uuids), fc.uuid());
      if (s.format === 'email') return fc.emailAddress();
      if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      if (s.format === 'date') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (s.format === 'uri') return fc.webUrl();
      return fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('https://loja-a-fuzz.com.br/produto', 'Active'));
    case 'integer':
      return fc.integer({ min: -5, max: 100_000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return hostileValue;
  }
}

/** Valid bodies of company A, one or more per route: mutated one place at a time, they reach past validation. */
function samplesOf(x: Tenant): Record<string, unknown[]> {
  const form = companyForm();
  const momentum = {
    domain_uuid: x.domain.uuid,
    type: 'momentum',
    momentum_title: 'Carrinho',
    momentum_description: 'Lembrete',
    status: 'Draft',
    momentums: [blocks.everyone, blocks.pageviewContaining('/carrinho'), blocks.topbar()],
  };
  const filter = {
    momentums: [
      {
        type: 'filter',
        values: [
          { filter: 'user_stored_data.navigator.mobile', comparation: '==', value: ['Sim'] },
          { filter: 'user_stored_data.email', comparation: 'contain', value: ['@'], logical: 'or' },
        ],
      },
    ],
  };
  return {
    'POST /api/users/signin': [{ user: { username: x.owner.user.username, password: 'x' }, captcha: 'e30=' }],
    'POST /api/users/signup': [
      { company: { name: 'Outra Loja' } },
      { user: { email: x.owner.user.email } },
      { user: { ...x.owner.user, username: 'novo.usuario', email: 'novo@exemplo.com.br' } },
    ],
    'PUT /api/users/validate': [{ user: { cid: 'abc' } }],
    'PUT /api/users/password': [{ user: { token: 'abc', password: 'x', password_confirmation: 'x' } }],
    'POST /api/company/create': [{ company: { name: 'Loja Nova' } }],
    'POST /api/company/:id/step2': [{ company: form }],
    'PUT /api/company/update/:id': [{ company: form }],
    'POST /api/domain/create': [
      { domain: { company_uuid: x.owner.company.uuid, name: 'Outra', domain: 'https://outra.com.br' } },
    ],
    'PUT /api/domain/update/:uuid': [{ domain: { name: 'Loja', address: SITE_A } }, { domain: { status: 'Active' } }],
    'PUT /api/domain/update': [{ domain: { uuid: x.domain.uuid, name: 'Loja', address: SITE_A } }],
    'DELETE /api/domain/remove': [{ domain: { uuid: x.domain.uuid } }],
    'POST /api/gero/validate': [{ gero: { domain_uuid: x.domain.uuid } }],
    'POST /api/channel/create': [
      {
        channel: {
          domain_uuid: x.domain.uuid,
          channel_type: 'ZENVIA',
          properties: { login: 'l', password: 'p', sender: 'S' },
        },
      },
    ],
    'PUT /api/channel/update': [
      {
        channel: {
          uuid: x.channel,
          domain_uuid: x.domain.uuid,
          channel_type: 'ZENVIA',
          properties: { login: 'l', password: 'p', sender: 'S' },
        },
      },
    ],
    'POST /api/gallery/upload/:domain_uuid/domain': [{ images: [PNG, { name: 'a.png', data: PNG }] }],
    'POST /api/person/search/peopleImpacted/:domain': [filter],
    'POST /api/momentum/create': [momentum],
    'POST /api/momentum/create/': [momentum],
    'PUT /api/momentum/update': [{ ...momentum, uuid: x.momentum, status: 'Paused' }],
    'PUT /api/momentum/status/:uuid': [{ status: 'Paused' }],
    'POST /collect': [
      {
        id: x.domain.gero_id,
        vid: 'visitante-fuzz',
        v: '1.1.0',
        l: 'pt-BR',
        e: [
          { t: 'pv', u: `${SITE_A}/produto/2`, r: 'https://www.google.com/', ti: 'Produto', ts: Date.now() },
          { t: 'ev', c: 'carrinho', p: { produto: 'Meia', valor: 5 } },
          { t: 'id', p: { email: 'bia@exemplo.com.br', phone: '(11) 98765-4321' } },
        ],
      },
    ],
  };
}

type Path = (string | number)[];
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));
function nodesOf(v: unknown, at: Path = []): { path: Path; value: unknown }[] {
  const here = { path: at, value: v };
  if (Array.isArray(v)) return [here, ...v.flatMap((x, i) => nodesOf(x, [...at, i]))];
  if (v && typeof v === 'object') return [here, ...Object.entries(v).flatMap(([k, x]) => nodesOf(x, [...at, k]))];
  return [here];
}
/** A copy of `root` with `value` at `path`; own properties only, so '__proto__' stays a key. */
function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = clone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  Object.defineProperty(node, path.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** One change to a valid body: a node replaced, a hostile character inserted into a text, or an extra key. */
function mutationsOf(sample: unknown): fc.Arbitrary<unknown> {
  const nodes = nodesOf(sample);
  const texts = nodes.filter((n) => typeof n.value === 'string');
  const objects = nodes.filter((n) => n.value && typeof n.value === 'object' && !Array.isArray(n.value));
  const arbitraries: fc.WeightedArbitrary<unknown>[] = [
    { weight: 1, arbitrary: fc.constant(sample) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom(...nodes), hostileValue).map(([n, v]) => setAt(sample, n.path, v)),
    },
  ];
  if (texts.length)
    arbitraries.push({
      weight: 4,
      arbitrary: fc.tuple(fc.constantFrom(...texts), oddCharacter, fc.nat()).map(([n, ch, at]) => {
        const text = n.value as string;
        const i = at % (text.length + 1);
        return setAt(sample, n.path, text.slice(0, i) + ch + text.slice(i));
      }),
    });
  if (objects.length)
    arbitraries.push({
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...objects), fc.oneof(fc.constantFrom(...PROTO_KEYS), hostileString), hostileValue)
        .map(([n, key, v]) => setAt(sample, [...n.path, key], v)),
    });
  return fc.oneof(...arbitraries);
}

/** Percent-encodes UTF-8 bytes (lone surrogates become U+FFFD, as a browser would send them). */
const encode = (s: string) =>
  [...Buffer.from(s, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`,
    )
    .join('');

const rawSegment = fc.constantFrom('%00', '%ZZ', '%C0%AF', '%FF', '%E0%80', '%', '%2e%2e', '%u0000');

function routeInput(route: Route, bodySchema: JsonSchema | undefined, queryNames: string[], samples: unknown[]) {
  const uuids = [a, b].flatMap((x) => [
    x.owner.company.uuid,
    x.domain.uuid,
    x.momentum,
    x.channel,
    x.owner.signin.body.data.user_uuid,
  ]);
  const idLike = fc.oneof(
    fc.constantFrom(...uuids, a.domain.gero_id, String(a.media), String(b.media), '1.0.0', 'gero.min.js'),
    fc.uuid(),
    hostileString,
  );
  // A's own value for a parameter of this name, so most cases reach past the lookup into the route's logic.
  const own: Record<string, string[]> = {
    uuid: [a.domain.uuid, a.momentum],
    id: [a.owner.company.uuid, a.momentum],
    company_uuid: [a.owner.company.uuid],
    domain: [a.domain.uuid],
    domain_uuid: [a.domain.uuid],
    domainUuid: [a.domain.uuid],
    imageId: [String(a.media)],
    category: [a.category],
    key: ['produto', 'valor', 'user_stored_data.email', 'user_stored_data.navigator.mobile'],
    gero_id: [a.domain.gero_id],
    file: [a.mediaFile],
    version: ['1.0.0', '1.1.0'],
  };
  const paramNames = [...route.url.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');
  const params = fc.tuple(
    ...paramNames.map((name) =>
      fc.oneof(
        { weight: own[name] ? 5 : 0, arbitrary: fc.constantFrom(...(own[name] ?? ['-'])) },
        {
          weight: own[name] ? 2 : 0,
          arbitrary: fc
            .tuple(fc.constantFrom(...(own[name] ?? ['-'])), oddCharacter, fc.nat())
            .map(([v, ch, at]) => encode(v.slice(0, at % (v.length + 1)) + ch + v.slice(at % (v.length + 1)))),
        },
        { weight: 3, arbitrary: idLike.map(encode) },
        { weight: 1, arbitrary: rawSegment },
      ),
    ),
  );
  // A's own values for the query names routes read, then the same with a hostile character, then noise.
  const ownQuery: Record<string, string[]> = {
    id: [a.momentum, a.domain.gero_id],
    vid: ['visitante-1'],
    type: ['momentum', 'campaign', 'dcm'],
    page: ['1', '2'],
    search: ['ana', 'São'],
  };
  const ownPair = fc.constantFrom(
    ...Object.entries(ownQuery).flatMap(([k, vs]) => vs.map((v) => [k, v] as const)),
    ...queryNames.map((k) => [k, '1'] as const),
  );
  const spoiled = fc
    .tuple(ownPair, oddCharacter, fc.nat())
    .map(([[k, v], ch, at]) => [k, v.slice(0, at % (v.length + 1)) + ch + v.slice(at % (v.length + 1))] as const);
  const queryKey = fc.oneof(fc.constantFrom(...queryNames, ...PROTO_KEYS, 'page', 'type', 'id', 'vid'), hostileString);
  const queryValue = fc.oneof(
    idLike,
    fc.constantFrom('2026-01-01', '2026-13-45', 'momentum', 'campaign', '0', '-1', '999999999999'),
  );
  const query = fc.array(
    fc.oneof(
      { weight: 4, arbitrary: ownPair.map(([k, v]) => `${encode(k)}=${encode(v)}`) },
      { weight: 3, arbitrary: spoiled.map(([k, v]) => `${encode(k)}=${encode(v)}`) },
      { weight: 3, arbitrary: fc.tuple(queryKey, queryValue).map(([k, v]) => `${encode(k)}=${encode(v)}`) },
      { weight: 1, arbitrary: fc.tuple(queryKey, rawSegment).map(([k, v]) => `${encode(k)}=${v}`) },
    ),
    { maxLength: 4 },
  );
  const hasBody = ['POST', 'PUT', 'DELETE', 'PATCH'].includes(route.method);
  const envelope = fc.record({
    _pid: hostileString,
    _edv: fc.oneof(fc.constant(1), hostileValue),
    _mt: hostileString,
    ed: hostileString,
  });
  const body = hasBody
    ? fc.oneof(
        ...samples.map((sample) => ({ weight: 12 / samples.length, arbitrary: mutationsOf(sample) })),
        { weight: samples.length ? 2 : 6, arbitrary: fromSchema(bodySchema, { uuids }) },
        { weight: 2, arbitrary: hostileValue },
        { weight: 1, arbitrary: envelope },
      )
    : fc.constant(undefined);
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data') },
  );
  const origin = fc.constantFrom(undefined, SITE_A, 'null', 'https://evil.example');
  return fc.record({ params, query, body, contentType, origin });
}

/* ---------- deep bodies ---------- */

const DEEP = 10_000;
/** JSON texts nested `depth` deep: arrays, objects, and the two mixed (with a NUL at the bottom). */
const deepBodies = (depth: number) => [
  `${'['.repeat(depth)}${']'.repeat(depth)}`,
  `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  `${'{"a":['.repeat(depth / 2)}"\\u0000"${']}'.repeat(depth / 2)}`,
];
/** A valid sample with a deep value in place of each top-level value, so validation cannot stop at the root. */
const deepInside = (sample: unknown, depth: number): string[] => {
  if (!sample || typeof sample !== 'object' || Array.isArray(sample)) return [];
  return Object.keys(sample).flatMap((k) =>
    deepBodies(depth).map((deep) => JSON.stringify({ ...sample, [k]: '__deep__' }).replace('"__deep__"', deep)),
  );
};
/* ---------- the run ---------- */

// The app is built while the file is collected, so each registered route becomes its own test.
dataDir = mkdtempSync(path.join(tmpdir(), 'impeto-fuzz-'));
t = await createTestApp({ authRateLimit: 1_000_000, dataDir });
// Destructive routes last, so the others still see A's domain; logout would end A's session.
const order = (r: Route) => (r.url === '/api/users/logout' ? 3 : r.method === 'DELETE' ? 2 : 1);
const routes = registeredRoutes().sort((x, y) => order(x) - order(y));
const spec = t.app.swagger() as unknown as { paths: Record<string, Record<string, JsonSchema>> };
let samples: Record<string, unknown[]>;
let before: Awaited<ReturnType<typeof snapshotOf>>;

beforeAll(async () => {
  a = await tenant(SITE_A);
  b = await tenant(SITE_B);
  samples = samplesOf(a);
  before = await snapshotOf(b);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('every route, fuzzed as company A', () => {
  it('finds the routes and has a valid sample only for routes that exist', () => {
    expect(routes.length).toBeGreaterThan(40);
    const keys = new Set(routes.map((r) => `${r.method} ${r.url}`));
    expect(Object.keys(samples).filter((k) => !keys.has(k))).toEqual([]);
  });

  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))('%s answers no 5xx', async (key, route) => {
    const op = spec.paths[route.url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{*}')]?.[route.method.toLowerCase()];
    const content = (op?.requestBody as { content?: Record<string, { schema?: JsonSchema }> } | undefined)?.content;
    const bodySchema = content?.['application/json']?.schema;
    const queryNames = ((op?.parameters ?? []) as { in: string; name: string }[])
      .filter((p) => p.in === 'query')
      .map((p) => p.name);
    await fc.assert(
      fc.asyncProperty(routeInput(route, bodySchema, queryNames, samples[key] ?? []), async (input) => {
        let i = 0;
        const url = route.url.replace(/:\w+|\*/g, () => input.params[i++] as string);
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: input.query.length ? `${url}?${input.query.join('&')}` : url,
          headers: {
            authorization: `Bearer ${a.owner.token}`,
            'user-agent': CHROME,
            ...(input.body !== undefined ? { 'content-type': input.contentType } : {}),
            ...(input.origin ? { origin: input.origin } : {}),
          },
          payload: input.body === undefined ? undefined : JSON.stringify(input.body),
        });
        if (process.env.FUZZ_DEBUG) console.log(`${key} ${res.statusCode} ${res.body.slice(0, 90)}`);
        if (res.statusCode >= 500) throw new Error(`${key} → ${res.statusCode} ${res.body.slice(0, 300)}`);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true, includeErrorInReport: true },
    );
  });

  // A body nested 10,000 deep is a few kilobytes: no walk of it may run out of stack, plain or sealed.
  it.each(routes.map((r) => [`${r.method} ${r.url}`, r] as const))(
    '%s answers no 5xx to a body nested 10,000 deep',
    async (key, route) => {
      const envelopeKey = (await t.app.inject({ method: 'GET', url: '/api/envelope/key' })).json().data;
      let i = 0;
      const ownParams: Record<string, string> = {
        uuid: a.domain.uuid,
        id: a.owner.company.uuid,
        domain: a.domain.uuid,
        domain_uuid: a.domain.uuid,
        gero_id: a.domain.gero_id,
      };
      const url = route.url.replace(/:(\w+)|\*/g, (_m, name?: string) => (name && ownParams[name]) || `x${i++}`);
      const bodies = [...deepBodies(DEEP), ...(samples[key] ?? []).flatMap((s) => deepInside(s, DEEP))];
      const wrong: string[] = [];
      for (const text of bodies) {
        for (const [how, contentType, payload] of [
          ['plain', 'application/json', text],
          ['sealed', 'application/json', JSON.stringify(await sealText(envelopeKey, text))],
          ['plain', 'text/plain', text],
        ] as const) {
          const res = await t.app.inject({
            method: route.method as 'POST',
            url,
            headers: {
              authorization: `Bearer ${a.owner.token}`,
              'user-agent': CHROME,
              origin: SITE_A,
              'content-type': contentType,
            },
            payload,
          });
          if (res.statusCode >= 500)
            wrong.push(`${how} ${contentType} ${text.slice(0, 40)}… → ${res.statusCode} ${res.body}`);
        }
      }
      expect(wrong, key).toEqual([]);
    },
  );

  it("leaves company B's rows exactly as they were", async () => {
    await t.app.ingestor.drain();
    expect(await snapshotOf(b)).toEqual(before);
  });
});
