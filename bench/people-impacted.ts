/**
 * peopleImpacted on a large generated base, through the real service (persons.service.ts → compileFilter).
 * Env: DB=postgres (default; a fresh database from TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres,
 * dropped at the end) or DB=pglite (a fresh PGlite data dir under the OS temp dir); PERSONS=<count>
 * (default 1,000,000); RUNS=<timed runs per filter> (default 5, the median is reported); FILTER_BUDGET_MS=<time
 * after which a slow filter stops repeating> (default 10,000); EXPLAIN=1 prints each statement's plan to stderr.
 * Run alone: `node --import tsx bench/people-impacted.ts`; under `npm run bench:collect` it is a child process
 * and sends its result to the parent over IPC.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, fromPglite, fromPostgres, queryRows } from '../apps/server/src/db/client.ts';
import { companies, domains } from '../apps/server/src/db/schema.ts';
import type { AppContext } from '../apps/server/src/lib/context.ts';
import { compileFilter } from '../apps/server/src/lib/filter/compile-filter.ts';
import { peopleImpacted } from '../apps/server/src/modules/persons/persons.service.ts';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

const condition = (key: string, comparation: string, value: string[], extra: object = {}) => ({
  filter: `user_stored_data.${key}`,
  comparation,
  value,
  ...extra,
});

/** Representative audience filters of a momentum (the shapes the dashboard sends). */
export const FILTERS: { name: string; block: unknown }[] = [
  { name: 'mobile == Sim', block: { type: 'filter', values: [condition('navigator.mobile', '==', ['Sim'])] } },
  {
    name: "country == BR AND browser contain 'chrome'",
    block: {
      type: 'filter',
      values: [
        condition('client.location.country', '==', ['BR']),
        condition('navigator.browser', 'contain', ['chrome'], { logical: 'and' }),
      ],
    },
  },
  {
    name: "visited.url contain '/produto'",
    block: { type: 'filter', values: [condition('visited.url', 'contain', ['/produto'])] },
  },
  {
    name: 'createdAt between 01/03/2026 and 31/05/2026',
    block: {
      type: 'filter',
      values: [condition('createdAt', 'between', ['01/03/2026'], { value2: '31/05/2026' })],
    },
  },
];

export interface PeopleResult {
  db: 'postgres' | 'pglite';
  persons: number;
  generateMs: number;
  tableMb: number;
  version: string;
  filters: {
    name: string;
    exactPercent: number;
    estimated: boolean;
    medianMs: number;
    runsMs: number[];
    impacted: number;
    total: number;
    percent: number;
  }[];
}

