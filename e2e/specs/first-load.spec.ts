import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { expect, type Page } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, signIn, test } from '../support/impeto.ts';

/**
 * Issue 14: `/signin` and `/` (the analytics page of a signed-in user with a domain) load at most 250 KB of JS and
 * CSS gzipped: the sum, over every JS and CSS response Chromium fetches with an empty cache until the network is
 * idle, of the gzip size of its body (level 9, as the build writes the `.gz` copies the server sends for
 * `Accept-Encoding: gzip`). Response headers are not counted.
 */
const BUDGET_GZIP = 250_000;

interface Download {
  path: string;
  /** Content-Encoding as sent ('' for none). */
  encoding: string;
  raw: number;
  gzip: number;
  brotli: number;
}

interface Load {
  downloads: Download[];
  raw: number;
  gzip: number;
  brotli: number;
}

const sum = (downloads: Download[], key: 'raw' | 'gzip' | 'brotli') => downloads.reduce((t, d) => t + d[key], 0);

/**
 * Records every JS and CSS file the page fetches from now on, with its body as Chromium decoded it (CDP
 * `Network.getResponseBody`) weighed raw, gzipped (level 9) and brotli'd (quality 11). `acceptEncoding` pins the
 * request header; otherwise Chromium sends its own (and gets brotli). `stop()` waits for the network to be idle.
 */
async function recordDownloads(page: Page, acceptEncoding?: string) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (acceptEncoding) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': acceptEncoding } });
  const seen = new Map<string, { path: string; encoding: string }>();
  const bodies: Promise<Download>[] = [];
  cdp.on('Network.responseReceived', (e) => {
    if (e.type !== 'Script' && e.type !== 'Stylesheet') return;
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    seen.set(e.requestId, {
      path: new URL(e.response.url).pathname,
      encoding: String(headers['content-encoding'] ?? ''),
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const file = seen.get(e.requestId);
    if (!file) return;
    bodies.push(
      cdp.send('Network.getResponseBody', { requestId: e.requestId }).then(({ body, base64Encoded }) => {
        const bytes = Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
        return {
          ...file,
          raw: bytes.length,
          gzip: gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }).length,
          brotli: brotliCompressSync(bytes, {
            params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
          }).length,
        };
      }),
    );
  });
  return {
    async stop(): Promise<Load> {
      await page.waitForLoadState('networkidle');
      const downloads = await Promise.all(bodies);
      await cdp.detach();
      return { downloads, raw: sum(downloads, 'raw'), gzip: sum(downloads, 'gzip'), brotli: sum(downloads, 'brotli') };
    },
  };
}

/** Opens a page with an empty cache and weighs what it downloads until the network is idle. */
async function firstLoad(page: Page, open: () => Promise<void>, acceptEncoding?: string) {
  const recording = await recordDownloads(page, acceptEncoding);
  await open();
  return recording.stop();
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

function report(label: string, load: Load) {
  const encodings = [...new Set(load.downloads.map((d) => d.encoding || 'identity'))].join(', ');
  const line = `${label}: ${load.downloads.length} arquivos JS/CSS, ${kb(load.raw)} sem compressão, ${kb(load.gzip)} gzip, ${kb(load.brotli)} brotli (enviados: ${encodings})`;
  test.info().annotations.push({ type: 'first-load', description: line });
  console.log(line);
  if (process.env.FIRST_LOAD_FILES) {
    for (const d of [...load.downloads].sort((a, b) => b.gzip - a.gzip)) {
      console.log(`  ${d.path} ${kb(d.raw)} → ${kb(d.gzip)} gzip, ${kb(d.brotli)} br (${d.encoding || 'identity'})`);
    }
  }
}

/** Every file worth compressing came compressed, in one of `encodings`; the gzipped total is within the budget. */
function expectWithinBudget(load: Load, encodings: string[], budget = BUDGET_GZIP) {
  expect(load.downloads.length, 'the page loads its JS and CSS').toBeGreaterThan(0);
  // A file of a few hundred bytes compresses to no less; the build keeps no copy of it and the server sends it as is.
  for (const d of load.downloads.filter((f) => f.gzip < f.raw && f.raw > 1000)) {
    expect(encodings, `${d.path} is sent compressed`).toContain(d.encoding);
  }
  expect(
    load.gzip,
    `first load within ${kb(budget)} gzipped: ${load.downloads.map((d) => `${d.path} ${kb(d.gzip)}`).join('; ')}`,
  ).toBeLessThanOrEqual(budget);
}

test('/signin loads compressed and within 250 KB gzipped', async ({ page }) => {
  const openSignin = async () => {
    await page.goto('/signin');
    await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
    await expect(page.getByText('Eu não sou um robô')).toBeVisible();
  };
  const asChromium = await firstLoad(page, openSignin);
  report('/signin', asChromium);
  expectWithinBudget(asChromium, ['br', 'gzip']);
  const gzip = await firstLoad(page, openSignin, 'gzip');
  expectWithinBudget(gzip, ['gzip']);
});

test('/ signed in with a domain loads compressed and within 250 KB gzipped; its charts come when scrolled to', async ({
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
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  };
  const asChromium = await firstLoad(page, openHome);
  report('/', asChromium);
  expectWithinBudget(asChromium, ['br', 'gzip']);
  expect(
    asChromium.downloads.some((d) => d.path.includes('chart-kit')),
    'no chart on the first screen',
  ).toBe(false);
  expect(
    asChromium.downloads.some((d) => d.path.includes('range-picker-field')),
    'the calendar comes with the first click on the period, not with the page',
  ).toBe(false);
  const gzip = await firstLoad(page, openHome, 'gzip');
  expectWithinBudget(gzip, ['gzip']);

  // The opt-in chart sits below the fold: scrolled to, it is drawn (Recharts fetched then, and weighed apart).
  const charts = await recordDownloads(page);
  const optins = page.getByRole('region', { name: 'Opt-ins e opt-outs por dia', exact: true });
  await optins.scrollIntoViewIfNeeded();
  await expect(optins.locator('.recharts-surface').first()).toBeVisible();
  const chartLoad = await charts.stop();
  report('/ ao rolar até os gráficos', chartLoad);
  expect(chartLoad.downloads.some((d) => d.path.includes('chart-kit'))).toBe(true);
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
