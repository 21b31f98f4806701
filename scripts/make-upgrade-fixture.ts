// `npm run fixture:upgrade [-- <commit>]`: writes the data an older version of Ímpeto leaves behind, for the upgrade
// test (apps/server/src/db/upgrade.test.ts). The older commit runs in a temporary git worktree, on a PGlite data dir
// and on a fresh PostgreSQL database (TEST_DATABASE_URL's server), and is filled only through its own HTTP API and
// collector, the way users and sites fill it: accounts validated by e-mail, domains, channels with secrets, media,
// visitors and events, momentums of every type and status, deliveries in several states; then it is killed (-9)
// while the collector still holds accepted requests in its spool. What is left is kept under
// apps/server/test/fixtures/upgrade/<commit>/: the PGlite data dir (tar, brotli), a pg_dump, the spool, the media files,
// secret.key and a manifest of what was written. Add one for each commit that changes the schema (README).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gunzipSync, constants as zlib } from 'node:zlib';
import { pushServiceCertPath, startPushService, type TestSubscription } from '../apps/server/test/push-service.ts';

const root = path.resolve(import.meta.dirname, '..');
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
const pg = serverRequire('pg') as typeof import('pg');
const { solveChallenge } = serverRequire('altcha-lib') as typeof import('altcha-lib');
const { deriveKey } = serverRequire('altcha-lib/algorithms/pbkdf2') as typeof import('altcha-lib/algorithms/pbkdf2');

const commitArg = process.argv[2] ?? 'e12f489';
const commit = execFileSync('git', ['rev-parse', '--short=7', `${commitArg}^{commit}`], { cwd: root })
  .toString()
  .trim();
const out = path.join(root, 'apps/server/test/fixtures/upgrade', commit);
const pgUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GIF = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const SPOOL_CATEGORY = 'spool_replay';

const log = (line: string) => console.log(`[fixture ${commit}] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const work = mkdtempSync(path.join(tmpdir(), 'impeto-fixture-'));
const tree = path.join(work, 'tree');
const cleanups: (() => void | Promise<void>)[] = [
  () => {
    try {
      if (existsSync(tree)) execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: root, stdio: 'pipe' });
    } catch (err) {
      log(`não removi a worktree ${tree}: ${(err as { stderr?: Buffer }).stderr?.toString().trim()}`);
    }
    rmSync(work, { recursive: true, force: true });
  },
];

/** The older server, as its own `npm start` would run it (without the build: it serves the API and /collect). */
function startOldServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(tree, 'apps/server/src/main.ts')], {
    cwd: tree,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (c: Buffer) => {
    output += c.toString();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, output: () => output, exited };
}

// biome-ignore lint/suspicious/noExplicitAny: API answers and the manifest are read loosely; the assertions check their shape
type Json = Record<string, any>;

function client(base: string) {
  let token = '';
  const api = async (method: string, url: string, body?: unknown, as = token): Promise<Json> => {
    const res = await fetch(`${base}/api${url}`, {
      method,
      headers: {
        'accept-language': 'pt_BR',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(as ? { authorization: `Bearer ${as}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as Json;
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  return {
    api,
    use(t: string) {
      token = t;
    },
    async captcha() {
      const challenge = await (await fetch(`${base}/api/captcha`)).json();
      const solution = await solveChallenge({ challenge, deriveKey });
      return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    },
    async collect(domain: { gero_id: string; root: string }, vid: string | undefined, events: object[], ua = CHROME) {
      const res = await fetch(`${base}/collect`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: domain.root, 'user-agent': ua },
        body: JSON.stringify({ id: domain.gero_id, ...(vid ? { vid } : {}), e: events }),
      });
      const json = (await res.json()) as Json;
      if (res.status !== 202 || json.rejected?.length)
        throw new Error(`collect: ${res.status} ${JSON.stringify(json)}`);
      return json;
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, seconds = 90): Promise<T> {
  for (let i = 0; i < seconds * 4; i++) {
    const value = await probe();
    if (value) return value;
    await sleep(250);
  }
  throw new Error(`tempo esgotado esperando: ${what}`);
}

