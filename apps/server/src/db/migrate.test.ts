import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import { freshDatabase } from '../../test/harness.ts';
import { adminUrl } from '../../test/postgres-url.ts';
import { type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { type Database, migrationsFolder, queryRows } from './client.ts';
import { MIGRATION_LOCK, MigrationError, readMigrations } from './migrate.ts';

const committed = readMigrations(migrationsFolder);
const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the committed migrations plus new ones (never written into the real folder). */
const migrationsWith = (extra: { tag: string; sql: string }[]) => {
  const dir = temp('impeto-migrations-');
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  const last = journal.entries.at(-1);
  extra.forEach((m, i) => {
    journal.entries.push({ ...last, idx: last.idx + 1 + i, when: last.when + 1000 * (i + 1), tag: m.tag });
    writeFileSync(path.join(dir, `${m.tag}.sql`), m.sql);
  });
  writeFileSync(journalFile, JSON.stringify(journal, null, 2));
  return dir;
};

const probe = {
  tag: '9000_upgrade_probe',
  sql: [
    'CREATE TABLE upgrade_probe (id integer PRIMARY KEY);',
    'ALTER TABLE companies ADD COLUMN probe integer;',
    "UPDATE companies SET name = 'apagado pela migração';",
  ].join('\n--> statement-breakpoint\n'),
};
const broken = { tag: '9001_broken', sql: 'ALTER TABLE tabela_que_nao_existe ADD COLUMN x integer;' };

const applied = async (db: Database['db']) =>
  (await queryRows<{ hash: string }>(db, sql`SELECT hash FROM drizzle.__drizzle_migrations`)).map((r) => r.hash);
const tableExists = async (db: Database['db'], name: string) =>
  (await queryRows<{ t: string | null }>(db, sql`SELECT to_regclass(${name})::text AS t`))[0]!.t !== null;

describe('migrations', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it("the journal's instants only grow: a migration dated before the last one applied would never run on an upgrade", () => {
    // drizzle applies what is newer than the last applied `when`; `npm run db:generate` stamps the machine's clock,
    // which may be behind entries written by hand: give a new entry a `when` after the previous one.
    const late = committed
      .filter((m, i) => i > 0 && m.folderMillis <= committed[i - 1]!.folderMillis)
      .map((m) => m.tag);
    expect(late).toEqual([]);
  });

  it('a database migrated by this version has nothing pending', async () => {
    database = await freshDatabase();
    expect(await database.migrate()).toEqual([]);
    expect((await applied(database.db)).sort()).toEqual(committed.map((m) => m.hash).sort());
  });

  it('a failing migration leaves the database as it was, names itself, and applies once fixed', async () => {
    database = await freshDatabase();
    const { db } = database;
    await db.execute(sql`INSERT INTO companies (uuid, name) VALUES (gen_random_uuid(), 'Loja Antes')`);
    const folder = migrationsWith([probe, broken]);

    const failure = await database.migrate(folder).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as MigrationError).migration).toBe('9001_broken');
    expect((failure as Error).message).toMatch(/^A migração 9001_broken falhou: .*tabela_que_nao_existe/);
    expect((failure as Error).message).toContain('nenhuma das 2 migrações pendentes foi aplicada');

    // Nothing of 9000 (which succeeded before 9001 failed) stayed: DDL and data roll back together.
    expect(await tableExists(db, 'upgrade_probe')).toBe(false);
    const columns = await queryRows<{ column_name: string }>(
      db,
      sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'companies' AND column_name = 'probe'`,
    );
    expect(columns).toEqual([]);
    expect(await queryRows(db, sql`SELECT name FROM companies`)).toEqual([{ name: 'Loja Antes' }]);
    expect(await applied(db)).toHaveLength(committed.length);

    writeFileSync(path.join(folder, `${broken.tag}.sql`), 'ALTER TABLE upgrade_probe ADD COLUMN x integer;');
    expect(await database.migrate(folder)).toEqual([probe.tag, broken.tag]);
    expect(await tableExists(db, 'upgrade_probe')).toBe(true);
    expect(await applied(db)).toHaveLength(committed.length + 2);
    expect(await database.migrate(folder)).toEqual([]);
  });
});

/** An empty database of this run's kind, as a new installation finds it: PGlite's DATA_DIR, or a new database. */
async function emptyDatabase() {
  if (inject('dbKind') === 'pglite') {
    const dataDir = temp('impeto-data-');
    return {
      env: { DATA_DIR: dataDir } as Record<string, string>,
      publicTables: async () => {
        const pglite = await PGlite.create(path.join(dataDir, 'pg'));
        const { rows } = await pglite.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'",
        );
        await pglite.close();
        return rows[0]!.n;
      },
      drop: async () => {},
    };
  }
  const url = inject('pgUrl');
  const name = `impeto_migrate_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const databaseUrl = adminUrl(url, name);
  const query = async <T>(text: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  return {
    env: { DATABASE_URL: databaseUrl, DATA_DIR: temp('impeto-data-') } as Record<string, string>,
    databaseUrl,
    query,
    publicTables: async () =>
      (await query<{ n: number }>("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'"))[0]!.n,
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

describe('starting the server', () => {
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('refuses to start on a failed migration, with a pt-BR message naming it, and leaves the database empty', async () => {
    const empty = await emptyDatabase();
    try {
      const server = startServerProcess({
        ...empty.env,
        COLLECT_SPOOL: 'off',
        MIGRATIONS_DIR: migrationsWith([probe, broken]),
      });
      servers.push(server);
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain('Ímpeto não iniciou. A migração 9001_broken falhou');
      expect(server.output()).not.toContain('pronto');
      // A new installation: every pending migration (all of them) was rolled back with the broken one.
      expect(await empty.publicTables()).toBe(0);
    } finally {
      await empty.drop();
    }
  });

  it.skipIf(inject('dbKind') !== 'postgres')(
    'two API processes started at the same instant migrate once and both come up',
    async () => {
      const empty = await emptyDatabase();
      const holder = new pg.Client({ connectionString: empty.databaseUrl });
      await holder.connect();
      try {
        // Hold the migration lock so both processes are sure to reach it before either can migrate.
        await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        const env = { ...empty.env, ROLE: 'api', COLLECT_SPOOL: 'off', LOG_LEVEL: 'info' };
        const pair = [startServerProcess(env), startServerProcess(env)];
        servers.push(...pair);
        const waitingOnLock = async () =>
          (
            await holder.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            )
          ).rows[0]!.n;
        for (let i = 0; (await waitingOnLock()) < 2; i++) {
          if (i > 600) throw new Error(`os dois processos não chegaram ao bloqueio:\n${pair.map((p) => p.output())}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);

        await Promise.all(pair.map((p) => p.ready));
        const logs = pair.map((p) => p.output());
        expect(
          logs.filter((l) => l.includes('migrações aplicadas')),
          logs.join('\n'),
        ).toHaveLength(1);
        expect(logs.join('\n')).not.toMatch(/"level":(50|60)|Error/);
        const rows = await empty.query!<{ hash: string }>('SELECT hash FROM drizzle.__drizzle_migrations');
        expect(rows.map((r) => r.hash).sort()).toEqual(committed.map((m) => m.hash).sort());
        const [url1, url2] = await Promise.all(pair.map((p) => p.ready));
        for (const url of [url1, url2]) expect((await fetch(`${url}/api/health`)).status).toBe(200);
        expect(await Promise.all(pair.map((p) => p.stop()))).toEqual([0, 0]);
      } finally {
        await holder.end();
        await empty.drop();
      }
    },
  );
});
