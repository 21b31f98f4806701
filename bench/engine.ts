/**
 * `npm run bench:engine`: the engine on PostgreSQL, as a real server process (main.ts, ROLE=all) sending to the
 * local push service (apps/server/test/push-service.ts, https, VAPID checked, count-only) that runs here.
 *
 *   latency     visitors opt in through /collect; an Active momentum (pageview contains /oferta → push); ~1,000
 *               page views/s for ~20 s, one in ten a triggering view of a distinct subscriber; for each push,
 *               arrival time − the time its collect request was answered (matched by the subscriber's endpoint).
 *   campaign    100,000 subscribed persons generated with SQL (distinct endpoints, one shared key pair); an Active
 *               campaign created through the API; time from the create request to the 100,000th push.
 *
 *   email, sms  MESSAGES (100,000) persons with an e-mail address / a mobile phone generated with SQL; an Amazon SES /
 *               Zenvia channel integrated through the API with the credentials the local peers accept (SES: SigV4
 *               verified on every request; Zenvia: HTTP Basic, duplicate ids refused); an Active campaign; time
 *               from the create request to the last message at the peer, and duplicates (same delivery twice).
 *
 * Creates a scratch database and drops it at the end. Writes the Engine section of bench/RESULTS.md (between
 * its markers) unless RESULTS=0. Knobs: LATENCY_SECONDS (20), RATE (1000 events/s), TRIGGER_EVERY (10),
 * CAMPAIGN (100000; 0 skips), PHASES (latency,campaign,email,sms), MESSAGES (100000), PROFILE=1 (the server runs
 * with --cpu-prof during the campaign and the report says where its time went). The timing phases of issue #27,
 * `localtime` and `throttle`, run only when named in PHASES (bench/engine-timing.ts; LOCAL_PERSONS, THROTTLE_PERSONS,
 * THROTTLE_RATE). The journey phase of issue #26, `journey`, too (bench/engine-journey.ts; JOURNEY_PERSONS): its
 * rate is printed beside the campaign's.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import aes128gcm from '../apps/server/src/channels/aes128gcm.cjs';
import { ENGINE_DEFAULTS, FANOUT_PAGE, SEND_PASSES } from '../apps/server/src/engine/defaults.ts';
import { solveCaptchaChallenge } from '../apps/server/test/captcha-solver.ts';
import { type SesPeer, startSesPeer } from '../apps/server/test/peers/ses-peer.ts';
import { startZenviaPeer, type ZenviaPeer } from '../apps/server/test/peers/zenvia-peer.ts';
import { type PushService, pushServiceCertPath, startPushService } from '../apps/server/test/push-service.ts';
import { JOURNEY_PERSONS, journeyAdvance } from './engine-journey.ts';
import { mergeProfiles, type ProfileSummary, summariseProfile } from './engine-profile.ts';
import {
  LOCAL_PERSONS,
  type LocalTimeResult,
  localTimePlan,
  reportTiming,
  THROTTLE_PERSONS,
  THROTTLE_RATE,
  type ThrottleResult,
  throttleRate,
} from './engine-timing.ts';

const root = path.resolve(import.meta.dirname, '..');

const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const LATENCY_SECONDS = Number(process.env.LATENCY_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.WARMUP_SECONDS ?? 5);
const RATE = Number(process.env.RATE ?? 1000);
const TRIGGER_EVERY = Number(process.env.TRIGGER_EVERY ?? 10);
const CAMPAIGN = Number(process.env.CAMPAIGN ?? 100_000);
const PHASES = (process.env.PHASES ?? 'latency,campaign,email,sms').split(',');
/** Persons of the e-mail (local SES peer) and SMS (local Zenvia peer) campaigns; 0 skips. */
const MESSAGES = Number(process.env.MESSAGES ?? 100_000);
const MESSAGES_TARGET_S = 60;
const SES_KEYS = { accessKeyId: 'AKIABENCHMOTOR000001', secretAccessKey: 'bench/motor+segredo/0123456789abcdefghij' };
const PROFILE = process.env.PROFILE === '1';
/** 0: one ROLE=all process. N: one ROLE=api process (HTTP, matching) and N ROLE=worker processes (fan-out, sends). */
const WORKERS = Number(process.env.WORKERS ?? 0);
const RESULTS =
  process.env.RESULTS === '0' ? null : path.resolve(process.env.RESULTS ?? path.join(root, 'bench/RESULTS.md'));
const SECRET_KEY = 'e'.repeat(43);
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/**
 * What the server runs with: the defaults (apps/server/src/engine/defaults.ts, web-push.ts), or ENGINE_BATCH_SIZE /
 * ENGINE_CONCURRENCY / PUSH_ENCRYPT_THREADS passed through.
 */
const ENGINE = {
  batchSize: Number(process.env.ENGINE_BATCH_SIZE ?? ENGINE_DEFAULTS.batchSize),
  concurrency: Number(process.env.ENGINE_CONCURRENCY ?? ENGINE_DEFAULTS.concurrency),
  passes: SEND_PASSES,
  fanoutPage: FANOUT_PAGE,
  pushSockets: 128,
  encryptThreads: Number(process.env.PUSH_ENCRYPT_THREADS ?? Math.max(0, Math.min(4, os.availableParallelism() - 1))),
};
const LATENCY_TARGET_MS = 500;
const WINDOW_SECONDS = 5;
const CAMPAIGN_TARGET_S = 30;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const withDatabase = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;
const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');

/**
 * CPU seconds (user + system) a process has used so far, from /proc; with `reaped`, also its children that ended
 * (PostgreSQL's postmaster reaps every backend: a connection closed during a run still counts).
 */
function cpuSeconds(pid: number, reaped = false) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of every PostgreSQL server process on the box, ended backends included (other databases' work too). */
function postgresCpuSeconds() {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    const s = cpuSeconds(Number(entry), true);
    if (Number.isFinite(s)) total += s;
  }
  return total;
}

// ------------------------------------------------------------------ server process

