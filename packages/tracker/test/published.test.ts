import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTag, releases } from './harness.ts';

// A site pinned to a version must get the same bytes forever: every release is published (published/), matches the
// SHA-256 recorded when it was published, and is what the build serves, whatever src/ says today.
const published = path.join(import.meta.dirname, '..', 'published');
const sums = new Map(
  readFileSync(path.join(published, 'SHA256SUMS'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(/\s+/).reverse() as [string, string]),
);
const files = [
  ...releases.tracker.map((r) => `gero/${r.version}/gero.min.js`),
  ...releases.tracker.filter((r) => r.features.dcm).map((r) => `gero/${r.version}/dcm.min.js`),
  ...releases.serviceWorker.map((r) => `cnsw/${r.version}/sw.js`),
];

describe('published releases', () => {
  const tag = buildTag();
  afterAll(() => tag.remove());

  it.each(files)('%s is published, unchanged since, and served as published', (file) => {
    const frozen = path.join(published, file);
    expect(existsSync(frozen), `${file} não publicado: rode "node build.mjs --publish" ao lançar a versão`).toBe(true);
    const bytes = readFileSync(frozen);
    expect(createHash('sha256').update(bytes).digest('hex'), `${file} mudou depois de publicado`).toBe(sums.get(file));
    expect(readFileSync(path.join(tag.out, file)).equals(bytes)).toBe(true);
  });

  it('records no sum for a release that is not in releases.json', () => {
    expect([...sums.keys()].sort()).toEqual([...files].sort());
  });
});
