import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// A plain .mjs script (no types), as `npm start` runs it.
import { inputHashes, PARTS, readStamp, staleReason, writeStamp } from './build-stamp.mjs';

type Part = { name: string; output: string; inputs: string[] };
const repo = path.resolve(import.meta.dirname, '..');
const tracker = (PARTS as Part[]).find((p) => p.name === 'tracker')!;
const web = (PARTS as Part[]).find((p) => p.name === 'web')!;

let root: string;
const reason = (part: Part) => staleReason(root, part, inputHashes(root, part)) as string | undefined;
const stampAsBuilt = (part: Part) => writeStamp(root, part, inputHashes(root, part));
const touch = (rel: string, text = '\n// changed') => appendFileSync(path.join(root, rel), text);

describe('npm start: what is stale', () => {
  beforeAll(() => {
    // A copy of the real inputs of both parts, and their outputs as a finished build leaves them.
    root = mkdtempSync(path.join(tmpdir(), 'impeto-stamp-'));
    for (const rel of new Set([...tracker.inputs, ...web.inputs]))
      cpSync(path.join(repo, rel), path.join(root, rel), {
        recursive: true,
        filter: (src) => !src.includes(`${path.sep}node_modules`),
      });
    for (const part of [tracker, web]) {
      mkdirSync(path.dirname(path.join(root, part.output)), { recursive: true });
      writeFileSync(path.join(root, part.output), 'built');
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('hashes the sources, the lockfile and the build config of each part', () => {
    const webInputs = Object.keys(inputHashes(repo, web));
    expect(webInputs).toEqual(
      expect.arrayContaining(['apps/web/src/main.tsx', 'apps/web/vite.config.ts', 'package-lock.json']),
    );
    expect(webInputs.some((f) => f.startsWith('packages/shared/src/'))).toBe(true);
    expect(webInputs.some((f) => /\.test\.tsx?$/.test(f))).toBe(false);
    const trackerInputs = Object.keys(inputHashes(repo, tracker));
    expect(trackerInputs).toEqual(
      expect.arrayContaining(['packages/tracker/build.mjs', 'packages/tracker/releases.json', 'package-lock.json']),
    );
    expect(trackerInputs.some((f) => f.startsWith('packages/tracker/src/'))).toBe(true);
    expect(trackerInputs.some((f) => f.startsWith('apps/web/'))).toBe(false);
  });

  it('a build made without a stamp (an older checkout) is rebuilt once, then an unchanged tree is not', () => {
    expect(reason(tracker)).toBe('a construção existente não registrou as fontes de que veio');
    expect(reason(web)).toBe('a construção existente não registrou as fontes de que veio');
    stampAsBuilt(tracker);
    stampAsBuilt(web);
    expect(reason(tracker)).toBeUndefined();
    expect(reason(web)).toBeUndefined();
    expect(Object.keys(readStamp(root)).sort()).toEqual(['tracker', 'web']);
  });

  it('a changed dashboard source rebuilds the dashboard only, naming the file', () => {
    touch('apps/web/src/main.tsx');
    expect(reason(web)).toBe('desde a última construção mudou apps/web/src/main.tsx');
    expect(reason(tracker)).toBeUndefined();
    stampAsBuilt(web);
    expect(reason(web)).toBeUndefined();
  });

  it('a changed, added or removed tag source rebuilds the tag only', () => {
    touch('packages/tracker/releases.json', ' ');
    writeFileSync(path.join(root, 'packages/tracker/src/new-part.ts'), 'export const x = 1;\n');
    expect(reason(tracker)).toBe(
      'desde a última construção mudou packages/tracker/releases.json; entrou packages/tracker/src/new-part.ts',
    );
    expect(reason(web)).toBeUndefined();
    stampAsBuilt(tracker);
    rmSync(path.join(root, 'packages/tracker/src/new-part.ts'));
    expect(reason(tracker)).toBe('desde a última construção saiu packages/tracker/src/new-part.ts');
    stampAsBuilt(tracker);
  });

  it('a new lockfile or shared code rebuilds both; a new test file rebuilds nothing', () => {
    writeFileSync(path.join(root, 'apps/web/src/some.test.tsx'), 'it.todo("x");\n');
    expect(reason(web)).toBeUndefined();
    touch('package-lock.json', ' ');
    expect(reason(web)).toBe('desde a última construção mudou package-lock.json');
    expect(reason(tracker)).toBe('desde a última construção mudou package-lock.json');
    stampAsBuilt(tracker);
    stampAsBuilt(web);
    touch('packages/shared/src/messages.ts');
    expect(reason(web)).toBe('desde a última construção mudou packages/shared/src/messages.ts');
    expect(reason(tracker)).toBe('desde a última construção mudou packages/shared/src/messages.ts');
  });

  it('a missing output is built whatever the stamp says', () => {
    stampAsBuilt(web);
    rmSync(path.join(root, web.output));
    expect(reason(web)).toBe('ainda não foi construído');
  });
});
