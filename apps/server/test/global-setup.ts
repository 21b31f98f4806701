import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { fromPglite, fromPostgres } from '../src/db/client.ts';
import { installJobs } from '../src/engine/jobs.ts';
import { adminUrl, postgresTestUrl } from './postgres-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbKind: 'pglite' | 'postgres';
    pgliteDump: string;
    pgTemplate: string;
    pgUrl: string;
  }
}

/**
 * One migrated database per run; each test file copies it: PGlite from a dumped data dir,
 * PostgreSQL with CREATE DATABASE … TEMPLATE (DESIGN.md §11).
 */
export default async function setup(project: TestProject) {
  // The server serves the built tag; build it when a bare `vitest` run finds none.
  const trackerDist = path.resolve(import.meta.dirname, '../../../packages/tracker/dist/versions.json');
  if (!existsSync(trackerDist))
    execFileSync(process.execPath, [path.resolve(trackerDist, '../../build.mjs')], { stdio: 'inherit' });

  const kind = project.config.provide.dbKind as 'pglite' | 'postgres';
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'impeto-pglite-'));
    const database = fromPglite(await PGlite.create());
    await database.migrate();
    await installJobs(database);
    const dump = await database.pglite!.dumpDataDir('gzip');
    const file = path.join(dir, 'template.tar.gz');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    await database.close();
    project.provide('pgliteDump', file);
    return () => rmSync(dir, { recursive: true, force: true });
  }

  const url = await postgresTestUrl();
  const template = `impeto_tpl_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${template}`);
  const database = fromPostgres(adminUrl(url, template), 1);
  await database.migrate();
  await installJobs(database);
  await database.close();
  project.provide('pgTemplate', template);
  project.provide('pgUrl', url);
  return async () => {
    const leftovers = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `${template}_f_%`,
    ]);
    for (const { datname } of leftovers.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
  };
}
