// `npm run demo`: starts the product with ALLOW_PRIVATE_FETCH=1 and seeds a demo company through the HTTP
// API (the embedded database allows one process, so nothing opens DATA_DIR beside the running server).
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const port = process.env.PORT ?? '8080';
const host = process.env.HOST ?? '127.0.0.1';
const base = `http://${host}:${port}`;
const demo = {
  company: 'Loja Demonstração',
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
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

const api = async (method, url, body) => {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: { 'content-type': 'application/json', 'accept-language': 'pt_BR' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => ({})) };
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

try {
  await waitForHealth();
  const company = await api('POST', '/company/create', { company: { name: demo.company } });
  const signup = await api('POST', '/users/signup', {
    user: {
      company_uuid: company.body.data.company.uuid,
      name: demo.name,
      username: demo.username,
      email: demo.email,
      password: demo.password,
      password_confirmation: demo.password,
    },
  });
  if (signup.status === 200) {
    const outbox = await api('GET', '/dev/outbox');
    const link = outbox.body.data.find((m) => m.to === demo.email)?.links[0];
    await api('PUT', '/users/validate', { user: { cid: new URL(link).searchParams.get('cid') } });
  } else {
    await api('DELETE', `/company/notfinished/${company.body.data.company.uuid}`);
  }
  console.log(`
  ┌──────────────────────────────────────────────
  │ Demonstração pronta: ${base}
  │ Usuário: ${demo.username}
  │ Senha:   ${demo.password}
  └──────────────────────────────────────────────
`);
} catch (err) {
  console.error(`Falha ao preparar a demonstração: ${err.message}`);
}