/** ~N persons with varied attributes, generated inside the database (seeded, so every run has the same base). */
export const generateSql = (domainUuid: string, from: number, to: number) => sql`
  INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes, first_seen, last_seen)
  SELECT gen_random_uuid(), ${domainUuid}::uuid, 'vis-' || s.g,
    jsonb_build_object(
      'createdAt', to_char(s.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'navigator.browser', (ARRAY['Chrome','Chrome','Chrome','Chrome','Safari','Firefox','Microsoft Edge','Samsung Internet for Android','Opera','Chrome'])[1 + floor(s.r1 * 10)::int],
      'navigator.version', (100 + floor(s.r1 * 40)::int)::text || '.0.' || (6000 + floor(s.r3 * 400)::int)::text,
      'navigator.mobile', s.r2 < 0.55,
      'navigator.language', CASE WHEN s.r3 < 0.9 THEN 'pt-BR' ELSE 'en-US' END,
      'client.device.name', CASE WHEN s.r2 < 0.5 THEN 'mobile' WHEN s.r2 < 0.55 THEN 'tablet' ELSE 'desktop' END,
      'client.device.os', CASE WHEN s.r2 < 0.35 THEN 'Android' WHEN s.r2 < 0.55 THEN 'iOS' WHEN s.r2 < 0.9 THEN 'Windows' ELSE 'macOS' END,
      'client.location.country', CASE WHEN s.r4 < 0.85 THEN 'BR' ELSE (ARRAY['US','PT','AR','MX'])[1 + floor(s.r5 * 4)::int] END,
      'client.location.region', (ARRAY['São Paulo','Rio de Janeiro','Minas Gerais','Paraná','Rio Grande do Sul','Bahia','Santa Catarina','Pernambuco'])[1 + floor(s.r5 * 8)::int],
      'client.location.city', (ARRAY['São Paulo','Rio de Janeiro','Belo Horizonte','Curitiba','Porto Alegre','Salvador','Florianópolis','Recife','Campinas','Niterói'])[1 + floor(s.r3 * 10)::int],
      'asn.autonomous_system_organization', (ARRAY['Claro S.A.','TIM S/A','Telefonica Brasil S.A','Vivo','Oi S.A.'])[1 + floor(s.r4 * 5)::int],
      'origin', (ARRAY['direct','direct','google.com','facebook.com','instagram.com','l.instagram.com','bing.com'])[1 + floor(s.r1 * 7)::int],
      'visited.url', (
        SELECT jsonb_agg(
          'https://bench.example.com.br' || CASE floor(random() * 5)::int
            WHEN 0 THEN '/produto/' || floor(random() * 2000)::int
            WHEN 1 THEN '/categoria/' || (ARRAY['tenis','camisetas','bolsas','acessorios'])[1 + floor(random() * 4)::int]
            WHEN 2 THEN '/blog/post-' || floor(random() * 300)::int
            WHEN 3 THEN '/carrinho'
            ELSE '/' END)
        FROM generate_series(1, s.pages) AS k
      )
    ),
    s.created, s.created + (s.r3 * interval '30 days')
  FROM (
    SELECT g, random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5,
      1 + floor(random() * 5)::int AS pages,
      timestamptz '2026-01-01 00:00:00+00' + random() * interval '320 days' AS created
    FROM generate_series(${from}::int, ${to}::int) AS g
  ) AS s`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export async function benchPeopleImpacted(kind: 'postgres' | 'pglite', count: number, runs: number, budgetMs = 10_000) {
  let database: Database;
  let cleanup = async () => {};
  if (kind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_PG;
    const name = `impeto_bench_people_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    // One connection: setseed() must apply to the generating session.
    database = fromPostgres(u.toString(), 1);
    cleanup = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'impeto-bench-people-'));
    database = fromPglite(await PGlite.create(path.join(dir, 'pg')));
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  try {
    await database.migrate();
    const db = database.db;
    const companyUuid = randomUUID();
    const domainUuid = randomUUID();
    await db.insert(companies).values({ uuid: companyUuid, name: 'Loja Bench', status: 'active' });
    await db.insert(domains).values({
      uuid: domainUuid,
      companyUuid,
      name: 'Bench',
      domain: 'https://bench.example.com.br',
      domainRoot: 'https://bench.example.com.br',
      geroId: `G-${randomBytes(6).toString('hex').toUpperCase()}`,
      geroVersion: '1.0.0',
      cnSwVersion: '1.0.0',
      vapidPublic: 'bench-public',
      vapidPrivate: 'bench-private',
    });

    const t0 = performance.now();
    await db.execute(sql`SELECT setseed(0.42)`);
    const CHUNK = 250_000;
    for (let from = 1; from <= count; from += CHUNK)
      await db.execute(generateSql(domainUuid, from, Math.min(count, from + CHUNK - 1)));
    await db.execute(sql`ANALYZE persons`);
    const generateMs = performance.now() - t0;
    const [size] = await queryRows<{ bytes: string; version: string }>(
      db,
      sql`SELECT pg_total_relation_size('persons')::text AS bytes, current_setting('server_version') AS version`,
    );

    const ctx = { db, database } as unknown as AppContext;
    const filters: PeopleResult['filters'] = [];
    for (const f of FILTERS) {
      // One untimed warm-up run (page cache), then `runs` timed runs; a filter far over the target stops
      // early once it has used its time budget (the whole bench must stay within minutes). A warm-up slower
      // than 2 s is already past any cache effect and counts as the first timed run.
      const runsMs: number[] = [];
      let last = { total: 0, impacted: 0, percentualAtingido: 0 };
      const w = performance.now();
      last = await peopleImpacted(ctx, companyUuid, domainUuid, [f.block]);
      const warm = performance.now() - w;
      if (warm > 2000) runsMs.push(warm);
      let spent = warm;
      while (runsMs.length < runs && (runsMs.length === 0 || spent < budgetMs)) {
        const s = performance.now();
        last = await peopleImpacted(ctx, companyUuid, domainUuid, [f.block]);
        const ms = performance.now() - s;
        runsMs.push(ms);
        spent += ms;
      }
      if (process.env.EXPLAIN) {
        // The statement peopleImpacted runs, with the plan and its timing (EXPLAIN=1 only).
        const where = compileFilter(f.block).where;
        const plan = await queryRows<{ 'QUERY PLAN': string }>(
          db,
          sql`EXPLAIN (ANALYZE, BUFFERS) SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${where}))::int AS hit
              FROM persons WHERE persons.domain_uuid = ${domainUuid}::uuid`,
        );
        console.error(`--- ${f.name}\n${plan.map((r) => r['QUERY PLAN']).join('\n')}`);
      }
      // The exact share, untimed: peopleImpacted estimates from a random sample above 60,000 persons.
      const [exact] = await queryRows<{ total: number; hit: number }>(
        db,
        sql`SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${compileFilter(f.block).where}))::int AS hit
            FROM persons WHERE persons.domain_uuid = ${domainUuid}::uuid`,
      );
      filters.push({
        name: f.name,
        exactPercent: exact?.total ? Math.round((exact.hit / exact.total) * 1000) / 10 : 0,
        estimated: (last as { estimated?: boolean }).estimated === true,
        medianMs: median(runsMs),
        runsMs,
        impacted: last.impacted,
        total: last.total,
        percent: last.percentualAtingido,
      });
    }
    const result: PeopleResult = {
      db: kind,
      persons: count,
      generateMs,
      tableMb: Number(size?.bytes ?? 0) / 2 ** 20,
      version: size?.version ?? '',
      filters,
    };
    return result;
  } finally {
    await database.close().catch(() => {});
    await cleanup();
  }
}

const isMain = process.argv[1] && import.meta.filename === path.resolve(process.argv[1]);
if (isMain) {
  const kind = process.env.DB === 'pglite' ? 'pglite' : 'postgres';
  const count = Number(process.env.PERSONS ?? 1_000_000);
  const runs = Number(process.env.RUNS ?? 5);
  const budgetMs = Number(process.env.FILTER_BUDGET_MS ?? 10_000);
  benchPeopleImpacted(kind, count, runs, budgetMs)
    .then((result) => {
      if (process.send) process.send({ type: 'result', result }, () => process.exit(0));
      else {
        console.log(JSON.stringify(result, null, 2));
        process.exit(0);
      }
    })
    .catch((err) => {
      console.error(err);
      if (process.send) process.send({ type: 'error', message: String(err?.stack ?? err) }, () => process.exit(1));
      else process.exit(1);
    });
}
