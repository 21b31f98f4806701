import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const SITE = 'https://loja-cabecalhos.com.br';

let t: TestApp;
let dir: string;
let domain: { uuid: string; gero_id: string };
let image: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'impeto-headers-'));
  const webDist = path.join(dir, 'web');
  mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
  t = await createTestApp({ webDist, dataDir: dir, authRateLimit: 1000 });
  const owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja', SITE);
  const upload = await call(t.app, 'POST', `/api/gallery/upload/${domain.uuid}/domain`, { images: [PNG] }, owner.token);
  image = new URL(upload.body.data[0].image).pathname;
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, method: 'GET' | 'OPTIONS' | 'POST' = 'GET') =>
  t.app.inject({ method, url, headers: { origin: SITE } });

describe('security headers', () => {
  it('the dashboard and the API send a CSP, frame-ancestors and X-Frame-Options', async () => {
    for (const url of ['/signin', '/', '/domains', '/assets/app.js', '/api/health', '/api/nao-existe']) {
      const res = await get(url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("worker-src 'self' blob:");
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('the tag files, the collector and media keep working from customer sites', async () => {
    const urls: [string, 'GET' | 'OPTIONS' | 'POST'][] = [
      ['/t/loader.js', 'GET'],
      [`/t/config/${domain.gero_id}`, 'GET'],
      [`/t/sw.js?id=${domain.gero_id}`, 'GET'],
      ['/collect', 'OPTIONS'],
      ['/collect', 'POST'],
      [`/collect/pending?id=${domain.gero_id}&vid=v1`, 'GET'],
      [image, 'GET'],
    ];
    for (const [url, method] of urls) {
      const res = await get(url, method);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['x-frame-options'], url).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(res.headers['cross-origin-resource-policy'] ?? 'cross-origin', url).toBe('cross-origin');
      expect(String(res.headers['content-security-policy'] ?? ''), url).not.toContain('frame-ancestors');
    }
    expect((await get('/t/loader.js')).headers['access-control-allow-origin']).toBe('*');
    expect((await get(image)).headers['content-type']).toBe('image/png');
  });
});
