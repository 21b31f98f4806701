import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const main = path.resolve(import.meta.dirname, '../src/main.ts');

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output(): string;
  /** Resolves with the announced URL once it listens; rejects when it exits first. */
  ready: Promise<string>;
  /** Resolves with the exit code (or signal) when it ends. */
  exited: Promise<number | string>;
  stop(): Promise<number | string>;
}

/** `node apps/server/src/main.ts` as `npm start` runs it, with only the environment given (plus PATH). */
export function startServerProcess(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env: { PATH: process.env.PATH ?? '', PORT: '0', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /pronto: abra (\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => reject(new Error(`o servidor saiu (${code}) antes de ficar pronto:\n${out}`)));
  });
  ready.catch(() => {});
  return {
    child,
    output: () => out,
    ready,
    exited,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
