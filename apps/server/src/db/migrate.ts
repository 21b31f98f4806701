import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';

/** The PostgreSQL advisory lock (one bigint key) held while a process migrates. */
export const MIGRATION_LOCK = 4_871_220_615;

/** A migration failed; the transaction was rolled back, so none of this start's migrations is in the database. */
export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    readonly pending: string[],
    readonly reason: string,
  ) {
    super(
      `A migração ${migration} falhou: ${reason}. O banco ficou como estava antes desta partida ` +
        `(${pending.length === 1 ? 'a migração pendente não foi aplicada' : `nenhuma das ${pending.length} migrações pendentes foi aplicada`}: ${pending.join(', ')}). ` +
        'Corrija a causa (ou volte à versão anterior do código) e inicie de novo.',
    );
    this.name = 'MigrationError';
  }
}

/** One open transaction: `query` answers rows, `exec` runs a migration's text (several statements allowed). */
export interface MigrationRunner {
  query(text: string): Promise<Record<string, unknown>[]>;
  exec(text: string): Promise<void>;
}

/** The migrations of a drizzle-kit folder, in journal order, with their tags. */
export function readMigrations(folder: string) {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  const files = readMigrationFiles({ migrationsFolder: folder });
  return files.map((m, i) => ({ ...m, tag: journal.entries[i]!.tag }));
}

/**
 * Applies the pending migrations inside the caller's transaction, keeping drizzle's own bookkeeping
 * (`drizzle.__drizzle_migrations`, a migration is pending when its `when` is newer than the last one applied), so
 * databases migrated by earlier versions carry on. Returns the tags applied.
 */
export async function applyMigrations(folder: string, run: MigrationRunner): Promise<string[]> {
  const migrations = readMigrations(folder);
  await run.exec('CREATE SCHEMA IF NOT EXISTS drizzle');
  await run.exec(
    'CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
  );
  const [last] = await run.query(
    'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1',
  );
  const lastAt = last ? Number(last.created_at) : -1;
  const pending = migrations.filter((m) => m.folderMillis > lastAt);
  for (const m of pending) {
    try {
      for (const statement of m.sql) if (statement.trim()) await run.exec(statement);
    } catch (err) {
      throw new MigrationError(
        m.tag,
        pending.map((p) => p.tag),
        (err as Error).message,
      );
    }
    await run.exec(
      `INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('${m.hash}', ${Number(m.folderMillis)})`,
    );
  }
  return pending.map((m) => m.tag);
}