interface Server {
  /** The HTTP process (ROLE=all, or ROLE=api when WORKERS > 0) first, then the workers. */
  children: ChildProcess[];
  base: string;
  profileDir: string | null;
  /** CPU seconds used so far by every process of the server. */
  cpu(): number;
  stop(): Promise<void>;
}

async function startServer(databaseUrl: string, tmp: string, profile: boolean): Promise<Server> {
  const port = await freePort();
  const trackerDist = path.join(tmp, 'tracker');
  mkdirSync(trackerDist, { recursive: true });
  writeFileSync(path.join(trackerDist, 'versions.json'), JSON.stringify({ gero: [], cnsw: [] }));
  writeFileSync(path.join(trackerDist, 'loader.js'), '');
  const profileDir = profile ? mkdtempSync(path.join(tmp, 'prof-')) : null;
  const spawnRole = (role: 'all' | 'api' | 'worker') =>
    spawn(
      process.execPath,
      [
        ...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []),
        '--import',
        'tsx',
        'apps/server/src/main.ts',
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          ROLE: role,
          NODE_ENV: 'development',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATABASE_URL: databaseUrl,
          DATA_DIR: path.join(tmp, 'data'),
          SECRET_KEY,
          SMTP_URL: '',
          ALLOW_PRIVATE_FETCH: '1',
          NODE_EXTRA_CA_CERTS: pushServiceCertPath,
          AUTH_RATE_LIMIT: '1000',
          LOG_LEVEL: 'warn',
          WEB_DIST: path.join(tmp, 'no-web'),
          TRACKER_DIST: trackerDist,
        },
        stdio: ['ignore', role === 'worker' ? 'pipe' : process.env.SERVER_LOG ? 'inherit' : 'ignore', 'inherit'],
      },
    );
  const http = spawnRole(WORKERS > 0 ? 'api' : 'all');
  const children = [http];
  // A bench that dies (an uncaught error, its database connection cut) takes its servers with it: an orphan would
  // keep sending and skew the next run's figures.
  process.once('exit', () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (http.exitCode !== null) throw new Error(`o servidor saiu com ${http.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (i > 240) throw new Error('o servidor não respondeu em 60 s');
    await sleep(250);
  }
  // Workers after the API: it created pg-boss's queues.
  for (let i = 0; i < WORKERS; i++) {
    const worker = spawnRole('worker');
    children.push(worker);
    await new Promise<void>((resolve, reject) => {
      let out = '';
      worker.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('worker pronto')) resolve();
      });
      worker.once('exit', (code) => reject(new Error(`worker saiu com ${code}`)));
    });
  }
  return {
    children,
    base,
    profileDir,
    cpu: () => children.reduce((sum, c) => sum + cpuSeconds(c.pid!), 0),
    async stop() {
      await Promise.all(
        children.map(async (child) => {
          if (child.exitCode !== null) return;
          const exited = new Promise<void>((r) => child.once('exit', () => r()));
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}

function apiClient(base: string) {
  let token = '';
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}/api${url}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'accept-language': 'pt_BR',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the API's answers are read field by field below
    const json = (await res.json().catch(() => ({}))) as { message?: string; data?: any };
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${json.message ?? ''}`);
    return json.data;
  };
  const signIn = async () => {
    const company = await api('POST', '/company/create', { company: { name: 'Loja Bench Motor' } });
    const user = {
      company_uuid: company.company.uuid,
      name: 'Bench Motor',
      username: 'benchmotor',
      email: 'bench-motor@impeto.local',
      password: 'fila de envios sem pausa',
      password_confirmation: 'fila de envios sem pausa',
    };
    await api('POST', '/users/signup', { user });
    const outbox = (await api('GET', '/dev/outbox')) as { to: string; links: string[] }[];
    const link = outbox.find((m) => m.to === user.email)!.links[0]!;
    await api('PUT', '/users/validate', { user: { cid: new URL(link).searchParams.get('cid') } });
    const challenge = await (await fetch(`${base}/api/captcha`)).json();
    const captcha = await solveCaptchaChallenge(challenge);
    const signin = await api('POST', '/users/signin', {
      user: { username: user.username, password: user.password },
      captcha,
    });
    token = signin.token;
    return company.company.uuid as string;
  };
  return { api, signIn };
}

const pushBlock = (title: string) => ({
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_NOTIFICATION',
      name: title,
      title,
      message: 'Só hoje, para você.',
      icon_uri: 'https://bench-motor.example.com.br/icone.png',
      redirect_uri: 'https://bench-motor.example.com.br/oferta',
    },
  ],
});
const everyone = { type: 'filter', values: [{ filter: 'all' }] };

// ------------------------------------------------------------------ latency

interface LatencyResult {
  seconds: number;
  requests: number;
  eventsPerSecond: number;
  non202: number;
  errors: number;
  triggering: number;
  received: number;
  missing: number;
  latencies: { p50: number; p95: number; p99: number; max: number };
  collectP50: number;
  collectP99: number;
  /** Latency by when the triggering view was sent (warm-up versus steady state). */
  windows: { from: number; n: number; p50: number; p95: number }[];
  deliveries: number;
  /** From the deliveries' stamps: trigger event → delivery row, and delivery row → recorded as sent (ms). */
  stages: { match50: number; match95: number; send50: number; send95: number };
  serverCores: number;
  postgresCores: number;
}

