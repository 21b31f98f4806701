import cluster from 'node:cluster';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { MigrationError } from './db/migrate.ts';
import { installJobs } from './engine/jobs.ts';

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
})();

/** A failed migration stops the start with its pt-BR reason (the database was left as it was), not a stack trace. */
const refuseOnMigrationError = (err: unknown): never => {
  if (!(err instanceof MigrationError)) throw err;
  console.error(`\n  Ímpeto não iniciou. ${err.message}\n`);
  process.exit(1);
};

const announce = (port: number) =>
  console.log(`\n  Ímpeto pronto: abra ${config.publicUrl.replace(`:${config.port}`, `:${port}`)}\n`);

if (config.apiProcesses > 1 && cluster.isPrimary) {
  // Several HTTP processes share the port (DESIGN.md §6): migrate once here, then fork them.
  const database = await openDatabase(config);
  await database.migrate(config.migrationsDir).catch(refuseOnMigrationError);
  await installJobs(database);
  await database.close();
  let stopping = false;
  let announced = false;
  cluster.on('listening', (_worker, address) => {
    if (!announced) announce(address.port);
    announced = true;
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    console.error(`processo ${worker.process.pid} terminou (${signal ?? code}); iniciando outro`);
    cluster.fork();
  });
  for (let i = 0; i < config.apiProcesses; i++) cluster.fork();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopping = true;
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
      cluster.once('exit', function waitAll() {
        if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
        cluster.once('exit', waitAll);
      });
    });
  }
} else {
  const app = await buildApp(config, { migrate: !cluster.isWorker }).catch(refuseOnMigrationError);
  if (config.role === 'worker') {
    // The worker serves no HTTP: it runs the engine's jobs and sends (started when the app is ready).
    await app.ready();
    console.log('\n  Ímpeto worker pronto: motor de envios em execução\n');
  } else {
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    if (!cluster.isWorker) announce(typeof address === 'object' && address ? address.port : config.port);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      await app.close();
      process.exit(0);
    });
  }
}
