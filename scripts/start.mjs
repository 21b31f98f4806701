// `npm start`: builds what is not built (tag files, dashboard), then runs API, worker, dashboard and tag
// files on one port, on the embedded database unless DATABASE_URL is set.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const ensureBuilt = (what, marker, script) => {
  if (existsSync(path.join(root, marker)) && !process.argv.includes('--rebuild')) return;
  console.log(`Construindo ${what}…`);
  const res = spawnSync(npm, ['run', script], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
};
ensureBuilt('os arquivos da tag', 'packages/tracker/dist/versions.json', 'build:tracker');
ensureBuilt('o painel', 'apps/web/dist/index.html', 'build:web');

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