async function latency(
  base: string,
  client: ReturnType<typeof apiClient>,
  companyUuid: string,
  push: PushService,
  server: Server,
  db: pg.Client,
): Promise<LatencyResult> {
  const root = 'https://bench-motor.example.com.br';
  const domain = await client.api('POST', '/domain/create', {
    domain: { company_uuid: companyUuid, name: 'Bench latência', domain: root },
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });
  const { hostname, port } = new URL(base);
  const collect = (vid: string, events: object[]) =>
    new Promise<{ status: number; at: number; ms: number }>((resolve) => {
      const body = JSON.stringify({ id: domain.gero_id, vid, e: events });
      const started = performance.now();
      const req = http.request(
        {
          hostname,
          port,
          path: '/collect',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'text/plain;charset=UTF-8',
            origin: root,
            'user-agent': CHROME,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, at: Date.now(), ms: performance.now() - started }),
          );
        },
      );
      req.on('error', () => resolve({ status: 0, at: Date.now(), ms: performance.now() - started }));
      req.end(body);
    });

  const total = Math.round(LATENCY_SECONDS * RATE);
  const triggering = Math.floor(total / TRIGGER_EVERY);
  const subscribers = Array.from({ length: triggering }, (_, i) => ({
    vid: `lat-${i}`,
    sub: push.newSubscription().subscription,
  }));
  // Opt-ins through the collector (this also loads its geo tables before the measured window).
  for (let i = 0; i < subscribers.length; i += 50) {
    await Promise.all(
      subscribers.slice(i, i + 50).map((s) =>
        collect(s.vid, [
          { t: 'optin', s: s.sub },
          { t: 'pv', u: `${root}/` },
        ]),
      ),
    );
  }
  for (let i = 0; ; i++) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM persons WHERE domain_uuid = $1 AND push_status = 'subscribed'`,
      [domain.uuid],
    );
    if (Number(rows[0]!.n) >= triggering) break;
    if (i > 300) throw new Error(`só ${rows[0]!.n} de ${triggering} inscritos gravados`);
    await sleep(100);
  }
  const momentum = await client.api('POST', '/momentum/create', {
    domain_uuid: domain.uuid,
    type: 'momentum',
    momentum_title: 'Oferta vista',
    status: 'Active',
    momentums: [
      everyone,
      {
        type: 'trigger',
        regex: false,
        values: [{ filter: 'pageview', comparation: 'contain', value: ['/oferta'], dischargeIn: [] }],
      },
      pushBlock('Oferta vista'),
    ],
  });

  // Warm-up at the same rate, no triggering views (JIT, pools, the collector's first persons).
  const warmStarted = performance.now();
  const warm: Promise<unknown>[] = [];
  for (let w = 0; w < WARMUP_SECONDS * RATE; ) {
    const due = Math.floor(((performance.now() - warmStarted) / 1000) * RATE);
    for (; w < due && w < WARMUP_SECONDS * RATE; w++)
      warm.push(collect(`anon-w${w % 5000}`, [{ t: 'pv', u: `${root}/categoria/${w % 50}` }]));
    await sleep(5);
  }
  await Promise.all(warm);

  const answeredAt = new Map<string, number>();
  const sentOffset = new Map<string, number>();
  const endpointOf = new Map(subscribers.map((s) => [s.sub.endpoint, s.vid]));
  const before = push.received.length;
  const collectMs: number[] = [];
  let non202 = 0;
  let errors = 0;
  const pending: Promise<void>[] = [];
  const cpu0 = server.cpu();
  const pg0 = postgresCpuSeconds();
  const started = performance.now();
  let sent = 0;
  // Open loop: requests leave at RATE per second whatever the answers do.
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
    for (; sent < due; sent++) {
      const i = sent;
      const isTrigger = i % TRIGGER_EVERY === 0;
      const vid = isTrigger
        ? subscribers[i / TRIGGER_EVERY]!.vid
        : i % 3 === 0
          ? `lat-${(i * 7919) % triggering}`
          : `anon-${(i * 104729) % 20_000}`;
      const url = isTrigger ? `${root}/oferta/${i}` : `${root}/produto/${i % 997}`;
      if (isTrigger) sentOffset.set(vid, (performance.now() - started) / 1000);
      pending.push(
        collect(vid, [{ t: 'pv', u: url }]).then((r) => {
          if (r.status === 0) errors++;
          else if (r.status !== 202) non202++;
          collectMs.push(r.ms);
          if (isTrigger && r.status === 202) answeredAt.set(vid, r.at);
        }),
      );
    }
    await sleep(5);
  }
  await Promise.all(pending);
  const seconds = (performance.now() - started) / 1000;
  const cpu1 = server.cpu();
  const pg1 = postgresCpuSeconds();
  const expected = answeredAt.size;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const got = new Set(
      push.received
        .slice(before)
        .filter((r) => endpointOf.has(r.endpoint))
        .map((r) => r.endpoint),
    );
    if (got.size >= expected) break;
    await sleep(200);
  }
  const latencies: number[] = [];
  const byWindow = new Map<number, number[]>();
  const seen = new Set<string>();
  for (const r of push.received.slice(before)) {
    const vid = endpointOf.get(r.endpoint);
    if (!vid || seen.has(vid)) continue;
    seen.add(vid);
    const at = answeredAt.get(vid);
    if (at === undefined) continue;
    latencies.push(r.at.getTime() - at);
    const w = Math.floor((sentOffset.get(vid) ?? 0) / WINDOW_SECONDS);
    byWindow.set(w, [...(byWindow.get(w) ?? []), r.at.getTime() - at]);
  }
  const windows = [...byWindow]
    .sort(([a], [b]) => a - b)
    .map(([w, list]) => {
      list.sort((a, b) => a - b);
      return { from: w * WINDOW_SECONDS, n: list.length, p50: percentile(list, 50), p95: percentile(list, 95) };
    });
  latencies.sort((a, b) => a - b);
  collectMs.sort((a, b) => a - b);
  // Where the time went, from the database's own stamps: event time → delivery row (ingest + match),
  // delivery row → recorded as sent (claim + encrypt + post + record).
  const { rows } = await db.query<{ n: number; match50: number; match95: number; send50: number; send95: number }>(
    `SELECT count(*)::int AS n,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM created_at - trigger_at)) * 1000 AS match50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM created_at - trigger_at)) * 1000 AS match95,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - created_at)) * 1000 AS send50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - created_at)) * 1000 AS send95
     FROM deliveries WHERE momentum_uuid = $1`,
    [momentum.uuid],
  );
  agent.destroy();
  return {
    seconds,
    requests: sent,
    eventsPerSecond: sent / seconds,
    non202,
    errors,
    triggering: expected,
    received: latencies.length,
    missing: expected - latencies.length,
    latencies: {
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? Number.NaN,
    },
    collectP50: percentile(collectMs, 50),
    collectP99: percentile(collectMs, 99),
    windows,
    deliveries: Number(rows[0]!.n),
    stages: {
      match50: Number(rows[0]!.match50),
      match95: Number(rows[0]!.match95),
      send50: Number(rows[0]!.send50),
      send95: Number(rows[0]!.send95),
    },
    serverCores: (cpu1 - cpu0) / seconds,
    postgresCores: (pg1 - pg0) / seconds,
  };
}

// ------------------------------------------------------------------ campaign

interface CampaignResult {
  persons: number;
  generateSeconds: number;
  firstPushSeconds: number;
  fanoutSeconds: number;
  lastPushSeconds: number;
  pushesPerSecond: number;
  received: number;
  refused: number;
  statuses: Record<string, number>;
  timeline: { s: number; deliveries: number; sent: number; received: number }[];
  serverCores: number;
  postgresCores: number;
  benchCores: number;
  profile: ProfileSummary | null;
}

async function campaign(
  client: ReturnType<typeof apiClient>,
  companyUuid: string,
  push: PushService,
  server: Server,
  db: pg.Client,
): Promise<CampaignResult> {
  const domain = await client.api('POST', '/domain/create', {
    domain: { company_uuid: companyUuid, name: 'Bench campanha', domain: 'https://bench-campanha.example.com.br' },
  });
  const generated = performance.now();
  // Distinct endpoints (each registered in the push service), one shared key pair: count-only never decrypts.
  const first = push.newSubscription().subscription;
  const prefix = `${push.origin}/push/`;
  const ids = [first.endpoint.slice(prefix.length)];
  for (let i = 1; i < CAMPAIGN; i++) ids.push(push.newSubscription().subscription.endpoint.slice(prefix.length));
  await db.query(
    `INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes, push_subscription, push_status)
     SELECT gen_random_uuid(), $1::uuid, 'camp-' || n, '{}'::jsonb,
            jsonb_build_object('endpoint', $2::text || id, 'keys', $3::jsonb), 'subscribed'
     FROM unnest($4::text[]) WITH ORDINALITY AS u(id, n)`,
    [domain.uuid, prefix, JSON.stringify(first.keys), ids],
  );
  await db.query('ANALYZE persons');
  const generateSeconds = (performance.now() - generated) / 1000;

  const before = push.received.length;
  const refusedBefore = push.refused.length;
  const timeline: CampaignResult['timeline'] = [];
  const cpu0 = server.cpu();
  const pg0 = postgresCpuSeconds();
  const own0 = process.cpuUsage();
  const started = performance.now();
  const momentum = await client.api('POST', '/momentum/create', {
    domain_uuid: domain.uuid,
    type: 'campaign',
    momentum_title: 'Campanha bench',
    status: 'Active',
    momentums: [everyone, pushBlock('Campanha bench')],
  });
  let firstPushSeconds = Number.NaN;
  let fanoutSeconds = Number.NaN;
  const sampler = (async () => {
    while (push.received.length - before < CAMPAIGN) {
      const s = (performance.now() - started) / 1000;
      if (s > 300) break;
      const { rows } = await db.query<{ n: number; sent: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'sent')::int AS sent FROM deliveries
         WHERE momentum_uuid = $1`,
        [momentum.uuid],
      );
      const deliveries = Number(rows[0]!.n);
      if (Number.isNaN(fanoutSeconds) && deliveries >= CAMPAIGN) fanoutSeconds = s;
      timeline.push({ s, deliveries, sent: Number(rows[0]!.sent), received: push.received.length - before });
      // Each sample scans the campaign's rows on the PostgreSQL being measured: every second until the fan-out is
      // done (its time is a figure), then every 5 s (the timeline), so the bench takes little of the 2 cores.
      const until = performance.now() + (Number.isNaN(fanoutSeconds) ? 1000 : 5000);
      while (performance.now() < until && push.received.length - before < CAMPAIGN) await sleep(100);
    }
  })();
  push
    .waitFor(before + 1, 300_000)
    .then(() => {
      firstPushSeconds = (performance.now() - started) / 1000;
    })
    .catch(() => {});
  await push.waitFor(before + CAMPAIGN, 300_000).catch((err) => console.error(`  ${(err as Error).message}`));
  const lastPushSeconds = (performance.now() - started) / 1000;
  const cpu1 = server.cpu();
  const pg1 = postgresCpuSeconds();
  const own = process.cpuUsage(own0);
  await sampler;
  await sleep(1000);
  const { rows } = await db.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM deliveries WHERE momentum_uuid = $1 GROUP BY status`,
    [momentum.uuid],
  );
  const received = push.received.length - before;
  if (rows.some((r) => r.status !== 'sent')) {
    // A run that did not deliver everything says why (the deliveries' recorded errors).
    const why = await db.query<{ status: string; error: string | null; n: number }>(
      `SELECT status, error, count(*)::int AS n FROM deliveries WHERE momentum_uuid = $1 AND status <> 'sent'
       GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 5`,
      [momentum.uuid],
    );
    for (const r of why.rows) console.error(`  ${r.n} ${r.status}: ${r.error ?? '(sem erro)'}`);
  }
  return {
    persons: CAMPAIGN,
    generateSeconds,
    firstPushSeconds,
    fanoutSeconds,
    lastPushSeconds,
    pushesPerSecond: received / lastPushSeconds,
    received,
    refused: push.refused.length - refusedBefore,
    statuses: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])),
    timeline,
    serverCores: (cpu1 - cpu0) / lastPushSeconds,
    postgresCores: (pg1 - pg0) / lastPushSeconds,
    benchCores: (own.user + own.system) / 1e6 / lastPushSeconds,
    profile: null,
  };
}

// ------------------------------------------------------------------ e-mail and SMS campaigns

interface MessageResult {
  channel: 'AWS_SES' | 'ZENVIA';
  persons: number;
  generateSeconds: number;
  firstSeconds: number;
  fanoutSeconds: number;
  lastSeconds: number;
  perSecond: number;
  received: number;
  /** Messages that reached the peer twice for one delivery (the at-least-once window). */
  duplicates: number;
  statuses: Record<string, number>;
  /** HTTP requests the provider's peer answered (SES: SendBulkEmail calls of up to 50 e-mails, plus lone sends). */
  calls: number;
  serverCores: number;
  postgresCores: number;
  benchCores: number;
}

async function messageCampaign(
  client: ReturnType<typeof apiClient>,
  companyUuid: string,
  channel: 'AWS_SES' | 'ZENVIA',
  peers: { ses: SesPeer; zenvia: ZenviaPeer },
  server: Server,
  db: pg.Client,
): Promise<MessageResult> {
  const tag = channel === 'AWS_SES' ? 'email' : 'sms';
  const domain = await client.api('POST', '/domain/create', {
    domain: { company_uuid: companyUuid, name: `Bench ${tag}`, domain: `https://bench-${tag}.example.com.br` },
  });
  await client.api('POST', '/channel/create', {
    channel:
      channel === 'AWS_SES'
        ? {
            domain_uuid: domain.uuid,
            channel_type: 'AWS_SES',
            properties: { ...SES_KEYS, region: 'sa-east-1', source: 'ofertas@bench.example.com.br' },
          }
        : {
            domain_uuid: domain.uuid,
            channel_type: 'ZENVIA',
            properties: { login: 'bench', password: 'bench-zenvia', sender: 'Bench' },
          },
  });
  const generated = performance.now();
  await db.query(
    `INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes, email, phone)
     SELECT gen_random_uuid(), $1::uuid, '${tag}-' || n, '{}'::jsonb,
            'cliente' || n || '@bench.example.com.br', '119' || lpad(n::text, 8, '0')
     FROM generate_series(1, $2::int) AS n`,
    [domain.uuid, MESSAGES],
  );
  await db.query('ANALYZE persons');
  const generateSeconds = (performance.now() - generated) / 1000;
  const count = () => (channel === 'AWS_SES' ? peers.ses.received.length : peers.zenvia.received.length);
  const before = count();
  const calls = () => (channel === 'AWS_SES' ? peers.ses.requestCount() : peers.zenvia.requestCount());
  const callsBefore = calls();
  const cpu0 = server.cpu();
  const pg0 = postgresCpuSeconds();
  const own0 = process.cpuUsage();
  const started = performance.now();
  const momentum = await client.api('POST', '/momentum/create', {
    domain_uuid: domain.uuid,
    type: 'campaign',
    momentum_title: `Campanha bench ${tag}`,
    status: 'Active',
    momentums: [
      everyone,
      {
        type: 'dispatcher',
        values: [
          channel === 'AWS_SES'
            ? {
                filter: 'AWS_SES',
                subject: 'Ofertas da semana',
                body: '<h1>Olá!</h1><p>Frete grátis em <b>todo o site</b> até domingo.</p><a href="https://bench.example.com.br/ofertas">Ver ofertas</a>',
              }
            : {
                filter: 'ZENVIA',
                body: 'Bench: frete gratis ate domingo em todo o site. Responda SAIR para nao receber.',
              },
        ],
      },
    ],
  });
  let firstSeconds = Number.NaN;
  let fanoutSeconds = Number.NaN;
  for (;;) {
    const s = (performance.now() - started) / 1000;
    const got = count() - before;
    if (got > 0 && Number.isNaN(firstSeconds)) firstSeconds = s;
    if (Number.isNaN(fanoutSeconds)) {
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM deliveries WHERE momentum_uuid = $1',
        [momentum.uuid],
      );
      if (Number(rows[0]!.n) >= MESSAGES) fanoutSeconds = s;
    }
    if (got >= MESSAGES || s > 300) break;
    await sleep(200);
  }
  const lastSeconds = (performance.now() - started) / 1000;
  const cpu1 = server.cpu();
  const pg1 = postgresCpuSeconds();
  const own = process.cpuUsage(own0);
  await sleep(1000);
  const { rows } = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM deliveries WHERE momentum_uuid = $1 GROUP BY status',
    [momentum.uuid],
  );
  const ids =
    channel === 'AWS_SES'
      ? peers.ses.received.slice(before).map((e) => e.tags.delivery)
      : peers.zenvia.received.slice(before).map((m) => m.id);
  const received = count() - before;
  return {
    channel,
    persons: MESSAGES,
    generateSeconds,
    firstSeconds,
    fanoutSeconds,
    lastSeconds,
    perSecond: received / lastSeconds,
    received,
    duplicates: ids.length - new Set(ids).size,
    statuses: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])),
    calls: calls() - callsBefore,
    serverCores: (cpu1 - cpu0) / lastSeconds,
    postgresCores: (pg1 - pg0) / lastSeconds,
    benchCores: (own.user + own.system) / 1e6 / lastSeconds,
  };
}

