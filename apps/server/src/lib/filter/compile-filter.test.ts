import { randomUUID } from 'node:crypto';
import { FILTER_KEYS, type FilterBlockInput, operatorsFor, REGEX_OPERATORS } from '@impeto/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { companies, domains, persons } from '../../db/schema.ts';
import { compareCodePoints, compareDecimals, compileFilter, foldCase } from './compile-filter.ts';

/** mulberry32: the same persons on every run and both databases. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MOMENTUMS = ['6f1c0f0e-0000-4000-8000-000000000001', '6f1c0f0e-0000-4000-8000-000000000002', 'abc'];
const POOLS: Record<string, unknown[]> = {
  'navigator.browser': ['Chrome', 'chrome', 'CHROME', ' Chrome ', 'Firefox', 'Safari', 'Edge', 'Samsung Internet', 42],
  'navigator.version': ['120.0', '120.0.6099.109', '120', '120.00', '99.1', '9', '100', '121', 'abc', '-1', '0.5', 120],
  'navigator.language': ['pt-BR', 'pt-br', 'PT-BR', 'en-US', 'es'],
  'navigator.mobile': [true, false, 'true', 'false'],
  'client.device.os': ['Windows', 'Android', 'iOS', 'macOS', 'Linux', 'android'],
  'client.device.name': ['iPhone', 'Galaxy S23', 'Moto G', 'Desktop'],
  'client.location.country': ['Brasil', 'BRASIL', 'Portugal', 'Estados Unidos', 'Brasília?'],
  'client.location.region': ['São Paulo', 'SÃO PAULO', 'Minas Gerais', 'Paraná', 'Ceará', 'Rio de Janeiro'],
  'client.location.city': ['São Paulo', 'são paulo', 'Belo Horizonte', 'Curitiba', 'Niterói', '  Niterói  ', 'NITERÓI'],
  'client.location.timezone': ['America/Sao_Paulo', 'America/Manaus', 'america/manaus', 'America/Rio_Branco', 'UTC'],
  'asn.autonomous_system_organization': ['Claro S.A.', 'TIM S/A', 'Vivo', 'Oi', 'claro s.a.'],
  origin: ['google', 'Google Ads', ' google ads ', '\u00a0Google Ads', 'facebook', 'direct', 'E-mail', 'ÉPOCA'],
  createdAt: [
    '2024-03-10T00:00:00.000Z',
    '2024-03-09T23:59:59.999Z',
    '2024-03-10T00:00:00.001Z',
    '2024-03-10T00:00:00Z',
    '2024-03-10T00:00Z',
    '2024-03-10',
    '2024-03-11T12:00:00.000Z',
    '2024-03-12T23:59:59.999Z',
    '2024-03-13T00:00:00.000Z',
    '2023-12-31T23:59:59.999Z',
    '2024-03-10T03:00:00-03:00',
    'ontem',
  ],
  'notified.clicked': [true, false],
  'notified.viewed': [true, false, 'true'],
};
const URLS = [
  'https://loja.com.br/',
  'https://loja.com.br/produto/123',
  'https://loja.com.br/carrinho',
  'https://loja.com.br/busca?q=Tênis',
  'https://blog.loja.com.br/post-1',
  'http://loja.com.br/PRODUTO/9',
  'https://loja.com.br/checkout/obrigado',
];

/** Odd list elements: numbers whose text matters (120.0, 1e3 → 1000), booleans, and what lists skip. */
const LIST_EXTRAS: unknown[] = [7, 120, 120.0, 99.5, -1, 0.5, 2024, true, false, null, { a: 1 }, ['x'], 'SÃO', ''];

function randomAttributes(rand: () => number, wrap: () => number): Record<string, unknown> {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const pickWrap = <T>(list: T[]) => list[Math.floor(wrap() * list.length)]!;
  const attributes: Record<string, unknown> = {};
  for (const [key, pool] of Object.entries(POOLS)) {
    const r = rand();
    if (r < 0.15) continue; // missing
    if (r < 0.18) attributes[key] = null;
    else attributes[key] = pick(pool);
    // Any attribute may hold a list: its elements are tested one by one.
    if (wrap() < 0.12)
      attributes[key] = [attributes[key], pickWrap(pool), pickWrap(LIST_EXTRAS)].slice(0, 1 + Math.floor(wrap() * 3));
  }
  const r = rand();
  if (r < 0.15) {
    // no visited.url
  } else if (r < 0.2) attributes['visited.url'] = pick(URLS);
  else if (r < 0.25) attributes['visited.url'] = [pick(URLS), null, 7, { url: pick(URLS) }];
  else attributes['visited.url'] = Array.from({ length: Math.floor(rand() * 4) }, () => pick(URLS));
  if (rand() < 0.7)
    attributes['notified.momentum_uuid'] = Array.from({ length: Math.floor(rand() * 3) }, () => pick(MOMENTUMS));
  return attributes;
}

