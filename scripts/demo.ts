// `npm run demo`: starts the product with ALLOW_PRIVATE_FETCH=1 and the demonstration clock (DEMO_CLOCK=1), a local
// push service and the test website with the demo domain's tag, then seeds 30 days of a living shop through the HTTP
// API and the collector (scripts/demo-seed.ts). The embedded database allows one process, so nothing opens DATA_DIR
// beside the running server. A second run on the same DATA_DIR finds the demo's momentums and seeds nothing again.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pushServiceCertPath, startPushService } from '../apps/server/test/push-service.ts';
import { startTestSite } from '../e2e/test-site/site.ts';
import { DEMO_ACCOUNT, seedDemo } from './demo-seed.ts';

const root = path.resolve(import.meta.dirname, '..');
const port = process.env.PORT ?? '8080';
const host = process.env.HOST ?? '127.0.0.1';
const base = `http://${host}:${port}`;
const sitePort = Number(process.env.DEMO_SITE_PORT ?? 8090);

const server = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    ALLOW_PRIVATE_FETCH: '1',
    DEMO_CLOCK: '1',
    // The seed tells each visitor's city the way a CDN in front of the site would.
    TRUSTED_GEO_HEADERS: 'cloudflare',
    // The local push service's self-signed certificate.
    NODE_EXTRA_CA_CERTS: pushServiceCertPath,
    SMTP_URL: '',
    NODE_ENV: 'development',
    // Thousands of seeding requests would bury the progress lines; LOG_LEVEL=info shows them.
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

const waitForHealth = async () => {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('o servidor não respondeu a tempo');
};

try {
  await waitForHealth();
  const started = Date.now();
  console.log('\n  Preparando a demonstração (conta, canais, momentums e 30 dias de histórico)…');
  const push = await startPushService();
  const config = (await (await fetch(`${base}/api/config`)).json()) as { data: { publicUrl: string } };
  const site = await startTestSite({ publicUrl: config.data.publicUrl, port: sitePort });
  const seeded = await seedDemo({ base, site, push, log: (line) => console.log(`  ${line}`) });
  const seconds = Math.round((Date.now() - started) / 1000);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  const monthAgo = new Date(Date.parse(`${today}T12:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const dashboard = `${base}/?domain=${seeded.domain.uuid}&start=${monthAgo}&end=${today}`;
  console.log(`
  ┌──────────────────────────────────────────────────────────────
  │ Demonstração pronta${seeded.skipped ? ' (dados já existentes mantidos)' : ` em ${seconds} s`}
  │ Painel:        ${base}
  │ Últimos 30 dias: ${dashboard}
  │ Usuário:       ${DEMO_ACCOUNT.username}
  │ Senha:         ${DEMO_ACCOUNT.password}
  │ Site de teste: ${site.url}   (com a tag instalada: navegue por ele
  │                e veja o visitante no painel)
  └──────────────────────────────────────────────────────────────
`);
} catch (err) {
  console.error(`Falha ao preparar a demonstração: ${(err as Error).message}`);
}