// ------------------------------------------------------------------ report

/**
 * How fast this box is at what a push costs most: Node's P-256 ECDH (one per push, RFC 8291) and a whole aes128gcm
 * encryption, in µs each (the median of five rounds, before anything else runs). Figures from boxes of one "kind"
 * differed by about 2.5× per core (65 µs vs 127–170 µs for the ECDH), and the campaign is bound by CPU: compare runs through these.
 */
function calibrate() {
  const ua = createECDH('prime256v1');
  const uaPublic = ua.generateKeys();
  const p256dh = uaPublic.toString('base64url');
  const auth = randomBytes(16).toString('base64url');
  const plain = Buffer.from(
    JSON.stringify({ title: 'Oferta relâmpago', body: 'Só hoje.', delivery_id: 'x'.repeat(36) }),
  );
  const mine = createECDH('prime256v1');
  mine.generateKeys();
  const median = (fn: () => void, n: number) => {
    const rounds: number[] = [];
    for (let r = 0; r < 5; r++) {
      const t = performance.now();
      for (let i = 0; i < n; i++) fn();
      rounds.push(((performance.now() - t) * 1000) / n);
    }
    return rounds.sort((a, b) => a - b)[2]!;
  };
  return {
    ecdhUs: median(() => mine.computeSecret(uaPublic), 1000),
    encryptUs: median(() => aes128gcm.encrypt(p256dh, auth, plain), 1000),
  };
}
type Calibration = ReturnType<typeof calibrate>;
const calibrationLine = (c: Calibration) =>
  `- Box speed (before the run, one core): P-256 ECDH ${f0(c.ecdhUs)} µs, aes128gcm encryption of a push ${f0(c.encryptUs)} µs (2026-11-24's box: 65 µs and 128 µs)`;