/** Values each filter is tried with: hits, near misses, case and accent variants. */
const PROBES: Record<string, (string | boolean)[][]> = {
  'navigator.browser': [['Chrome'], ['chrome'], ['Chrome', 'Safari'], ['hrom'], ['42'], ['Ópera']],
  'navigator.version': [['120'], ['120.0'], ['99.5'], ['9'], ['abc'], ['120', '9'], ['1']],
  'navigator.language': [['pt-BR'], ['PT'], ['en-US', 'es'], ['pt-br ']],
  'navigator.mobile': [['Sim'], ['Não'], [true, false]],
  'client.device.os': [['Android'], ['andr'], ['iOS', 'macOS']],
  'client.device.name': [['iPhone'], ['galaxy'], ['Moto G', 'Desktop']],
  'client.location.country': [['Brasil'], ['bras'], ['Portugal', 'Estados Unidos']],
  'client.location.region': [['São Paulo'], ['são'], ['SÃO'], ['Paraná', 'Ceará']],
  'client.location.city': [['São Paulo'], ['Niterói'], ['niteRÓI'], ['paulo', 'horiz']],
  'client.location.timezone': [['America/Manaus'], ['manaus'], ['America/Sao_Paulo', 'America/Rio_Branco']],
  'asn.autonomous_system_organization': [['Claro S.A.'], ['claro'], ['TIM S/A', 'Oi']],
  'visited.url': [
    ['https://loja.com.br/carrinho'],
    ['produto'],
    ['PRODUTO'],
    ['tênis'],
    ['https://loja.com.br/', 'https://blog.loja.com.br/post-1'],
    ['https://loja.com.br/m'],
  ],
  origin: [['google'], ['Google'], ['época'], ['direct', 'facebook'], ['e'], ['GOOGLE ADS']],
  createdAt: [['2024-03-10T00:00:00.000Z'], ['11/03/2024'], ['2024-03-13T00:00:00.000Z']],
  'notified.clicked': [['Sim'], ['Não']],
  'notified.viewed': [['Sim'], ['Não']],
  'notified.momentum_uuid': [[MOMENTUMS[0]!], [MOMENTUMS[0]!, MOMENTUMS[1]!], ['6F1C0F0E'], ['0001']],
};
const REGEX_PROBES: Record<string, string[]> = {
  'visited.url': ['^https://loja\\.com\\.br/produto/\\d+$', 'PRODUTO|carrinho', '[?&]q=T[eê]nis', '^http://'],
  'navigator.browser': ['^[Cc]hrome$', '\\s', 'fox$', '^\\w+$'],
  'client.location.city': ['^São', 'ó', '^\\s+'],
  'navigator.version': ['^1[0-9]{2}\\.', '\\.'],
  'notified.momentum_uuid': ['0001$'],
};

const condition = (key: string, comparation: string, value: (string | boolean)[], extra: object = {}) => ({
  filter: key === 'all' ? 'all' : `user_stored_data.${key}`,
  comparation,
  value,
  ...extra,
});

let t: TestApp;
let domainUuid: string;
let handDomainUuid: string;
const people: { uuid: string; visitorId: string; attributes: Record<string, unknown> }[] = [];

async function insertDomain(companyUuid: string, tag: string) {
  const uuid = randomUUID();
  await t.app.ctx.db.insert(domains).values({
    uuid,
    companyUuid,
    name: `Loja ${tag}`,
    domain: `https://${tag}.loja.com.br`,
    domainRoot: `https://${tag}.loja.com.br`,
    geroId: `G-${tag.toUpperCase()}-${uuid.slice(0, 8)}`,
    geroVersion: '1.0.0',
    cnSwVersion: '1.0.0',
    vapidPublic: 'test-public',
    vapidPrivate: 'test-private',
  });
  return uuid;
}

const HAND: Record<string, Record<string, unknown>> = {
  ana: {
    'navigator.browser': 'Chrome',
    'navigator.version': '120.0.6099.109',
    'navigator.mobile': true,
    'client.location.city': 'São Paulo',
    origin: 'Google Ads',
    'visited.url': ['https://loja.com.br/produto/1', 'https://loja.com.br/carrinho'],
    createdAt: '2024-03-10T00:00:00.000Z',
    'notified.clicked': true,
  },
  bia: {
    'navigator.browser': 'chrome',
    'navigator.version': '99.0',
    'navigator.mobile': false,
    'client.location.city': 'SÃO PAULO ',
    origin: ' GOOGLE ADS\t',
    'visited.url': ['https://loja.com.br/'],
    createdAt: '2024-03-09T23:59:59.999Z',
  },
  caio: {
    'navigator.browser': 'Firefox',
    'navigator.version': '121',
    'client.location.city': 'Curitiba',
    origin: 'Google Ads 2',
    'visited.url': [],
    createdAt: '2024-03-12T23:59:59.999Z',
    'notified.clicked': false,
  },
  davi: {},
};

