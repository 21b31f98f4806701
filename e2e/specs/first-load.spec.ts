import { expect, type Page } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, signIn, test } from '../support/impeto.ts';

/**
 * First-load ceilings, JS and CSS as downloaded (headers included), for `/signin` and `/`. Issue 14 asks for
 * 250 KB gzipped; the code is not there yet (see bench/RESULTS.md), so these hold what was reached and catch any
 * growth. Lower them as chunks shrink; 250_000 is the goal.
 */
// Raised after the merges of 2026-11-23: the security headers lengthen every response, zod's pt-BR/jitless set-up
// is a chunk of its own, and `/` now is the analytics dashboard with its charts (chart kit ~106 KB brotli).
// Measured then: /signin 300 KB brotli / 333 KB gzip, / 539 KB / 605 KB.
const CEILING = {
  signin: { chromium: 315_000, gzip: 350_000 },
  home: { chromium: 565_000, gzip: 635_000 },
};

interface Download {
  path: string;
  encoding: string;
  bytes: number;
  /** Content-Length of the body as sent (NaN when absent). */
  body: number;
}

/**
 * Opens a page with an empty cache and sums what Chromium itself reports as received for every JS and CSS file
 * (`Network.loadingFinished` encodedDataLength: the bytes on the wire). `acceptEncoding` pins the request header,
 * to weigh the gzip variant alone; otherwise Chromium sends its own.
 */
async function firstLoad(page: Page, open: () => Promise<void>, acceptEncoding?: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (acceptEncoding) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': acceptEncoding } });
  const seen = new Map<string, { path: string; encoding: string; body: number }>();
  const downloads: Download[] = [];
  cdp.on('Network.responseReceived', (e) => {
    if (e.type !== 'Script' && e.type !== 'Stylesheet') return;
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    seen.set(e.requestId, {
      path: new URL(e.response.url).pathname,
      encoding: String(headers['content-encoding'] ?? ''),
      // The body alone (encodedDataLength also counts the response headers, which the security headers made longer).
      body: Number(headers['content-length'] ?? Number.NaN),
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const file = seen.get(e.requestId);
    if (file) downloads.push({ ...file, bytes: e.encodedDataLength });
  });
  await open();
  await page.waitForLoadState('networkidle');
  await cdp.detach();
  const total = downloads.reduce((sum, d) => sum + d.bytes, 0);
  return { downloads, total };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

function report(label: string, load: { downloads: Download[]; total: number }) {
  const encodings = [...new Set(load.downloads.map((d) => d.encoding || 'identity'))].join(', ');
  const line = `${label}: ${load.downloads.length} arquivos JS/CSS, ${kb(load.total)} (${encodings})`;
  test.info().annotations.push({ type: 'first-load', description: line });
  console.log(line);
  if (process.env.FIRST_LOAD_FILES) {
    for (const d of [...load.downloads].sort((a, b) => b.bytes - a.bytes)) {
      console.log(`  ${d.path} ${kb(d.bytes)} ${d.encoding || 'identity'}`);
    }
  }
}

function expectWithinBudget(load: { downloads: Download[]; total: number }, encodings: string[], budget: number) {
  expect(load.downloads.length, 'the page loads its JS and CSS').toBeGreaterThan(0);
  // A file of a few hundred bytes compresses to no less; the build keeps no copy of it and the server sends it as is.
  for (const d of load.downloads.filter((f) => (Number.isNaN(f.body) ? f.bytes : f.body) > 1000)) {
    expect(encodings, `${d.path} is sent compressed`).toContain(d.encoding);
  }
  expect(
    load.total,
    `first load within ${kb(budget)}: ${load.downloads.map((d) => `${d.path} ${kb(d.bytes)}`).join('; ')}`,
  ).toBeLessThanOrEqual(budget);
}

test('/signin loads compressed and within its first-load ceiling', async ({ page }) => {
  const openSignin = async () => {
    await page.goto('/signin');
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
    await expect(page.getByText('Eu não sou um robô')).toBeVisible();
  };
  const asChromium = await firstLoad(page, openSignin);
  report('/signin (Chromium)', asChromium);
  const gzip = await firstLoad(page, openSignin, 'gzip');
  report('/signin (gzip)', gzip);
  expectWithinBudget(asChromium, ['br', 'gzip'], CEILING.signin.chromium);
  expectWithinBudget(gzip, ['gzip'], CEILING.signin.gzip);
});

test('/ signed in with a domain loads compressed and within its first-load ceiling', async ({
  page,
  request,
  testSite,
}) => {
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createValidatedDomain(page, request, account, testSite);
  const openHome = async () => {
    await page.goto(`/?domain=${domain.uuid}`);
    await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  };
  const asChromium = await firstLoad(page, openHome);
  report('/ (Chromium)', asChromium);
  const gzip = await firstLoad(page, openHome, 'gzip');
  report('/ (gzip)', gzip);
  expectWithinBudget(asChromium, ['br', 'gzip'], CEILING.home.chromium);
  expectWithinBudget(gzip, ['gzip'], CEILING.home.gzip);
});

test('the dashboard shell is never cached stale and its hashed files are cached for good', async ({ request }) => {
  for (const path of ['/signin', '/index.html', '/']) {
    const res = await request.get(path, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control'], path).toBe('no-cache');
    expect(res.headers().vary, path).toMatch(/accept-encoding/i);
  }
  const html = await (await request.get('/signin')).text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  expect(assets.length).toBeGreaterThan(0);
  for (const asset of assets) {
    const res = await request.get(asset, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers()['cache-control'], asset).toBe('public, max-age=31536000, immutable');
    expect(res.headers()['content-encoding'], asset).toBe('gzip');
  }
});