const START = '<!-- engine:start (written by npm run bench:engine) -->';
const END = '<!-- engine:end -->';
const MESSAGES_START = '<!-- engine-messages:start (written by npm run bench:engine) -->';
const TIMING_START = '<!-- engine-timing:start (written by npm run bench:engine) -->';
const TIMING_END = '<!-- engine-timing:end -->';
const MESSAGES_END = '<!-- engine-messages:end -->';

function report(
  meta: { pgVersion: string; seconds: number; load: number[]; calibration: Calibration },
  lat: LatencyResult | null,
  camp: CampaignResult | null,
) {
  const lines: string[] = [];
  lines.push(
    `- Date: ${new Date().toISOString().slice(0, 10)}; command \`npm run bench:engine\`; whole run ${f0(meta.seconds)} s`,
    `- Machine: \`nproc\` = ${os.availableParallelism()}; node ${process.version}; ${meta.pgVersion}`,
    `- Load average at the start: ${meta.load.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min; above ~2 means other work shared the 2 cores)`,
    calibrationLine(meta.calibration),
    `- Engine settings (\`ENGINE_BATCH_SIZE\`, \`ENGINE_CONCURRENCY\`, \`PUSH_ENCRYPT_THREADS\`${['ENGINE_BATCH_SIZE', 'ENGINE_CONCURRENCY', 'PUSH_ENCRYPT_THREADS'].some((k) => process.env[k]) ? '' : ': defaults'}): claim batch ${ENGINE.batchSize} deliveries, ${ENGINE.passes} overlapping send passes of ${ENGINE.concurrency} sends in flight, aes128gcm encryption in ${ENGINE.encryptThreads} worker thread(s), fan-out pages of ${ENGINE.fanoutPage} persons, one HTTP/2 connection per push service (${ENGINE.pushSockets} HTTP/1.1 keep-alive sockets for a service without h2); ${WORKERS > 0 ? `one \`ROLE=api\` process and ${WORKERS} \`ROLE=worker\` processes` : 'one server process, `ROLE=all`'}; the push service (https with h2, VAPID verified, count-only) and the load generator share the bench's process`,
    '',
    '| target | measured | verdict |',
    '| --- | --- | --- |',
  );
  if (lat)
    lines.push(
      `| trigger → push p95 ≤ ${LATENCY_TARGET_MS} ms (PostgreSQL) | p95 ${f0(lat.latencies.p95)} ms over ${f0(lat.received)} pushes | ${lat.latencies.p95 <= LATENCY_TARGET_MS && lat.missing === 0 ? '**met**' : '**missed**'} |`,
    );
  if (camp)
    lines.push(
      `| ${f0(camp.persons)}-person campaign ≤ ${CAMPAIGN_TARGET_S} s (PostgreSQL) | ${f1(camp.lastPushSeconds)} s to the last push (${f0(camp.pushesPerSecond)} pushes/s) | ${camp.received >= camp.persons && camp.lastPushSeconds <= CAMPAIGN_TARGET_S ? '**met**' : '**missed**'} |`,
    );
  if (lat) {
    lines.push(
      '',
      '### Trigger → push latency',
      '',
      `Open loop, after a ${WARMUP_SECONDS} s warm-up at the same rate without triggering views: ${f0(lat.requests)} single page views to \`POST /collect\` in ${f1(lat.seconds)} s (${f0(lat.eventsPerSecond)} events/s), one in ${TRIGGER_EVERY} a view of \`/oferta/…\` by a distinct subscriber (the momentum sends once per person), the rest product pages of subscribers and anonymous visitors. Latency = arrival at the push service − the moment the triggering collect request was answered (202), matched by the subscriber's endpoint.`,
      '',
      '| triggering views | pushes | missing | p50 ms | p95 ms | p99 ms | max ms | collect p50 / p99 ms | non-202 | deliveries | server CPU | PostgreSQL CPU |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      `| ${f0(lat.triggering)} | ${f0(lat.received)} | ${f0(lat.missing)} | ${f0(lat.latencies.p50)} | ${f0(lat.latencies.p95)} | ${f0(lat.latencies.p99)} | ${f0(lat.latencies.max)} | ${f1(lat.collectP50)} / ${f1(lat.collectP99)} | ${f0(lat.non202 + lat.errors)} | ${f0(lat.deliveries)} | ${lat.serverCores.toFixed(2)} | ${lat.postgresCores.toFixed(2)} |`,
      '',
      `Stages, from the deliveries' own stamps: page view → delivery row (collector queue, batch write, matching) p50 ${f0(lat.stages.match50)} / p95 ${f0(lat.stages.match95)} ms; delivery row → recorded as sent (wake, claim, encrypt, post, record) p50 ${f0(lat.stages.send50)} / p95 ${f0(lat.stages.send95)} ms.`,
      '',
      `By ${WINDOW_SECONDS}-s window of the triggering view: ${lat.windows.map((w) => `${w.from}–${w.from + WINDOW_SECONDS} s p50 ${f0(w.p50)} / p95 ${f0(w.p95)} ms (${w.n})`).join('; ')}.`,
    );
  }
  if (camp) {
    lines.push(
      '',
      '### Campaign throughput',
      '',
      `${f0(camp.persons)} subscribed persons generated with SQL (${f1(camp.generateSeconds)} s, not timed), an Active campaign created through the API; times from the create request.`,
      '',
      '| persons | first push s | fan-out done s | last push s | pushes/s | received | refused | deliveries | server CPU | PostgreSQL CPU | bench CPU |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
      `| ${f0(camp.persons)} | ${f1(camp.firstPushSeconds)} | ${f1(camp.fanoutSeconds)} | ${f1(camp.lastPushSeconds)} | ${f0(camp.pushesPerSecond)} | ${f0(camp.received)} | ${f0(camp.refused)} | ${Object.entries(
        camp.statuses,
      )
        .map(([k, v]) => `${k} ${f0(v)}`)
        .join(
          ', ',
        )} | ${camp.serverCores.toFixed(2)} | ${camp.postgresCores.toFixed(2)} | ${camp.benchCores.toFixed(2)} |`,
      '',
      `CPU columns are cores used on average over the run (1.00 = one core busy all the time); PostgreSQL's counts every postgres process on the box. Timeline (every ~5 s): ${camp.timeline
        .filter(everyFiveSeconds())
        .map((p) => `${f0(p.s)} s: ${f0(p.deliveries)} deliveries / ${f0(p.sent)} sent / ${f0(p.received)} received`)
        .join('; ')}.`,
    );
    if (camp.profile) {
      const p = camp.profile;
      lines.push(
        '',
        `Server CPU profile (\`PROFILE=1\`, node --cpu-prof over the whole server run): ${f1(p.busyMs / 1000)} s busy of ${f1(p.totalMs / 1000)} s; self time by category:`,
        '',
        '| category | CPU s | share of busy |',
        '| --- | ---: | ---: |',
        ...p.categories.slice(0, 12).map((c) => `| ${c.name} | ${f1(c.ms / 1000)} | ${(c.share * 100).toFixed(1)} % |`),
        '',
        `Top functions (self): ${p.topFunctions
          .slice(0, 10)
          .map((fn) => `\`${fn.name}\` ${f1(fn.ms / 1000)} s`)
          .join('; ')}.`,
      );
    }
  }
  return lines.join('\n');
}

const waitingOf = (m: MessageResult) => (m.statuses.queued ?? 0) + (m.statuses.sending ?? 0);

/** A filter keeping a timeline's first sample, then each one at least 4.5 s after the last kept (the samples are ~1 s
 *  apart during the fan-out, 5 s after it). */
function everyFiveSeconds() {
  let kept = Number.NEGATIVE_INFINITY;
  return (p: { s: number }) => {
    if (p.s - kept < 4.5) return false;
    kept = p.s;
    return true;
  };
}

/** The e-mail and SMS phases: their own section, so a run of only these keeps the push figures. */
function reportMessages(
  meta: { pgVersion: string; seconds: number; load: number[]; calibration: Calibration },
  messages: MessageResult[],
) {
  const lines: string[] = [
    `- Date: ${new Date().toISOString().slice(0, 10)}; command \`PHASES=${PHASES.join(',')} MESSAGES=${MESSAGES} npm run bench:engine\`; whole run ${f0(meta.seconds)} s`,
    `- Machine: \`nproc\` = ${os.availableParallelism()}; node ${process.version}; ${meta.pgVersion}`,
    `- Load average at the start: ${meta.load.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min; above ~2 means other work shared the 2 cores)`,
    calibrationLine(meta.calibration),
    '',
    '| target | measured | verdict |',
    '| --- | --- | --- |',
  ];
  for (const m of messages)
    lines.push(
      `| ${f0(m.persons)} ${m.channel === 'AWS_SES' ? 'e-mails through the local SES peer' : 'SMS through the local Zenvia peer'} ≤ ${MESSAGES_TARGET_S} s (PostgreSQL), zero lost | ${f1(m.lastSeconds)} s ${waitingOf(m) ? `when the bench stopped waiting, ${f0(waitingOf(m))} still queued or sending` : 'to the last message'} (${f0(m.perSecond)}/s), ${f0(Math.max(0, m.persons - (m.received - m.duplicates) - waitingOf(m)))} lost, ${f0(m.duplicates)} duplicates | ${m.received - m.duplicates >= m.persons && m.lastSeconds <= MESSAGES_TARGET_S ? '**met**' : '**missed**'} |`,
    );
  lines.push(
    '',
    '### E-mail and SMS campaigns',
    '',
    "Persons with an e-mail address and a mobile phone generated with SQL (not timed), the channel integrated through the API, an Active campaign created through the API; times from the create request. The SES peer verifies the SigV4 signature of every request and parses SESv2 SendEmail and SendBulkEmail (the adapter gathers a campaign's e-mails into bulk calls of up to 50, each with its own unsubscribe link, headers and tag); the Zenvia peer checks HTTP Basic and the body, and refuses a repeated id. Both run in the bench's process.",
    '',
    '| channel | persons | first s | fan-out done s | last s | messages/s | received | duplicates | deliveries | provider calls | server CPU | PostgreSQL CPU | bench CPU |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |',
    ...messages.map(
      (m) =>
        `| ${m.channel} | ${f0(m.persons)} | ${f1(m.firstSeconds)} | ${f1(m.fanoutSeconds)} | ${f1(m.lastSeconds)} | ${f0(m.perSecond)} | ${f0(m.received)} | ${f0(m.duplicates)} | ${Object.entries(
          m.statuses,
        )
          .map(([k, v]) => `${k} ${f0(v)}`)
          .join(
            ', ',
          )} | ${f0(m.calls)} | ${m.serverCores.toFixed(2)} | ${m.postgresCores.toFixed(2)} | ${m.benchCores.toFixed(2)} |`,
    ),
  );
  return lines.join('\n');
}

