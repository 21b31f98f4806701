import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTag, releases } from './harness.ts';

// The budgets of STYLE.md rule 7, in gzipped bytes.
const BUDGET = { loader: 1024, tracker: 6144, serviceWorker: 2048, dcm: 4096 };

let tag: ReturnType<typeof buildTag>;
beforeAll(() => {
  tag = buildTag();
});
afterAll(() => tag?.remove());

const gzipped = (file: string) => gzipSync(tag.read(file), { level: 9 }).length;

describe('the tag stays within its size budget', () => {
  it(`loader.js ≤ ${BUDGET.loader} B gzipped`, () => {
    expect(gzipped('loader.js')).toBeLessThanOrEqual(BUDGET.loader);
  });

  it.each(releases.tracker.map((r) => r.version))(`gero/%s/gero.min.js ≤ ${BUDGET.tracker} B gzipped`, (v) => {
    expect(gzipped(`gero/${v}/gero.min.js`)).toBeLessThanOrEqual(BUDGET.tracker);
  });

  it.each(releases.tracker.filter((r) => r.features.dcm).map((r) => r.version))(
    `gero/%s/dcm.min.js (the GCD injector chunk) ≤ ${BUDGET.dcm} B gzipped`,
    (v) => {
      expect(gzipped(`gero/${v}/dcm.min.js`)).toBeLessThanOrEqual(BUDGET.dcm);
    },
  );

  it('the GCD injector is its own chunk: only releases with dcm have one, and no tracker carries it', () => {
    for (const r of releases.tracker) {
      expect(tag.read(`gero/${r.version}/gero.min.js`)).not.toContain('gero-dcm');
      expect(tag.exists(`gero/${r.version}/dcm.min.js`)).toBe(r.features.dcm === true);
    }
  });

  it.each(releases.serviceWorker.map((r) => r.version))(`cnsw/%s/sw.js ≤ ${BUDGET.serviceWorker} B gzipped`, (v) => {
    expect(gzipped(`cnsw/${v}/sw.js`)).toBeLessThanOrEqual(BUDGET.serviceWorker);
  });

  it('versions.json lists exactly the releases', () => {
    expect(JSON.parse(tag.read('versions.json'))).toEqual({
      gero: releases.tracker.map((r) => r.version),
      cnsw: releases.serviceWorker.map((r) => r.version),
      dcm: releases.tracker.filter((r) => r.features.dcm).map((r) => r.version),
    });
  });

  it('1.0.0 has no single-page navigation code, 1.1.0 has it', () => {
    expect(tag.read('gero/1.0.0/gero.min.js')).not.toContain('pushState');
    expect(tag.read('gero/1.1.0/gero.min.js')).toContain('pushState');
  });

  it('only 1.2.0 and later carry the on-site renderer', () => {
    for (const v of ['1.0.0', '1.1.0']) expect(tag.read(`gero/${v}/gero.min.js`)).not.toContain('gero-onsite');
    for (const v of ['1.2.0', '1.4.0']) expect(tag.read(`gero/${v}/gero.min.js`)).toContain('gero-onsite');
  });
});
