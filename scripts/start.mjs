// `npm start`: builds what is stale (tag files, dashboard: see build-stamp.mjs), then runs API, worker, dashboard
// and tag files on one port, on the embedded database unless DATABASE_URL is set. `--rebuild` builds everything.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { inputHashes, PARTS, staleReason, writeStamp } from './build-stamp.mjs';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const rebuildAll = process.argv.includes('--rebuild');

for (const part of PARTS) {
  const hashes = inputHashes(root, part);
  const reason = rebuildAll ? 'pedido com --rebuild' : staleReason(root, part, hashes);
  if (!reason) continue;
  console.log(`Construindo ${part.label} (${reason})…`);
  const res = spawnSync(npm, ['run', part.script], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
  writeStamp(root, part, hashes);
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