/** Fills a running older server through its API and collector; returns what the upgrade test checks. */
async function fill(base: string, push: Awaited<ReturnType<typeof startPushService>>) {
  const c = client(base);
  const accounts: Json[] = [];
  for (const [company, name, username] of [
    ['Loja Antiga Ltda', 'Ana Antiga', 'ana.antiga'],
    ['Outra Loja Ltda', 'Bruno Outro', 'bruno.outro'],
  ] as const) {
    const created = await c.api('POST', '/company/create', { company: { name: company } });
    const password = `senha-${username}-2026`;
    const email = `${username}@exemplo.com.br`;
    const user = {
      company_uuid: created.company.uuid,
      name,
      username,
      email,
      password,
      password_confirmation: password,
    };
    await c.api('POST', '/users/signup', { user });
    const mail = (await c.api('GET', '/dev/outbox')).find((m: Json) => m.to === email);
    await c.api('PUT', '/users/validate', { user: { cid: new URL(mail.links[0]).searchParams.get('cid') } });
    const signin = await c.api('POST', '/users/signin', {
      user: { username, password },
      captcha: await c.captcha(),
    });
    accounts.push({ company, companyUuid: created.company.uuid, name, username, email, password, token: signin.token });
  }
  const [ana, bruno] = accounts as [Json, Json];
  c.use(ana.token);

  const domain = async (owner: Json, name: string, address: string) => ({
    ...(await c.api(
      'POST',
      '/domain/create',
      { domain: { company_uuid: owner.companyUuid, name, domain: address } },
      owner.token,
    )),
    root: address,
  });
  const loja = await domain(ana, 'Loja Antiga', 'https://loja-antiga.com.br');
  // The domain's VAPID public key, as the tag reads it: pushes signed with another key are refused (403).
  loja.vapid_public_key = ((await (await fetch(`${base}/t/config/${loja.gero_id}`)).json()) as Json).vapid_public;
  const inactive = await domain(ana, 'Loja de Inverno', 'https://inverno.loja-antiga.com.br');
  await c.api('DELETE', '/domain/remove', { domain: { uuid: inactive.uuid } });
  const removed = await domain(ana, 'Loja Fechada', 'https://fechada.loja-antiga.com.br');
  await c.api('DELETE', `/domain/remove/${removed.uuid}`);
  const outra = await domain(bruno, 'Outra Loja', 'https://outra-loja.com.br');

  const channelSecrets: Record<string, Json> = {
    ZENVIA: { login: 'loja.antiga', password: 'zenvia-senha-secreta', sender: 'LojaAntiga' },
    AWS_SES: {
      accessKeyId: 'AKIAFIXTUREANTIGA01',
      secretAccessKey: 'ses-segredo/antigo+2026',
      region: 'sa-east-1',
      source: 'contato@loja-antiga.com.br',
    },
  };
  const channels: Json[] = [];
  for (const type of ['CELL_NOTIFICATION', 'SUPERARE_WEBVIEW', 'ZENVIA', 'AWS_SES']) {
    const properties = channelSecrets[type] ?? {};
    const ch = await c.api('POST', '/channel/create', {
      channel: { domain_uuid: loja.uuid, channel_type: type, properties },
    });
    channels.push({ uuid: ch.uuid, domainUuid: loja.uuid, type, properties });
  }
  const akna = { username: 'outra.akna', password: 'akna-senha-secreta', client: 'outra-loja' };
  const aknaChannel = await c.api(
    'POST',
    '/channel/create',
    { channel: { domain_uuid: outra.uuid, channel_type: 'AKNA', properties: akna } },
    bruno.token,
  );
  channels.push({ uuid: aknaChannel.uuid, domainUuid: outra.uuid, type: 'AKNA', properties: akna });

  const uploaded = await c.api('POST', `/gallery/upload/${loja.uuid}/domain`, {
    images: [`data:image/png;base64,${PNG}`, `data:image/gif;base64,${GIF}`],
  });
  const media = (Array.isArray(uploaded) ? uploaded : [uploaded]).flat();

  const everyone = { type: 'filter', values: [{ filter: 'all' }] };
  const pageview = (contains: string, dischargeIn: number[] = []) => ({
    type: 'trigger',
    regex: false,
    values: [{ filter: 'pageview', comparation: 'contain', value: [contains], dischargeIn }],
  });
  const pushBlock = (title: string) => ({
    type: 'dispatcher',
    values: [
      {
        filter: 'CELL_NOTIFICATION',
        name: title,
        title,
        message: 'Mensagem escrita pela versão antiga.',
        icon_uri: 'https://loja-antiga.com.br/icone.png',
        redirect_uri: 'https://loja-antiga.com.br/ofertas',
      },
    ],
  });
  const topbar = {
    type: 'dispatcher',
    values: [
      {
        filter: 'SUPERARE_WEBVIEW',
        webview_type: 'topbar',
        webview_mode: 'devices_all',
        webview_props: { topbarContent: 'Frete grátis (versão antiga)', topbarBtnText: 'Ver' },
      },
    ],
  };
  const momentums: Json[] = [];
  const create = async (body: Json, as = ana) => {
    const item = await c.api('POST', '/momentum/create', body, as.token);
    const entry = { uuid: item.uuid, domainUuid: body.domain_uuid, type: body.type, title: body.momentum_title };
    momentums.push(entry);
    return entry;
  };
  const momentum = (title: string, blocks: object[], extra: Json = {}) =>
    create({
      domain_uuid: loja.uuid,
      type: 'momentum',
      momentum_title: title,
      status: 'Active',
      momentums: blocks,
      ...extra,
    });

  const welcome = await momentum('Boas-vindas por push', [
    everyone,
    pageview('/produto'),
    pushBlock('Bem-vindo de volta'),
  ]);
  const onsite = await momentum('Barra de frete', [everyone, pageview('/carrinho'), topbar]);
  const tomorrow = await momentum('Lembrete de amanhã', [
    everyone,
    pageview('/checkout', [86_400]),
    pushBlock('Seu pedido espera'),
  ]);
  const toCancel = await momentum('Pausado com envio na fila', [
    everyone,
    pageview('/sair', [600]),
    pushBlock('Não vá embora'),
  ]);
  const finishing = (at: Date) =>
    momentum('Encerra sozinho', [
      everyone,
      pageview('/nunca'),
      pushBlock('Nunca enviado'),
      { type: 'finish', values: [{ type: 'finish', filter: 'stop_momentum', value: at.toISOString() }] },
    ]);
  // Versions since the 15-minute grid refuse a finish in 8 s: those finish at the next quarter hour instead.
  let finishAt = new Date(Date.now() + 8000);
  const toFinish = await finishing(finishAt).catch(() => {
    finishAt = new Date(Math.ceil((Date.now() + 8000) / 900_000) * 900_000);
    log(`o momentum que se encerra sozinho termina às ${finishAt.toISOString()}`);
    return finishing(finishAt);
  });
  await momentum('Agendado para o mês que vem', [everyone, pageview('/agenda'), pushBlock('Agendado')], {
    status: 'Paused',
    scheduled_at: new Date(Math.ceil((Date.now() + 30 * 86_400_000) / 900_000) * 900_000).toISOString(),
  });
  await momentum('Rascunho antigo', [], { status: 'Draft' });
  const paused = await momentum('Pausado pelo usuário', [everyone, pageview('/pausa'), pushBlock('Pausa')]);
  await c.api('PUT', `/momentum/status/${paused.uuid}`, { status: 'Paused' });
  const deleted = await momentum('Removido pelo usuário', [everyone, pageview('/remover'), pushBlock('Removido')]);
  await c.api('DELETE', `/momentum/remove/${deleted.uuid}`);
  await create({
    domain_uuid: loja.uuid,
    type: 'dcm',
    momentum_title: 'Conteúdo dinâmico da home',
    status: 'Active',
    momentums: [
      pageview('/'),
      {
        type: 'dispatcher',
        // The fields GCD's own issue made required (htmlElement, content); servers before it ignore them.
        values: [
          {
            filter: 'CELL_DCM',
            dispatcher_type: 'custom',
            htmlElement: '#vitrine',
            tagBehavior: 'beforeend',
            customHtml: '<p>Frete grátis hoje</p>',
          },
        ],
      },
    ],
  });
  await create({
    domain_uuid: loja.uuid,
    type: 'campaign',
    momentum_title: 'Campanha em rascunho',
    status: 'Draft',
    momentums: [],
  });
  await create(
    {
      domain_uuid: outra.uuid,
      type: 'momentum',
      momentum_title: 'Momentum da outra empresa',
      status: 'Active',
      momentums: [everyone, pageview('/produto'), pushBlock('Outra empresa')],
    },
    bruno,
  );

  // Visitors of the first company's site: push subscribers, an on-site visitor, a mobile visitor.
  const subscriptions: (TestSubscription & { vid: string })[] = [];
  const subscribe = async (vid: string) => {
    const sub = push.newSubscription({ applicationServerKey: loja.vapid_public_key ?? undefined });
    await c.collect(loja, vid, [
      { t: 'pv', u: `${loja.root}/`, ti: 'Início' },
      { t: 'optin', s: sub.subscription },
      { t: 'id', p: { email: `${vid}@cliente.com.br`, nome: `Cliente ${vid}` } },
      { t: 'ev', c: 'adicionou_carrinho', p: { produto: 'Tênis', valor: 199.9 } },
    ]);
    subscriptions.push({ ...sub, vid });
    return sub;
  };
  const [s1, s2, s3] = [await subscribe('v-ana-1'), await subscribe('v-ana-2'), await subscribe('v-ana-3')];
  await subscribe('v-ana-4');
  await c.collect(loja, 'v-ana-5', [{ t: 'pv', u: `${loja.root}/blog`, ti: 'Blog' }], ANDROID);
  await c.collect(outra, 'w-bruno-1', [
    { t: 'pv', u: `${outra.root}/`, ti: 'Outra' },
    { t: 'ev', c: 'viu_oferta', p: { oferta: 'inverno' } },
  ]);

  // Sent, then viewed and clicked (reported by the service worker: no visitor id).
  push.respondWith(s3.subscription.endpoint, 410);
  for (const vid of ['v-ana-1', 'v-ana-2', 'v-ana-3'])
    await c.collect(loja, vid, [{ t: 'pv', u: `${loja.root}/produto/${vid}` }]);
  const received = await until('os pushes de boas-vindas', async () =>
    [s1, s2].every((sub) => push.received.some((r) => r.subscriptionId === sub.id)) ? push.received : undefined,
  );
  const idOf = (sub: TestSubscription) =>
    (received.find((r) => r.subscriptionId === sub.id)?.payload as Json | undefined)?.delivery_id as string;
  await c.collect(loja, undefined, [
    { t: 'viewed', d: idOf(s1) },
    { t: 'clicked', d: idOf(s1) },
  ]);
  await c.collect(loja, undefined, [{ t: 'viewed', d: idOf(s2) }]);
  // Waiting a day; an on-site message waiting for the visitor's next page.
  await c.collect(loja, 'v-ana-4', [{ t: 'pv', u: `${loja.root}/checkout` }]);
  await c.collect(loja, 'v-ana-5', [{ t: 'pv', u: `${loja.root}/carrinho` }], ANDROID);
  // Queued, then cancelled because the momentum was paused before it was due.
  await c.collect(loja, 'v-ana-2', [{ t: 'pv', u: `${loja.root}/sair` }]);
  await until('a entrega do momentum a pausar', async () => {
    const list = (await c.api('GET', `/momentum/list/${loja.uuid}?type=momentum`)) as Json[];
    return list.find((m) => m.uuid === toCancel.uuid)?.deliveries?.waiting === 1;
  });
  await c.api('PUT', `/momentum/status/${toCancel.uuid}`, { status: 'Paused' });
  // A campaign to every subscriber still subscribed (v-ana-3's endpoint answered 410).
  await create({
    domain_uuid: loja.uuid,
    type: 'campaign',
    momentum_title: 'Campanha de Natal',
    status: 'Active',
    momentums: [everyone, pushBlock('Natal antecipado')],
  });

  const counts = async () => {
    const list = (await c.api('GET', `/momentum/list/${loja.uuid}?type=momentum`)) as Json[];
    const campaigns = (await c.api('GET', `/momentum/list/${loja.uuid}?type=campaign`)) as Json[];
    return [...list, ...campaigns];
  };
  await until(
    'entregas nos estados esperados',
    async () => {
      const all = await counts();
      const of = (uuid: string) => all.find((m) => m.uuid === uuid);
      const campaign = all.find((m) => m.momentum_title === 'Campanha de Natal');
      return (
        of(toCancel.uuid)?.deliveries?.waiting === 0 &&
        of(welcome.uuid)?.deliveries?.failed === 1 &&
        of(welcome.uuid)?.deliveries?.clicked === 1 &&
        of(welcome.uuid)?.deliveries?.viewed >= 1 &&
        of(tomorrow.uuid)?.deliveries?.waiting === 1 &&
        of(onsite.uuid)?.deliveries?.sent === 1 &&
        of(toFinish.uuid)?.status === 'Done' &&
        campaign?.deliveries?.sent === 3 &&
        all
      );
    },
    90 + Math.max(0, Math.ceil((finishAt.getTime() - Date.now()) / 1000)),
  );

  const lists = {
    domains: {
      ana: (await c.api('GET', `/domain/list/${ana.companyUuid}`)).map((d: Json) => ({
        uuid: d.uuid,
        name: d.name,
        status: d.status,
      })),
      bruno: (await c.api('GET', `/domain/list/${bruno.companyUuid}`, undefined, bruno.token)).map((d: Json) => ({
        uuid: d.uuid,
        name: d.name,
        status: d.status,
      })),
    },
    momentums: await Promise.all(
      ['momentum', 'campaign', 'dcm'].map(async (type) =>
        ((await c.api('GET', `/momentum/list/${loja.uuid}?type=${type}`)) as Json[]).map((m) => ({
          uuid: m.uuid,
          type: m.type,
          title: m.momentum_title,
          status: m.status,
          scheduled_at: m.scheduled_at,
          deliveries: m.deliveries,
        })),
      ),
    ).then((l) => l.flat()),
    media: (await c.api('GET', `/gallery/list/${loja.uuid}/domain`)) as Json[],
  };

  return {
    accounts: accounts.map(({ token: _t, ...a }) => a),
    domains: { loja, inactive, removed, outra },
    channels,
    media: lists.media,
    lists,
    subscriptions: subscriptions.map((s) => ({
      vid: s.vid,
      id: s.id,
      privateKey: s.privateKey,
      auth: s.subscription.keys.auth,
      endpoint: s.subscription.endpoint,
      applicationServerKey: loja.vapid_public_key ?? undefined,
    })),
    waiting: { momentumUuid: tomorrow.uuid, vid: 'v-ana-4' },
    onsite: { momentumUuid: onsite.uuid, vid: 'v-ana-5' },
    pushOrigin: push.origin,
    uploadedMedia: media.length,
  };
}

