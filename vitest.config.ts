import os from 'node:os';
import { defineConfig } from 'vitest/config';

const server = (db: 'pglite' | 'postgres') => ({
  test: {
    name: `server-${db}`,
    root: './apps/server',
    include: ['src/**/*.test.ts'],
    environment: 'node' as const,
    globalSetup: ['./test/global-setup.ts'],
    provide: { dbKind: db },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // A worker keeps its modules from one file to the next (each file still builds its own app and database): the
    // import of the server's graph and PGlite's WebAssembly is paid once per worker instead of once per file
    // (server tests 193 → 100 s on the embedded database, 2 cores). No module of the server keeps state that outlives
    // its app but caches of pure answers (time zones, rendered e-mails, the geo database).
    isolate: false,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core box. The files spend much of their time
    // waiting on databases, peers and timers, so two run side by side at least (12.6 → 8.8 min on 2 cores).
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      { test: { name: 'shared', root: './packages/shared', include: ['src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'scripts', root: './scripts', include: ['*.test.ts'], environment: 'node' } },
      { test: { name: 'tracker', root: './packages/tracker', include: ['test/**/*.test.ts'], environment: 'node' } },
      server('pglite'),
      server('postgres'),
      './apps/web/vitest.config.ts',
    ],
  },
});
