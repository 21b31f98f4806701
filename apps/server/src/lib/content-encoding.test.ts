import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../../web/precompress.ts';
import { createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { pickEncoding } from './content-encoding.ts';

const published = path.resolve(import.meta.dirname, '../../../../packages/tracker/published');

/** GET with raw bytes back (inject does not decompress). */
const get = async (app: FastifyInstance, url: string, acceptEncoding?: string) => {
  const res = await app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
  return { status: res.statusCode, headers: res.headers, raw: res.rawPayload };
};
const decoded = (res: { headers: Record<string, unknown>; raw: Buffer }) =>
  res.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(res.raw)
    : res.headers['content-encoding'] === 'gzip'
      ? gunzipSync(res.raw)
      : res.raw;

describe('pickEncoding', () => {
  it('follows the q-values of Accept-Encoding, preferring brotli on a tie', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*;q=0')).toBe('identity');
    expect(pickEncoding('identity')).toBe('identity');
    expect(pickEncoding('')).toBe('identity');
    expect(pickEncoding(undefined)).toBe('identity');
  });
});

describe('the dashboard build', () => {
  let t: TestApp;
  let dist: string;
  const html = `<!doctype html><html lang="pt-BR"><head><title>Ímpeto</title>${'<meta name="x" content="y">'.repeat(40)}</head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>`;
  const script = `export const texto = ${JSON.stringify('Olá, mundo! '.repeat(500))};\n`;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'impeto-web-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), html);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
    writeFileSync(path.join(dist, 'favicon.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    await precompressDir(dist);
    t = await createTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('is precompressed next to the files, which stay as they were', () => {
    expect(readFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'utf8')).toBe(script);
    expect(brotliDecompressSync(readFileSync(path.join(dist, 'assets', 'index-abc123.js.br'))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(path.join(dist, 'index.html.gz'))).toString()).toBe(html);
    expect(existsSync(path.join(dist, 'favicon.png.br'))).toBe(false);
  });

  it('serves brotli or gzip by Accept-Encoding, with Vary, and the same cache headers', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip, deflate', 'gzip'],
      [undefined, undefined],
    ] as const) {
      const asset = await get(t.app, '/assets/index-abc123.js', accept);
      expect(asset.status).toBe(200);
      expect(asset.headers['content-encoding']).toBe(encoding);
      expect(asset.headers.vary).toMatch(/accept-encoding/i);
      expect(asset.headers['content-type']).toMatch(/javascript/);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(decoded(asset).toString()).toBe(script);
      if (encoding) expect(asset.raw.length).toBeLessThan(Buffer.byteLength(script) / 5);

      // The SPA's routes get index.html, never cached stale.
      for (const url of ['/', '/signin', '/index.html']) {
        const page = await get(t.app, url, accept);
        expect(page.status, url).toBe(200);
        expect(page.headers['content-encoding'], url).toBe(encoding);
        expect(page.headers['content-type'], url).toMatch(/text\/html/);
        expect(page.headers['cache-control'], url).toBe('no-cache');
        expect(page.headers.vary, url).toMatch(/accept-encoding/i);
        expect(decoded(page).toString(), url).toBe(html);
      }
    }
  });

  it('does not expose the compressed copies as files of their own', async () => {
    const res = await get(t.app, '/assets/index-abc123.js.br', 'br');
    expect(res.headers['content-type']).not.toMatch(/brotli|octet/);
  });
});

describe('tag files', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
  beforeAll(async () => {
    t = await createTestApp({ authRateLimit: 1000 });
    owner = await signUpAndSignIn(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves every published release compressed, decompressing to its exact published bytes, with its cache headers', async () => {
    const releases = [
      ...t.app.ctx.tag.gero.map((v) => ({ url: `/t/gero/${v}/gero.min.js`, file: `gero/${v}/gero.min.js` })),
      ...t.app.ctx.tag.cnsw.map((v) => ({ url: `/t/cnsw/${v}/sw.js`, file: `cnsw/${v}/sw.js` })),
    ].filter((r) => existsSync(path.join(published, r.file)));
    expect(releases.length).toBeGreaterThanOrEqual(5);
    for (const { url, file } of releases) {
      const original = readFileSync(path.join(published, file));
      for (const [accept, encoding] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        [undefined, undefined],
      ] as const) {
        const res = await get(t.app, url, accept);
        expect(res.status, url).toBe(200);
        expect(res.headers['content-encoding'], url).toBe(encoding);
        expect(res.headers.vary, url).toMatch(/accept-encoding/i);
        expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
        expect(res.headers['access-control-allow-origin'], url).toBe('*');
        expect(decoded(res).equals(original), `${url} (${accept}) decompresses to the published file`).toBe(true);
        if (encoding) expect(res.raw.length, url).toBeLessThan(original.length * 0.6);
      }
    }
  });

  it('compresses the loader and the per-domain service worker too, keeping them no-cache', async () => {
    const loader = await get(t.app, '/t/loader.js', 'br, gzip');
    expect(loader.headers['content-encoding']).toBe('br');
    expect(loader.headers['cache-control']).toBe('no-cache');
    expect(decoded(loader).toString()).toBe(t.app.ctx.tag.loader);

    const d = await createDomain(t.app, owner, 'Loja comprimida', 'comprimida-exemplo.com.br');
    for (const accept of ['br', 'gzip']) {
      const sw = await get(t.app, `/t/sw.js?id=${d.gero_id}`, accept);
      expect(sw.headers['content-encoding']).toBe(accept);
      expect(sw.headers['cache-control']).toBe('no-cache');
      const body = decoded(sw).toString();
      expect(body).toContain(d.gero_id);
      expect(body).toContain('showNotification');
    }
    expect((await get(t.app, '/t/sw.js?id=G-NAOEXISTE', 'br')).status).toBe(404);
  });
});