async function selectBySql(block: unknown, domain: string) {
  const compiled = compileFilter(block);
  const rows = await t.app.ctx.db
    .select({ uuid: persons.uuid, visitorId: persons.visitorId })
    .from(persons)
    .where(and(eq(persons.domainUuid, domain), compiled.where));
  return rows;
}

beforeAll(async () => {
  t = await createTestApp();
  const companyUuid = randomUUID();
  await t.app.ctx.db.insert(companies).values({ uuid: companyUuid, name: 'Empresa do filtro' });
  domainUuid = await insertDomain(companyUuid, 'gerada');
  handDomainUuid = await insertDomain(companyUuid, 'manual');
  const rand = prng(20261122);
  const wrap = prng(4);
  for (let i = 0; i < 300; i++)
    people.push({ uuid: randomUUID(), visitorId: `v${i}`, attributes: randomAttributes(rand, wrap) });
  for (let i = 0; i < people.length; i += 100)
    await t.app.ctx.db.insert(persons).values(people.slice(i, i + 100).map((p) => ({ ...p, domainUuid })));
  await t.app.ctx.db.insert(persons).values(
    Object.entries(HAND).map(([visitorId, attributes]) => ({
      uuid: randomUUID(),
      domainUuid: handDomainUuid,
      visitorId,
      attributes,
    })),
  );
});
afterAll(() => t?.close());

describe('compileFilter: SQL and predicate select the same persons', () => {
  const stats = { cases: 0, partial: 0 };

  async function check(block: unknown) {
    const compiled = compileFilter(block);
    const bySql = (await selectBySql(block, domainUuid)).map((r) => r.uuid).sort();
    const byJs = people
      .filter((p) => compiled.matches(p))
      .map((p) => p.uuid)
      .sort();
    expect(bySql, JSON.stringify(block)).toEqual(byJs);
    stats.cases++;
    if (byJs.length > 0 && byJs.length < people.length) stats.partial++;
    return byJs.length;
  }

  for (const info of FILTER_KEYS) {
    if (info.key === 'all') continue;
    const key = info.key.replace('user_stored_data.', '');
    it(`every operator of ${info.name} (${key})`, async () => {
      for (const op of operatorsFor(info.key))
        for (const value of PROBES[key]!) {
          const extra = op === 'between' ? { value2: '13/03/2024' } : {};
          await check({ type: 'filter', values: [condition(key, op, value, extra)] });
        }
    });
  }

  it('regex flag with ==, !=, contain, notcontain and exactly', async () => {
    for (const [key, patterns] of Object.entries(REGEX_PROBES))
      for (const op of REGEX_OPERATORS.filter((o) => operatorsFor(`user_stored_data.${key}`).includes(o)))
        for (const pattern of patterns)
          await check({ type: 'filter', regex: true, values: [condition(key, op, [pattern])] });
    // The flag leaves boolean and date conditions as they are.
    await check({
      type: 'filter',
      regex: true,
      values: [
        condition('navigator.mobile', '==', ['Sim']),
        condition('visited.url', 'contain', ['produto/\\d'], { logical: 'and' }),
      ],
    });
  });

  it('two conditions joined with and / or', async () => {
    const pairs: [ReturnType<typeof condition>, ReturnType<typeof condition>][] = [
      [condition('navigator.browser', 'contain', ['chrome']), condition('navigator.mobile', '==', ['Sim'])],
      [condition('visited.url', 'notcontain', ['carrinho']), condition('createdAt', '>', ['2024-03-10T00:00:00.000Z'])],
      [condition('navigator.version', '>=', ['120']), condition('origin', 'exactly', ['google ads'])],
      [condition('origin', '!=', ['google']), condition('notified.momentum_uuid', '==', [MOMENTUMS[0]!])],
      [
        condition('createdAt', 'between', ['10/03/2024'], { value2: '11/03/2024' }),
        condition('navigator.version', '<', ['100']),
      ],
    ];
    for (const [a, b] of pairs)
      for (const logical of ['and', 'or'] as const) {
        await check({ type: 'filter', values: [a, { ...b, logical }] });
        await check({ type: 'filter', values: [b, { ...a, logical }] });
      }
  });

  it("'all' and a missing block select everyone", async () => {
    expect(await check({ type: 'filter', values: [{ filter: 'all' }] })).toBe(people.length);
    expect(await check(null)).toBe(people.length);
  });

  it('the comparisons were not trivial', () => {
    expect(stats.cases).toBeGreaterThan(300);
    expect(stats.partial / stats.cases).toBeGreaterThan(0.75);
  });
});