/** Accepted requests the server has not stored yet: sent together, then the server is killed before it writes. */
async function leaveSpool(base: string, loja: Json, server: ChildProcess, attempt: number) {
  const c = client(base);
  const requests = Array.from({ length: 4 }, (_, i) => i);
  await Promise.all(
    requests.map((i) =>
      c.collect(loja, `v-spool-${attempt}-${i}`, [
        { t: 'pv', u: `${loja.root}/sobre`, ti: 'Sobre' },
        { t: 'ev', c: SPOOL_CATEGORY, p: { n: `${attempt}-${i}` } },
      ]),
    ),
  );
  server.kill('SIGKILL');
  return requests.length;
}

const segmentsIn = (spool: string) =>
  existsSync(spool)
    ? readdirSync(spool, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.seg'))
        .map((f) => path.join(spool, f))
    : [];

async function run(kind: 'pglite' | 'postgres', secret: string, push: Awaited<ReturnType<typeof startPushService>>) {
  const dataDir = path.join(work, `data-${kind}`);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, 'secret.key'), secret, { mode: 0o600 });
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  if (kind === 'postgres') {
    const name = `impeto_fixture_${commit}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(pgUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDatabase = async () => {
      const a = new pg.Client({ connectionString: pgUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    };
    cleanups.unshift(() => dropDatabase());
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ALLOW_PRIVATE_FETCH: '1',
    NODE_EXTRA_CA_CERTS: pushServiceCertPath,
    AUTH_RATE_LIMIT: '1000',
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
  };
  const waitUp = async (server: ReturnType<typeof startOldServer>) => {
    await until(
      'o servidor antigo responder',
      async () => {
        if (server.child.exitCode !== null) throw new Error(`o servidor antigo saiu:\n${server.output()}`);
        return (await fetch(`${base}/api/health`).catch(() => undefined))?.ok;
      },
      180,
    );
  };
  let server = startOldServer(env);
  // A failure halfway leaves no older server running.
  cleanups.unshift(() => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  });
  await waitUp(server);
  log(`${kind}: servidor antigo em ${base}; preenchendo pela API e pelo coletor`);
  const written = await fill(base, push);

  const spool = path.join(dataDir, 'spool');
  let spoolEvents = 0;
  for (let attempt = 1; ; attempt++) {
    const sent = await leaveSpool(base, written.domains.loja, server.child, attempt);
    spoolEvents += sent * 2;
    await server.exited;
    const waiting = segmentsIn(spool).filter((f) => readFileSync(f, 'utf8').includes(SPOOL_CATEGORY));
    if (waiting.length) break;
    if (attempt === 3) throw new Error('o servidor antigo gravou o lote antes de morrer três vezes seguidas');
    log(`${kind}: o lote foi gravado antes do kill; de novo`);
    server = startOldServer(env);
    await waitUp(server);
  }
  log(`${kind}: servidor antigo morto com ${segmentsIn(spool).length} segmento(s) no spool`);

  const target = path.join(out, kind);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  // The spool without its database folder (a hash of the data dir or database address, which the test's differ).
  for (const dbFolder of readdirSync(spool))
    cpSync(path.join(spool, dbFolder), path.join(target, 'spool'), { recursive: true });
  if (existsSync(path.join(dataDir, 'media')))
    cpSync(path.join(dataDir, 'media'), path.join(target, 'media'), { recursive: true });

  const countsSql = `SELECT
      (SELECT count(*) FROM persons)::int AS persons,
      (SELECT count(*) FROM events)::int AS events,
      (SELECT count(*) FROM events WHERE category = '${SPOOL_CATEGORY}')::int AS spool_events_stored,
      (SELECT count(*) FROM onsite_queue)::int AS onsite_waiting,
      (SELECT json_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM deliveries GROUP BY status) s) AS deliveries,
      (SELECT count(*) FROM drizzle.__drizzle_migrations)::int AS migrations`;
  let stored: Json;
  if (kind === 'pglite') {
    // Opened (and recovered after the kill) and dumped by the older commit's own PGlite.
    const dumper = path.join(tree, 'apps/server/dump-fixture.mjs');
    writeFileSync(
      dumper,
      `import { writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create(process.argv[2]);
const { rows } = await db.query(process.argv[4]);
const dump = await db.dumpDataDir('gzip');
writeFileSync(process.argv[3], Buffer.from(await dump.arrayBuffer()));
await db.close();
console.log(JSON.stringify(rows[0]));
`,
    );
    const gz = path.join(work, `pglite-${kind}.tar.gz`);
    const printed = execFileSync(process.execPath, [dumper, path.join(dataDir, 'pg'), gz, countsSql], {
      cwd: path.dirname(dumper),
    });
    // Brotli keeps the data dir (mostly PostgreSQL's own catalogs and WAL) about 3.5 times smaller than gzip.
    const tar = gunzipSync(readFileSync(gz));
    writeFileSync(
      path.join(target, 'pglite.tar.br'),
      brotliCompressSync(tar, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: 11,
          [zlib.BROTLI_PARAM_LGWIN]: 24,
          [zlib.BROTLI_PARAM_SIZE_HINT]: tar.length,
        },
      }),
    );
    stored = JSON.parse(printed.toString().trim().split('\n').at(-1)!);
  } else {
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    stored = (await db.query(countsSql)).rows[0];
    await db.end();
    const dump = execFileSync('pg_dump', ['--no-owner', '--no-privileges', '--dbname', databaseUrl!], {
      maxBuffer: 256 * 1024 * 1024,
    });
    writeFileSync(
      path.join(target, 'postgres.sql.gz'),
      execFileSync('gzip', ['-9', '-n'], { input: dump, maxBuffer: 256 * 1024 * 1024 }),
    );
    await dropDatabase();
  }
  const manifest = {
    commit,
    kind,
    writtenAt: new Date().toISOString(),
    /** PUBLIC_URL of the older run: media URLs carry it, and an upgrade keeps it. */
    publicUrl: base,
    ...written,
    spool: {
      category: SPOOL_CATEGORY,
      eventsSent: spoolEvents / 2,
      segments: segmentsIn(path.join(target, 'spool')).length,
    },
    stored,
  };
  writeFileSync(path.join(target, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`${kind}: ${JSON.stringify(stored)}`);
}

try {
  log(`worktree temporária em ${tree}`);
  execFileSync('git', ['worktree', 'add', '--detach', tree, commit], { cwd: root, stdio: 'inherit' });
  log('npm ci (--prefer-offline)…');
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: tree, stdio: 'inherit' });
  execFileSync(process.execPath, ['packages/tracker/build.mjs'], { cwd: tree, stdio: 'inherit' });
  mkdirSync(out, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path.join(out, 'secret.key'), secret);
  for (const kind of ['pglite', 'postgres'] as const) {
    const push = await startPushService();
    try {
      await run(kind, secret, push);
    } finally {
      await push.close();
    }
  }
  const size = execFileSync('du', ['-sh', out]).toString().split('\t')[0];
  log(`pronto: ${path.relative(root, out)} (${size})`);
} finally {
  for (const cleanup of cleanups) await cleanup();
}
