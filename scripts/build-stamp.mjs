// What `npm start` builds, from which inputs, and whether the last build is still current. A stamp file records,
// per part, a hash of every input file (sources, lockfile, build config); a part whose inputs changed since its
// last build (a `git pull`), whose output is missing, or that was built without a stamp is stale.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const STAMP_FILE = '.build-stamp.json';

/** The parts `npm start` builds. `inputs` are files or folders under the repository root. */
export const PARTS = [
  {
    name: 'tracker',
    label: 'os arquivos da tag',
    script: 'build:tracker',
    output: 'packages/tracker/dist/versions.json',
    inputs: [
      'packages/tracker/src',
      'packages/tracker/published',
      'packages/tracker/build.mjs',
      'packages/tracker/releases.json',
      'packages/tracker/package.json',
      'packages/shared/src',
      'package-lock.json',
    ],
  },
  {
    name: 'web',
    label: 'o painel',
    script: 'build:web',
    output: 'apps/web/dist/index.html',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/package.json',
      'apps/web/vite.config.ts',
      'apps/web/postcss.config.cjs',
      'apps/web/tsconfig.json',
      'packages/shared/src',
      'packages/shared/package.json',
      'tsconfig.base.json',
      'package-lock.json',
    ],
  },
];

/** Tests are not built into anything: changing one does not make a build stale. */
const isBuildInput = (name) => !/\.test\.[cm]?[jt]sx?$/.test(name) && name !== 'node_modules' && name !== 'dist';

const listFiles = (root, rel) => {
  const full = path.join(root, rel);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [rel];
  return readdirSync(full)
    .filter(isBuildInput)
    .flatMap((name) => listFiles(root, path.posix.join(rel, name)));
};

/** Every input file of a part with the SHA-256 of its content, sorted by path. */
export function inputHashes(root, part) {
  const files = [...new Set(part.inputs.flatMap((rel) => listFiles(root, rel)))].sort();
  return Object.fromEntries(
    files.map((rel) => [
      rel,
      createHash('sha256')
        .update(readFileSync(path.join(root, rel)))
        .digest('hex'),
    ]),
  );
}

export function readStamp(root) {
  try {
    return JSON.parse(readFileSync(path.join(root, STAMP_FILE), 'utf8'));
  } catch {
    return {};
  }
}

/** Records a part's inputs as built (call after its build succeeded). */
export function writeStamp(root, part, hashes) {
  const stamp = readStamp(root);
  stamp[part.name] = { builtAt: new Date().toISOString(), files: hashes };
  writeFileSync(path.join(root, STAMP_FILE), `${JSON.stringify(stamp, null, 1)}\n`);
}

const listNames = (names) =>
  names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} e mais ${names.length - 3}`;

/** Why a part must be built (pt-BR, for the start log), or undefined when its last build is current. */
export function staleReason(root, part, hashes, stamp = readStamp(root)) {
  if (!existsSync(path.join(root, part.output))) return 'ainda não foi construído';
  const built = stamp[part.name]?.files;
  if (!built) return 'a construção existente não registrou as fontes de que veio';
  const changed = Object.keys(hashes).filter((f) => f in built && built[f] !== hashes[f]);
  const added = Object.keys(hashes).filter((f) => !(f in built));
  const removed = Object.keys(built).filter((f) => !(f in hashes));
  const parts = [];
  if (changed.length) parts.push(`${changed.length === 1 ? 'mudou' : 'mudaram'} ${listNames(changed)}`);
  if (added.length) parts.push(`${added.length === 1 ? 'entrou' : 'entraram'} ${listNames(added)}`);
  if (removed.length) parts.push(`${removed.length === 1 ? 'saiu' : 'saíram'} ${listNames(removed)}`);
  return parts.length ? `desde a última construção ${parts.join('; ')}` : undefined;
}
