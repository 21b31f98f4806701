/**
 * The benches' generated history (bench:analytics, bench:simulate): a fresh migrated database (PostgreSQL from
 * TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres, dropped at the end; PGlite in a temporary folder),
 * a company and its domain inserted directly, and one domain's persons, events, momentums, deliveries and conversions
 * generated inside the database over `days` days: 30 % of persons with an e-mail, 20 % with a phone, 15 % subscribed
 * to push; events 2/3 page views (3 % of them the cart, the rest 500 product pages skewed to the first), 1/6 events
 * of 12 categories, the rest opt-ins and opt-outs; deliveries to a fifth of the base.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, fromPglite, fromPostgres, queryRows } from '../apps/server/src/db/client.ts';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
export const SITE = 'https://bench.example.com.br';
export const MOMENTUMS = 40;

export type Kind = 'postgres' | 'pglite';

export const fmt = (n: number) => n.toLocaleString('en-US');
export const log = (...a: unknown[]) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

/** `label` names the scratch database (impeto_bench_<label>_<pid>_<random>). */
/** `reuse`: an existing bench database's name (PostgreSQL), opened as it is. */
export async function openDatabase(kind: Kind, label = 'analytics', reuse?: string) {
  if (kind === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL || DEFAULT_PG;
    const name = reuse ?? `impeto_bench_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version;
    if (!reuse) await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${name}`;
    // The dashboard's widgets run at once: a pool like the API's.
    const database = fromPostgres(u.toString(), 12);
    const drop = async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
    return { database, version: `PostgreSQL ${version}`, drop, name };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), `impeto-bench-${label}-`));
  const database = fromPglite(await PGlite.create(path.join(dir, 'pg')));
  const [v] = await queryRows<{ v: string }>(database.db, sql`SELECT current_setting('server_version') AS v`);
  return {
    database,
    version: `PGlite (PostgreSQL ${v?.v})`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
    name: dir,
  };
}

/** A company and its domain, inserted directly (the bench measures reads, not sign-up). */
export async function addDomain(db: Db, label: string) {
  const companyUuid = randomUUID();
  const domainUuid = randomUUID();
  await db.execute(sql`INSERT INTO companies (uuid, name, status) VALUES (${companyUuid}::uuid, ${label}, 'active')`);
  await db.execute(sql`
    INSERT INTO domains (uuid, company_uuid, name, domain, domain_root, gero_id, gero_version, cn_sw_version,
      vapid_public, vapid_private, cart_url)
    VALUES (${domainUuid}::uuid, ${companyUuid}::uuid, ${label}, ${SITE}, ${SITE},
      ${`G-${randomBytes(6).toString('hex').toUpperCase()}`}, '1.3.0', '1.0.0', 'bench', 'bench', '/carrinho')`);
  return { companyUuid, domainUuid };
}

export const personUuid = (domainUuid: string, n: SQL) => sql`md5(${domainUuid} || '-' || (${n})::text)::uuid`;

