import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { pushServiceCertPath } from './push-service.ts';

const main = path.resolve(import.meta.dirname, '../src/main.ts');

/** A worker process is gone (killed or exited). */
export const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/**
 * Worker processes (`ROLE=worker`, the real entry point) on a test's PostgreSQL database, for the tests that SIGKILL
 * one in the middle of its work: `start` resolves once it says 'worker pronto'; `killAll` ends those still running
 * (afterAll).
 */
export function workerProcesses(options: { secretKey: () => string; leaseSeconds: number }) {
  const started: ChildProcess[] = [];
  const start = (databaseUrl: string) =>
    new Promise<ChildProcess>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
        env: {
          ...process.env,
          ROLE: 'worker',
          NODE_ENV: 'test',
          DATABASE_URL: databaseUrl,
          SECRET_KEY: options.secretKey(),
          NODE_EXTRA_CA_CERTS: pushServiceCertPath,
          ALLOW_PRIVATE_FETCH: '1',
          DELIVERY_LEASE_SECONDS: String(options.leaseSeconds),
          LOG_LEVEL: 'warn',
          DATA_DIR: '/tmp/impeto-test-unused',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.push(child);
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('worker pronto')) resolve(child);
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        process.stderr.write(chunk);
      });
      child.once('exit', (code, signal) =>
        reject(new Error(`worker saiu (${code ?? signal}) antes de ficar pronto:\n${out}`)),
      );
    });
  const killAll = async () => {
    for (const w of started) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
    await Promise.all(started.map(exited));
  };
  return { start, killAll };
}
