import pg from 'pg';

const LOCAL_DEFAULT = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * TEST_DATABASE_URL, never DATABASE_URL. Under CI=true its absence fails the run; on a laptop the local
 * server of this machine kind is tried, and a missing one is a clear failure too, never a silent skip.
 */
export async function postgresTestUrl() {
  const url = process.env.TEST_DATABASE_URL || (process.env.CI === 'true' ? undefined : LOCAL_DEFAULT);
  if (!url)
    throw new Error(
      'TEST_DATABASE_URL não definida: os testes do servidor em PostgreSQL são obrigatórios com CI=true.',
    );
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL de teste indisponível em ${url} (${(err as Error).message}). Defina TEST_DATABASE_URL ou inicie o PostgreSQL.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
  return url;
}

export const adminUrl = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};
