import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { applyMigrations, MIGRATION_LOCK } from './migrate.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** The PGlite instance on the embedded database (pg-boss and dumps need it). */
  pglite?: PGlite;
  pool?: pg.Pool;
  /** The connection string on PostgreSQL (pg-boss opens its own pool and a LISTEN connection). */
  url?: string;
  /**
   * Applies the pending migrations of `folder` (default: the committed ones) in one transaction, and returns their
   * tags. Throws a MigrationError naming the failed one, with the database left as it was.
   */
  migrate(folder?: string): Promise<string[]>;
  close(): Promise<void>;
}

export const migrationsFolder = path.resolve(import.meta.dirname, '../../drizzle');

export function fromPglite(pglite: PGlite): Database {
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    pglite,
    // One process owns a PGlite data dir: no lock needed, the transaction keeps a failure from leaving half a schema.
    migrate: (folder = migrationsFolder) =>
      pglite.transaction((tx) =>
        applyMigrations(folder, {
          query: async (text) => (await tx.query(text)).rows as Record<string, unknown>[],
          exec: async (text) => {
            await tx.exec(text);
          },
        }),
      ),
    close: () => pglite.close(),
  };
}

export function fromPostgres(connectionString: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString, max });
  // A connection dropped by the server (a restart, a failover) must not end the process: idle, the pool removes it
  // (its 'error' event); checked out between two statements of a transaction (no listener of the pool's then), the
  // next statement fails and the client, no longer queryable, is removed when released. A new one opens on demand.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    pool,
    url: connectionString,
    migrate: async (folder = migrationsFolder) => {
      // Several processes may start together (API_PROCESSES, ROLE=api/worker): the first takes the advisory lock and
      // migrates, the others wait for its commit and then find nothing pending.
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        const applied = await applyMigrations(folder, {
          query: async (text) => (await client.query(text)).rows,
          exec: async (text) => {
            await client.query(text);
          },
        });
        await client.query('COMMIT');
        return applied;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw err;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

/** DATABASE_URL set → PostgreSQL; unset → PGlite files under DATA_DIR/pg. */
export async function openDatabase(config: { databaseUrl?: string; dataDir: string }): Promise<Database> {
  if (config.databaseUrl) return fromPostgres(config.databaseUrl);
  const pglite = await PGlite.create(path.join(config.dataDir, 'pg'));
  return fromPglite(pglite);
}

/** Raw SQL returning rows, the same on both drivers (both answer `{ rows }`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** Connection lost, insufficient resources, shutting down or starting up, serialization failure, deadlock, lock busy. */
const TRANSIENT_SQLSTATE = /^(?:08...|53...|57P0[123]|40001|40P01|55P03)$/;

/** The driver's own error under drizzle's wrapper (whose message carries the query and all its parameters). */
const driverError = (err: unknown) => {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  while (e && typeof e === 'object' && typeof e.code !== 'string' && e.cause) e = e.cause as typeof e;
  return e as ({ code?: string; message?: string } & Error) | undefined;
};

/** An error that says the database is away or briefly in the way, not that it refuses the data: try again later. */
export function isTransientDbError(err: unknown) {
  const code = driverError(err)?.code;
  return typeof code === 'string' && (NETWORK_CODES.has(code) || TRANSIENT_SQLSTATE.test(code));
}

/**
 * What to log of a database error: its code and the driver's short message, never the query's parameters (nor the
 * driver's `detail`, which quotes row values).
 */
export function dbErrorReason(err: unknown): { code?: string; message: string } {
  const e = driverError(err);
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const message = !e ? String(err) : 'params' in e ? 'consulta recusada' : String(e.message);
  return { ...(code ? { code } : {}), message: message.slice(0, 500) };
}