function writeResults(section: string, start = START, end = END, title = 'Engine') {
  if (!RESULTS) return;
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const block = `${start}\n${section}\n${end}`;
  const next =
    current.includes(start) && current.includes(end)
      ? current.slice(0, current.indexOf(start)) + block + current.slice(current.indexOf(end) + end.length)
      : `${current.trimEnd()}\n\n## ${title}\n\n${block}\n`;
  writeFileSync(RESULTS, next);
}

async function main() {
  const started = performance.now();
  const load = os.loadavg();
  const calibration = calibrate();
  console.log(calibrationLine(calibration).slice(2));
  const name = `impeto_bench_engine_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const pgVersion = `PostgreSQL ${(await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]!.server_version}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const databaseUrl = withDatabase(PG_URL, name);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'impeto-bench-engine-'));
  const push = await startPushService({ decrypt: 'count-only' });
  const ses = await startSesPeer({ credentials: { [SES_KEYS.accessKeyId]: SES_KEYS.secretAccessKey } });
  const zenvia = await startZenviaPeer({ accounts: { bench: 'bench-zenvia' } });
  // The server reaches the providers' local peers (startServer passes the environment on).
  process.env.AWS_SES_ENDPOINT = ses.url;
  process.env.ZENVIA_API_URL = zenvia.url;
  const messages: MessageResult[] = [];
  let server: Server | undefined;
  const db = new pg.Client({ connectionString: databaseUrl });
  let lat: LatencyResult | null = null;
  let camp: CampaignResult | null = null;
  let local: LocalTimeResult | null = null;
  let throttled: ThrottleResult | null = null;
  try {
    console.log(`bench:engine — database ${name}; phases ${PHASES.join(', ')}`);
    server = await startServer(databaseUrl, tmp, PROFILE);
    await db.connect();
    const client = apiClient(server.base);
    const companyUuid = await client.signIn();
    if (PHASES.includes('latency')) {
      process.stdout.write(`  latency: ${RATE} events/s for ${LATENCY_SECONDS} s … `);
      lat = await latency(server.base, client, companyUuid, push, server, db);
      console.log(
        `p50 ${f0(lat.latencies.p50)} ms, p95 ${f0(lat.latencies.p95)} ms, p99 ${f0(lat.latencies.p99)} ms over ${lat.received} pushes (${lat.missing} missing)`,
      );
    }
    if (PHASES.includes('campaign') && CAMPAIGN > 0) {
      process.stdout.write(`  campaign: ${f0(CAMPAIGN)} persons … `);
      camp = await campaign(client, companyUuid, push, server, db);
      console.log(
        `last push at ${f1(camp.lastPushSeconds)} s (${f0(camp.pushesPerSecond)}/s; fan-out done ${f1(camp.fanoutSeconds)} s; first push ${f1(camp.firstPushSeconds)} s)`,
      );
    }
    for (const [phase, channel] of [
      ['email', 'AWS_SES'],
      ['sms', 'ZENVIA'],
    ] as const) {
      if (!PHASES.includes(phase) || MESSAGES <= 0) continue;
      process.stdout.write(`  ${phase}: ${f0(MESSAGES)} persons … `);
      const m = await messageCampaign(client, companyUuid, channel, { ses, zenvia }, server, db);
      messages.push(m);
      console.log(
        `last message at ${f1(m.lastSeconds)} s (${f0(m.perSecond)}/s; ${f0(m.received)} received, ${f0(m.duplicates)} duplicates)`,
      );
    }
    // Issue #27's phases, only when named (bench/engine-timing.ts).
    const timingDb = {
      query: <R>(text: string, values?: unknown[]) => db.query(text, values) as never as Promise<{ rows: R[] }>,
    };
    if (PHASES.includes('localtime') && LOCAL_PERSONS > 0) {
      process.stdout.write(`  localtime: ${f0(LOCAL_PERSONS)} persons … `);
      local = await localTimePlan(client.api, companyUuid, timingDb, push);
      console.log(`planned in ${f1(local.planSeconds)} s (${f0(local.rows)} rows)`);
    }
    if (PHASES.includes('journey') && JOURNEY_PERSONS > 0) {
      process.stdout.write(`  journey: ${f0(JOURNEY_PERSONS)} persons advance one step … `);
      const j = await journeyAdvance(client.api, companyUuid, timingDb, push);
      console.log(
        `last push at ${f1(j.lastPushSeconds)} s (${f0(j.perSecond)}/s; first push ${f1(j.firstPushSeconds)} s; ` +
          `every position advanced by ${f1(j.advancedSeconds)} s; ` +
          `${f0(j.received)} received; step 1 ${JSON.stringify(j.statuses)}; positions ${JSON.stringify(j.positions)})` +
          (camp ? `; the campaign phase: ${f0(camp.pushesPerSecond)}/s` : ''),
      );
    }
    if (PHASES.includes('throttle') && THROTTLE_PERSONS > 0) {
      process.stdout.write(`  throttle: ${f0(THROTTLE_PERSONS)} persons at ${f0(THROTTLE_RATE)}/min … `);
      throttled = await throttleRate(client.api, companyUuid, timingDb, push);
      console.log(`${f0(throttled.perMinute)} per minute (${f0(throttled.received)} pushes)`);
    }
  } finally {
    await db.end().catch(() => {});
    await server?.stop();
    const profileDir = server?.profileDir;
    if (camp && profileDir) {
      const files = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
      if (files.length) camp.profile = mergeProfiles(files.map((f) => summariseProfile(path.join(profileDir, f))));
      const keep = process.env.KEEP_PROFILES;
      if (keep) for (const f of files) copyFileSync(path.join(profileDir, f), path.join(keep, f));
    }
    await push.close();
    await ses.close();
    await zenvia.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(tmp, { recursive: true, force: true });
  }
  const meta = { pgVersion, seconds: (performance.now() - started) / 1000, load, calibration };
  if (lat || camp) {
    const section = report(meta, lat, camp);
    console.log(`\n${section}\n`);
    if (camp?.profile)
      for (const fn of camp.profile.topFunctions) console.log(`  ${f1(fn.ms / 1000).padStart(6)} s  ${fn.name}`);
    writeResults(section);
  }
  if (messages.length) {
    const section = reportMessages(meta, messages);
    console.log(`\n${section}\n`);
    writeResults(section, MESSAGES_START, MESSAGES_END, 'Engine: e-mail and SMS');
  }
  if (local || throttled) {
    const section = reportTiming({ ...meta, date: new Date().toISOString().slice(0, 10) }, local, throttled);
    console.log(`\n${section}\n`);
    writeResults(section, TIMING_START, TIMING_END, 'Engine: timing (issue #27)');
  }
  if (RESULTS) console.log(`written to ${path.relative(root, RESULTS)}`);
}

await main();