describe('compileFilter: hand-checked results', () => {
  const cases: [string, FilterBlockInput, string[]][] = [
    ['== is case-sensitive', { type: 'filter', values: [condition('navigator.browser', '==', ['Chrome'])] }, ['ana']],
    [
      '!= keeps the missing attribute',
      { type: 'filter', values: [condition('navigator.browser', '!=', ['Chrome'])] },
      ['bia', 'caio', 'davi'],
    ],
    [
      'contain ignores case and accents stay',
      { type: 'filter', values: [condition('client.location.city', 'contain', ['são'])] },
      ['ana', 'bia'],
    ],
    [
      'exactly ignores case and surrounding spaces',
      { type: 'filter', values: [condition('origin', 'exactly', ['google ads'])] },
      ['ana', 'bia'],
    ],
    [
      'a version compares numerically by its first two parts',
      { type: 'filter', values: [condition('navigator.version', '>=', ['100'])] },
      ['ana', 'caio'],
    ],
    [
      '== on a list: some element equals',
      { type: 'filter', values: [condition('visited.url', '==', ['https://loja.com.br/carrinho'])] },
      ['ana'],
    ],
    [
      'notcontain on a list: no element contains (empty and missing lists pass)',
      { type: 'filter', values: [condition('visited.url', 'notcontain', ['produto'])] },
      ['bia', 'caio', 'davi'],
    ],
    [
      "'<' is before the start of the day in UTC",
      { type: 'filter', values: [condition('createdAt', '<', ['10/03/2024'])] },
      ['bia'],
    ],
    [
      "'>' is after the start of the day in UTC",
      { type: 'filter', values: [condition('createdAt', '>', ['2024-03-10T00:00:00.000Z'])] },
      ['caio'],
    ],
    [
      'between covers whole days',
      { type: 'filter', values: [condition('createdAt', 'between', ['09/03/2024'], { value2: '12/03/2024' })] },
      ['ana', 'bia', 'caio'],
    ],
    ['Sim / Não are booleans', { type: 'filter', values: [condition('notified.clicked', '==', ['Não'])] }, ['caio']],
    ['regex', { type: 'filter', regex: true, values: [condition('visited.url', '==', ['/produto/\\d+$'])] }, ['ana']],
    [
      'or',
      {
        type: 'filter',
        values: [
          condition('navigator.mobile', '==', ['Sim']),
          condition('navigator.browser', '==', ['Firefox'], { logical: 'or' }),
        ],
      },
      ['ana', 'caio'],
    ],
    [
      'and',
      {
        type: 'filter',
        values: [
          condition('navigator.browser', 'contain', ['CHROME']),
          condition('navigator.mobile', '!=', ['Sim'], { logical: 'and' }),
        ],
      },
      ['bia'],
    ],
  ];
  for (const [name, block, expected] of cases)
    it(name, async () => {
      const bySql = (await selectBySql(block, handDomainUuid)).map((r) => r.visitorId).sort();
      const compiled = compileFilter(block);
      const byJs = Object.entries(HAND)
        .filter(([, attributes]) => compiled.matches({ attributes }))
        .map(([id]) => id)
        .sort();
      expect(bySql).toEqual(expected);
      expect(byJs).toEqual(expected);
    });

  it('refuses an invalid block with the pt-BR message', () => {
    expect(() => compileFilter({ type: 'filter', values: [condition('navigator.mobile', '<', ['Sim'])] })).toThrow(
      'Esta comparação não está disponível para o filtro escolhido.',
    );
  });
});

describe('compile-filter helpers', () => {
  it('fold case with our own table', () => {
    expect(foldCase('SÃO PAULO Ç É')).toBe('são paulo ç é');
    expect(foldCase('ß×')).toBe('ß×');
  });
  it('compare decimals exactly and texts by code point', () => {
    expect(compareDecimals('120.0', '120')).toBe(0);
    expect(compareDecimals('-0', '0')).toBe(0);
    expect(compareDecimals('9', '10')).toBe(-1);
    expect(compareDecimals('-2.5', '-2.25')).toBe(-1);
    expect(compareDecimals('0.30000000000000001', '0.3')).toBe(1);
    expect(compareCodePoints('Z', 'a')).toBe(-1);
    expect(compareCodePoints('\uffff', '😀')).toBe(-1);
    expect(compareCodePoints('ab', 'a')).toBe(1);
  });
});
