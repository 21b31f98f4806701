import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
})();

const app = await buildApp(config);
if (config.role === 'worker') {
  // The worker serves no HTTP: it runs the engine's jobs and sends (started when the app is ready).
  await app.ready();
  console.log('\n  Ímpeto worker pronto: motor de envios em execução\n');
} else {
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`\n  Ímpeto pronto: abra ${config.publicUrl.replace(`:${config.port}`, `:${port}`)}\n`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await app.close();
    process.exit(0);
  });
}