/** Persons, events, momentums, deliveries and conversions of one domain, generated inside the database. */
export async function generate(
  db: Db,
  d: { companyUuid: string; domainUuid: string },
  events: number,
  persons: number,
  DAYS: number,
) {
  const CHUNK = 250_000;
  for (let from = 1; from <= persons; from += CHUNK) {
    const to = Math.min(persons, from + CHUNK - 1);
    await db.execute(sql`
      INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes, email, phone, push_status, first_seen, last_seen)
      SELECT ${personUuid(d.domainUuid, sql`g`)}, ${d.domainUuid}::uuid, 'v' || g, '{}'::jsonb,
        CASE WHEN random() < 0.3 THEN 'p' || g || '@exemplo.com.br' END,
        CASE WHEN random() < 0.2 THEN '119' || lpad(g::text, 8, '0') END,
        CASE WHEN random() < 0.15 THEN 'subscribed' END,
        now() - random() * make_interval(days => ${DAYS}), now()
      FROM generate_series(${from}::int, ${to}::int) AS g`);
  }
  const EV_CHUNK = 1_000_000;
  for (let from = 1; from <= events; from += EV_CHUNK) {
    const to = Math.min(events, from + EV_CHUNK - 1);
    await db.execute(sql`
      INSERT INTO events (domain_uuid, person_uuid, kind, url, category, props, device, ts)
      SELECT ${d.domainUuid}::uuid, ${personUuid(d.domainUuid, sql`1 + floor(s.r3 * ${persons})::int`)},
        s.kind,
        CASE WHEN s.kind = 'pageview' THEN ${SITE} || CASE WHEN s.r1 < 0.03 THEN '/carrinho'
          ELSE '/produto/' || floor(power(s.r1, 3) * 500)::int END END,
        CASE WHEN s.kind = 'event' THEN (ARRAY['carrinho','busca','favorito','cupom','newsletter','compartilhar',
          'video','whatsapp','chat','avaliacao','frete','login'])[1 + floor(s.r1 * 12)::int] END,
        '{}'::jsonb,
        CASE WHEN s.r2 < 0.5 THEN 'mobile' WHEN s.r2 < 0.55 THEN 'tablet' ELSE 'desktop' END,
        now() - s.r4 * make_interval(days => ${DAYS})
      FROM (
        SELECT random() AS r1, random() AS r2, random() AS r3, random() AS r4,
          (ARRAY['pageview','pageview','pageview','pageview','pageview','pageview','pageview','pageview',
            'event','event','optin','optout'])[1 + floor(random() * 12)::int] AS kind
        FROM generate_series(${from}::int, ${to}::int)
      ) AS s`);
    log(`  events ${fmt(to)} / ${fmt(events)}`);
  }
  // Momentums and their history: deliveries to 20% of the base (viewed 40%, clicked 8%), conversions.
  await db.execute(sql`
    INSERT INTO momentums (uuid, company_uuid, domain_uuid, user_uuid, type, momentum_title, status, momentums)
    SELECT md5(${d.domainUuid} || '-m' || g)::uuid, ${d.companyUuid}::uuid, ${d.domainUuid}::uuid, gen_random_uuid(),
      CASE WHEN g % 5 = 0 THEN 'campaign' ELSE 'momentum' END, 'Momentum ' || g,
      CASE WHEN g % 3 = 0 THEN 'Paused' ELSE 'Active' END, '[]'::jsonb
    FROM generate_series(1, ${MOMENTUMS}) AS g`);
  await db.execute(sql`
    INSERT INTO deliveries (id, domain_uuid, momentum_uuid, person_uuid, channel_type, dedupe_key, status, trigger_at,
      due_at, sent_at, viewed_at, clicked_at)
    SELECT gen_random_uuid(), ${d.domainUuid}::uuid, md5(${d.domainUuid} || '-m' || (1 + g % ${MOMENTUMS}))::uuid,
      ${personUuid(d.domainUuid, sql`g`)}, 'CELL_NOTIFICATION', 'bench:' || ${d.domainUuid} || ':' || g,
      CASE WHEN s.r < 0.08 THEN 'clicked' WHEN s.r < 0.4 THEN 'viewed' ELSE 'sent' END, s.at, s.at, s.at,
      CASE WHEN s.r < 0.4 THEN s.at + interval '5 minutes' END, CASE WHEN s.r < 0.08 THEN s.at + interval '6 minutes' END
    FROM (SELECT g, random() AS r, now() - random() * make_interval(days => ${DAYS}) AS at
          FROM generate_series(1, ${Math.floor(persons / 5)}) AS g) AS s`);
  await db.execute(sql`
    INSERT INTO conversions (domain_uuid, order_key, person_uuid, value_cents, delivery_id, momentum_uuid, ts)
    SELECT domain_uuid, 'order:' || id, person_uuid, 5000 + floor(random() * 50000)::int, id, momentum_uuid,
      clicked_at + interval '10 minutes'
    FROM deliveries WHERE domain_uuid = ${d.domainUuid}::uuid AND status = 'clicked' AND random() < 0.25`);
}
