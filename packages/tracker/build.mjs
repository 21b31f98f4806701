// Builds every release of releases.json into dist/: loader.js, gero/<v>/gero.min.js, cnsw/<v>/sw.js, versions.json.
// `node build.mjs <dir>` builds into <dir> instead (the tests build into a temporary folder).
//
// A published release never changes: its file is copied from published/ byte for byte. Only a release that is
// not published yet is built from src/. `node build.mjs --publish` writes those into published/ and records their
// SHA-256 in published/SHA256SUMS (the tests check every release is published and matches its sum).
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const args = process.argv.slice(2);
const publish = args.includes('--publish');
const out = path.resolve(args.find((a) => !a.startsWith('--')) || path.join(here, 'dist'));
const published = path.join(here, 'published');
const sumsFile = path.join(published, 'SHA256SUMS');
const releases = JSON.parse(readFileSync(path.join(here, 'releases.json'), 'utf8'));
rmSync(out, { recursive: true, force: true });

const bundle = async (entry, outfile, define = {}) => {
  await build({
    entryPoints: [path.join(here, 'src', entry)],
    outfile,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2019'],
    define,
    legalComments: 'none',
  });
};

const sums = existsSync(sumsFile)
  ? new Map(
      readFileSync(sumsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/\s+/).reverse()),
    )
  : new Map();
const fresh = [];

/** `file` (relative to the output) from published/, or built from source when that release is not published. */
const place = async (file, entry, define) => {
  const frozen = path.join(published, file);
  const target = path.join(out, file);
  if (existsSync(frozen)) {
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(frozen, target);
    return;
  }
  await bundle(entry, target, define);
  fresh.push(file);
  if (publish) {
    mkdirSync(path.dirname(frozen), { recursive: true });
    copyFileSync(target, frozen);
    sums.set(file, createHash('sha256').update(readFileSync(frozen)).digest('hex'));
  }
};

await bundle('loader.ts', path.join(out, 'loader.js'));
for (const r of releases.tracker) {
  await place(`gero/${r.version}/gero.min.js`, 'gero.ts', {
    __VERSION__: JSON.stringify(r.version),
    __SPA__: String(r.features.spa === true),
    __ONSITE__: String(r.features.onsite === true),
    __CONVERSION__: String(r.features.conversion === true),
    __DCM__: String(r.features.dcm === true),
    __TZ__: String(r.features.tz === true),
  });
  // The GCD injector: a chunk of its own, loaded only on domains with active GCD items.
  if (r.features.dcm) await place(`gero/${r.version}/dcm.min.js`, 'dcm.ts', {});
}
for (const r of releases.serviceWorker) {
  await place(`cnsw/${r.version}/sw.js`, 'sw.ts');
}
if (publish && fresh.length) {
  const lines = [...sums].sort(([a], [b]) => a.localeCompare(b)).map(([file, sum]) => `${sum}  ${file}\n`);
  writeFileSync(sumsFile, lines.join(''));
  console.log(`tag: publicado ${fresh.join(', ')}`);
}
mkdirSync(out, { recursive: true });
writeFileSync(
  path.join(out, 'versions.json'),
  JSON.stringify({
    gero: releases.tracker.map((r) => r.version),
    cnsw: releases.serviceWorker.map((r) => r.version),
    dcm: releases.tracker.filter((r) => r.features.dcm).map((r) => r.version),
  }),
);
console.log(
  `tag: ${releases.tracker.length} versões do gero, ${releases.serviceWorker.length} do cnsw em ${out}` +
    (fresh.length && !publish ? ` (ainda não publicadas, feitas do código: ${fresh.join(', ')})` : ''),
);
