import { JSDOM, VirtualConsole } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASE, buildTag, type PageWindow, sleep } from './harness.ts';

let tag: ReturnType<typeof buildTag>;
beforeAll(() => {
  tag = buildTag();
});
afterAll(() => tag?.remove());

const load = (config: unknown, o: { src?: string; id?: string } = {}) => {
  const errors: unknown[] = [];
  const virtualConsole = new VirtualConsole();
  virtualConsole.on('jsdomError', (e: unknown) => errors.push(e));
  const w: PageWindow = new JSDOM('<!doctype html><head></head><body></body>', {
    url: 'https://loja.example/',
    runScripts: 'outside-only',
    virtualConsole,
  }).window;
  w.fetch = vi.fn(async () =>
    config instanceof Error ? Promise.reject(config) : { ok: config !== null, json: async () => config },
  );
  w.eval('window.gero=window.gero||function(){(window.gero.q=window.gero.q||[]).push(arguments)};');
  w.gero('init', { root: 'https://loja.example', id: o.id ?? 'g 1' });
  Object.defineProperty(w.document, 'currentScript', { value: { src: o.src ?? `${BASE}/t/loader.js` } });
  w.eval(tag.read('loader.js'));
  const scripts = () => [...w.document.head.querySelectorAll('script')].map((s: { src: string }) => s.src);
  return { w, errors, scripts };
};

const config = { id: 'g 1', root: 'https://loja.example', enabled: true, version: '1.1.0', collect: `${BASE}/collect` };

describe('the loader', () => {
  it('reads the settings from its own base URL and loads the chosen tracker version', async () => {
    const page = load(config, { src: `${BASE}/t/loader.js?x=1` });
    await sleep(10);
    expect(page.w.fetch).toHaveBeenCalledWith(`${BASE}/t/config/g%201`);
    expect(page.scripts()).toEqual([`${BASE}/t/gero/1.1.0/gero.min.js`]);
    expect(page.w.__gero).toEqual({ base: BASE, cfg: config });
  });

  it('loads the GCD injector beside the tracker only when the settings name a GCD revision', async () => {
    const page = load({ ...config, version: '1.4.0', dcm: '0123456789abcdef' });
    await sleep(10);
    expect(page.scripts()).toEqual([`${BASE}/t/gero/1.4.0/gero.min.js`, `${BASE}/t/gero/1.4.0/dcm.min.js`]);
    const plain = load({ ...config, version: '1.4.0' });
    await sleep(10);
    expect(plain.scripts()).toEqual([`${BASE}/t/gero/1.4.0/gero.min.js`]);
  });

  it('loads nothing for a disabled domain, an unknown id or a failed request, and never throws', async () => {
    for (const answer of [{ ...config, enabled: false }, null, new Error('offline')]) {
      const page = load(answer);
      await sleep(10);
      expect(page.scripts()).toEqual([]);
      expect(page.errors).toEqual([]);
    }
  });
});
