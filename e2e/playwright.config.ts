import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 8123);
export const baseURL = `http://127.0.0.1:${port}`;
export const sesPeerPort = port + 1000;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'impeto-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: './specs',
  // Spec files run two at a time (each signs up its own account and starts its own test site); the tests of one
  // file run in order. The demo seed moves the server's clock back while it runs, so it has the server to itself,
  // after the rest.
  fullyParallel: false,
  workers: 2,
  projects: [
    { name: 'dashboard', testIgnore: /demo\.spec\.ts$/ },
    { name: 'demo', testMatch: /demo\.spec\.ts$/, dependencies: ['dashboard'] },
  ],
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: './test-results',
  use: {
    baseURL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // isbot counts HeadlessChrome as a bot; visitors in these tests are a desktop Chrome (DESIGN.md §11).
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  webServer: {
    command: `node --import tsx ${path.resolve(import.meta.dirname, '../apps/server/src/main.ts')}`,
    url: `${baseURL}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      NODE_ENV: 'development',
      ALLOW_PRIVATE_FETCH: '1',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '500',
      // The SES channel's local peer (e2e/specs/email-channel.spec.ts starts it on this port).
      AWS_SES_ENDPOINT: `http://127.0.0.1:${sesPeerPort}`,
      NODE_EXTRA_CA_CERTS: path.resolve(import.meta.dirname, '../apps/server/test/fixtures/push-service.crt'),
      // specs/demo.spec.ts runs `npm run demo`'s seed, which moves this clock back and gives it back when done.
      DEMO_CLOCK: '1',
      TRUSTED_GEO_HEADERS: 'cloudflare',
    },
  },
});
