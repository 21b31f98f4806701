// `npm run demo`: starts the product with ALLOW_PRIVATE_FETCH=1, seeds a demo company, user and domain through
// the HTTP API (the embedded database allows one process, so nothing opens DATA_DIR beside the running server),
// and serves the test website with the domain's tag, so browsing it fills the demo dashboard.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startTestSite } from '../e2e/test-site/site.ts';

const root = path.resolve(import.meta.dirname, '..');
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
const { solveChallenge } = serverRequire('altcha-lib') as typeof import('altcha-lib');
const { deriveKey } = serverRequire('altcha-lib/algorithms/pbkdf2') as typeof import('altcha-lib/algorithms/pbkdf2');

const port = process.env.PORT ?? '8080';
const host = process.env.HOST ?? '127.0.0.1';
const base = `http://${host}:${port}`;
const sitePort = Number(process.env.DEMO_SITE_PORT ?? 8090);
const demo = {
  company: 'Loja Corre Bem',
  name: 'Demo Ímpeto',
  username: 'demo',
  email: 'demo@impeto.local',
  password: 'demo-impeto-2026',
};

const server = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ALLOW_PRIVATE_FETCH: '1', SMTP_URL: '', NODE_ENV: 'development' },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

let token = '';
const api = async <T = unknown>(method: string, url: string, body?: unknown) => {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'accept-language': 'pt_BR',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as { message?: string; data: T } };
};

const waitForHealth = async () => {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('o servidor não respondeu a tempo');
};

const solveCaptcha = async () => {
  const challenge = await (await fetch(`${base}/api/captcha`)).json();
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
};

try {
  await waitForHealth();
  const company = await api<{ company: { uuid: string } }>('POST', '/company/create', {
    company: { name: demo.company },
  });
  const companyUuid = company.body.data.company.uuid;
  const signup = await api('POST', '/users/signup', {
    user: { company_uuid: companyUuid, ...demo, password_confirmation: demo.password },
  });
  if (signup.status === 200) {
    const outbox = await api<{ to: string; links: string[] }[]>('GET', '/dev/outbox');
    const link = outbox.body.data.find((m) => m.to === demo.email)?.links[0];
    if (!link) throw new Error('o e-mail de validação do usuário de demonstração não chegou');
    await api('PUT', '/users/validate', { user: { cid: new URL(link).searchParams.get('cid') } });
  } else {
    await api('DELETE', `/company/notfinished/${companyUuid}`);
  }

  const signin = await api<{ token: string; company_uuid: string }>('POST', '/users/signin', {
    user: { username: demo.username, password: demo.password },
    captcha: await solveCaptcha(),
  });
  if (signin.status !== 200) throw new Error(signin.body.message ?? 'login do usuário de demonstração falhou');
  token = signin.body.data.token;
  const config = (await api<{ publicUrl: string }>('GET', '/config')).body.data;

  const site = await startTestSite({ publicUrl: config.publicUrl, port: sitePort });
  type DemoDomain = { uuid: string; domain_root: string; gero_id: string };
  const domains = (await api<DemoDomain[]>('GET', `/domain/list/${signin.body.data.company_uuid}`)).body.data;
  let domain = domains.find((d) => d.domain_root === site.url);
  if (!domain) {
    const created = await api<DemoDomain>('POST', '/domain/create', {
      domain: { company_uuid: signin.body.data.company_uuid, name: 'Loja Corre Bem (demonstração)', domain: site.url },
    });
    domain = created.body.data;
  }
  site.setGeroId(domain!.gero_id);
  await api('POST', '/gero/validate', { gero: { domain_uuid: domain!.uuid } });

  console.log(`
  ┌──────────────────────────────────────────────────────────────
  │ Demonstração pronta
  │ Painel:        ${base}   (usuário ${demo.username}, senha ${demo.password})
  │ Site de teste: ${site.url}   (com a tag instalada: navegue por ele
  │                e veja o visitante no painel)
  └──────────────────────────────────────────────────────────────
`);
} catch (err) {
  console.error(`Falha ao preparar a demonstração: ${(err as Error).message}`);
}
