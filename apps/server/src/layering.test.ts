import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The floors of the server, lowest first: a file may import its own floor and the ones below, never above.
 * Features (modules/) compose the lower floors; lib/ is cross-cutting and must not reach into a feature.
 */
const FLOORS: Record<string, string[]> = {
  db: ['db'],
  lib: ['db', 'lib'],
  channels: ['db', 'lib', 'channels'],
  engine: ['db', 'lib', 'channels', 'engine'],
};

const src = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);

describe('server layering', () => {
  for (const [floor, allowed] of Object.entries(FLOORS)) {
    it(`${floor}/ imports only from ${allowed.join(', ')} (and config)`, () => {
      const offending = sourceFiles(join(src, floor)).flatMap((file) =>
        importsOf(file)
          .map((spec) => relative(src, resolve(dirname(file), spec)))
          .filter((target) => {
            const top = target.split('/')[0]!;
            return target !== 'config.ts' && !allowed.includes(top);
          })
          .map((target) => `${relative(src, file)} → ${target}`),
      );
      expect(offending).toEqual([]);
    });
  }
});
