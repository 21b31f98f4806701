// Builds every release of releases.json into dist/: loader.js, gero/<v>/gero.min.js, cnsw/<v>/sw.js, versions.json.
// `node build.mjs <dir>` builds into <dir> instead (the tests build into a temporary folder).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
const out = path.resolve(process.argv[2] || path.join(here, 'dist'));
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

await bundle('loader.ts', path.join(out, 'loader.js'));
for (const r of releases.tracker) {
  await bundle('gero.ts', path.join(out, 'gero', r.version, 'gero.min.js'), {
    __VERSION__: JSON.stringify(r.version),
    __SPA__: String(r.features.spa === true),
    __ONSITE__: String(r.features.onsite === true),
  });
}
for (const r of releases.serviceWorker) {
  await bundle('sw.ts', path.join(out, 'cnsw', r.version, 'sw.js'));
}
mkdirSync(out, { recursive: true });
writeFileSync(
  path.join(out, 'versions.json'),
  JSON.stringify({
    gero: releases.tracker.map((r) => r.version),
    cnsw: releases.serviceWorker.map((r) => r.version),
  }),
);
console.log(`tag: ${releases.tracker.length} versões do gero, ${releases.serviceWorker.length} do cnsw em ${out}`);
