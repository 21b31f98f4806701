/**
 * `npm run bench:soak`: collector traffic at a steady rate for a long while on PostgreSQL, with a restart of
 * PostgreSQL in the middle; then every event the collector answered 202 for must be in the database.
 *
 * The database is a cluster of its own (never the shared one the tests use), restarted with pg_ctlcluster:
 *   pg_createcluster 15 soak --port 5433          (as root; set `trust` for local and 127.0.0.1 in its pg_hba.conf)
 *   pg_ctlcluster --skip-systemctl-redirect 15 soak start
 * The server is the real app (bench/collect-server.ts, ROLE=all, spool on) on a fresh database of that cluster;
 * this process paces the load (bench/load.ts) and asks the server for its stored count every second.
 *
 * Env: SOAK_SECONDS=600  SOAK_RATE=5000 (events/s)  SOAK_RESTART_AT (s, default half)  SOAK_CONNECTIONS=32
 *      SOAK_PG_CLUSTER=15/soak  SOAK_DATABASE_URL=postgres://postgres@127.0.0.1:5433/postgres
 *      SOAK_DRAIN_SECONDS=900  RESULTS=bench/RESULTS.md (0: print only)
 */
import { execFile, execFileSync, fork } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildRequest, percentile, runLoad } from './load.ts';

const here = import.meta.dirname;
const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const RATE = Number(process.env.SOAK_RATE ?? 5000);
const RESTART_AT = Number(process.env.SOAK_RESTART_AT ?? SECONDS / 2);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 32);
const CLUSTER = process.env.SOAK_PG_CLUSTER ?? '15/soak';
const DATABASE_URL = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5433/postgres';
const DRAIN_SECONDS = Number(process.env.SOAK_DRAIN_SECONDS ?? 900);
const RESULTS = process.env.RESULTS === '0' ? null : path.resolve(process.env.RESULTS ?? path.join(here, 'RESULTS.md'));
const ORIGIN = 'https://bench.example.com.br';
const VISITORS = 20_000;
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
];
const PAGES = ['/', '/produto/', '/categoria/tenis', '/categoria/bolsas', '/blog/post-', '/carrinho'];

const [clusterVersion, clusterName] = CLUSTER.split('/') as [string, string];
const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);

/** What a tag sends: half single page views, 30% five events (views and a cart event), 20% twenty page views. */
function buildRequests(geroId: string, port: number) {
  const host = `127.0.0.1:${port}`;
  const out: Buffer[] = [];
  let events = 0;
  for (let i = 0; i < VISITORS; i++) {
    const vid = `soak-${i.toString(36)}-${(i * 2654435761) % 100000}`;
    const kind = i % 10;
    const n = kind < 5 ? 1 : kind < 8 ? 5 : 20;
    const e = Array.from({ length: n }, (_, k) =>
      n === 5 && k === 4
        ? { t: 'ev', c: 'carrinho', p: { produto: `p-${i % 300}`, valor: (i % 50) * 10 } }
        : {
            t: 'pv',
            u: `${ORIGIN}${PAGES[(i + k) % PAGES.length]}${(i * 7 + k) % 500}`,
            ...(k === 0 && i % 3 === 0 ? { r: 'https://www.google.com/' } : {}),
            ti: 'Loja Soak',
          },
    );
    events += n;
    const body = JSON.stringify({ id: geroId, vid, v: '1.0.0', l: 'pt-BR', e });
    out.push(
      buildRequest(
        '/collect',
        body,
        { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'user-agent': USER_AGENTS[i % 4]! },
        host,
      ),
    );
  }
  return { requests: out, eventsPerRequest: events / VISITORS };
}

interface ServerMessage {
  type: string;
  message?: string;
  port?: number;
  geroId?: string;
  databaseUrl?: string;
  tmp?: string;
  stored?: number;
  quarantined?: number;
  outages?: { count: number; away: boolean; lastSeconds: number };
  drainMs?: number;
  rssMb?: number;
}

function startServer() {
  const child = fork(path.join(here, 'collect-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DB: 'postgres', TEST_DATABASE_URL: DATABASE_URL, LOG_LEVEL: 'warn', SERVER_PROCESSES: '1' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const log: string[] = [];
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) log.push(line);
  });
  const waiters = new Map<string, (m: ServerMessage | null) => void>();
  child.on('message', (m: ServerMessage) => {
    if (m?.type === 'error') console.error(`[servidor] ${m.message}`);
    const w = waiters.get(m?.type);
    if (w) {
      waiters.delete(m.type);
      w(m);
    }
  });
  child.on('exit', (code, signal) => {
    for (const w of waiters.values()) w(null);
    waiters.clear();
    if (code !== 0) console.error(`[servidor] saiu (${code ?? signal})`);
  });
  const ask = (type: string, reply: string, timeoutMs: number) =>
    new Promise<ServerMessage | null>((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(reply);
        resolve(null);
      }, timeoutMs);
      waiters.set(reply, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      if (type) child.send({ type });
    });
  return { child, log, ask };
}

const run = (file: string, args: string[]) =>
  new Promise<{ ok: boolean; out: string }>((resolve) =>
    execFile(file, args, { encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ ok: !err, out: `${stdout}${stderr}`.trim() }),
    ),
  );

/** The cluster we restart must be the one we write to: its port is the URL's. */
function checkCluster() {
  let listing: string;
  try {
    listing = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  } catch {
    throw new Error(
      'pg_lsclusters não encontrado: o soak precisa de um cluster próprio do PostgreSQL (veja bench/README.md).',
    );
  }
  const line = listing
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find(([v, name]) => v === clusterVersion && name === clusterName);
  if (!line)
    throw new Error(
      `cluster ${CLUSTER} não existe; crie-o (como root): pg_createcluster ${clusterVersion} ${clusterName} --port 5433, ` +
        `trust em /etc/postgresql/${CLUSTER}/pg_hba.conf, pg_ctlcluster --skip-systemctl-redirect ${clusterVersion} ${clusterName} start`,
    );
  const port = line[2];
  const urlPort = new URL(DATABASE_URL).port || '5432';
  if (port !== urlPort)
    throw new Error(`SOAK_DATABASE_URL aponta para a porta ${urlPort}, mas o cluster ${CLUSTER} está na ${port}`);
  if (line[3] !== 'online')
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', clusterVersion, clusterName, 'start']);
}

interface Second {
  t: number;
  accepted: number;
  requests: number;
  non202: number;
  stored: number;
  away: boolean;
  p99: number;
}

async function main() {
  checkCluster();
  const load = os.loadavg();
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const pgVersion = (await admin.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
  await admin.end();

  const server = startServer();
  const ready = await server.ask('', 'ready', 120_000);
  if (!ready?.port || !ready.databaseUrl) throw new Error('o servidor não ficou pronto');
  const { requests, eventsPerRequest } = buildRequests(ready.geroId!, ready.port);
  const requestRate = RATE / eventsPerRequest;
  console.log(
    `bench:soak — ${SECONDS} s at ${f0(RATE)} events/s (${f0(requestRate)} requests/s, ${f1(eventsPerRequest)} events each); ` +
      `restart of PostgreSQL ${CLUSTER} at ${RESTART_AT} s`,
  );

  // Per-second timeline: the answers of that second, and the server's stored count at its end.
  const started = performance.now();
  const timeline: Second[] = [];
  let current = { accepted: 0, requests: 0, non202: 0, latencies: [] as number[] };
  const statuses: Record<string, number> = {};
  let acceptedTotal = 0;
  const all: number[] = [];
  const onAnswer = (status: number, accepted: number, ms: number) => {
    current.requests++;
    current.accepted += accepted;
    acceptedTotal += accepted;
    if (status !== 202) current.non202++;
    statuses[status] = (statuses[status] ?? 0) + 1;
    current.latencies.push(ms);
    all.push(ms);
  };
  const ticker = setInterval(async () => {
    const c = current;
    current = { accepted: 0, requests: 0, non202: 0, latencies: [] };
    const p = await server.ask('progress', 'progress', 5000);
    const sorted = Float64Array.from(c.latencies).sort();
    timeline.push({
      t: (performance.now() - started) / 1000,
      accepted: acceptedTotal,
      requests: c.requests,
      non202: c.non202,
      stored: p?.stored ?? Number.NaN,
      away: p?.outages?.away ?? false,
      p99: percentile(sorted, 99),
    });
    const last = timeline.at(-1)!;
    if (timeline.length % 10 === 0)
      console.log(
        `${f0(last.t)} s: accepted ${f0(last.accepted)}, stored ${f0(last.stored)}, backlog ${f0(last.accepted - last.stored)}, ` +
          `${f0(c.requests)} req in the last second, p99 ${f1(last.p99)} ms${last.away ? ', banco fora' : ''}`,
      );
  }, 1000);

  let restart: { at: number; seconds: number; ok: boolean; out: string } | undefined;
  const restartTimer = setTimeout(async () => {
    const at = (performance.now() - started) / 1000;
    console.log(`${f1(at)} s: pg_ctlcluster ${clusterVersion} ${clusterName} restart`);
    const t0 = performance.now();
    const r = await run('pg_ctlcluster', ['--skip-systemctl-redirect', clusterVersion, clusterName, 'restart']);
    restart = { at, seconds: (performance.now() - t0) / 1000, ...r };
    console.log(`${f1((performance.now() - started) / 1000)} s: restart ${r.ok ? 'done' : `failed: ${r.out}`}`);
  }, RESTART_AT * 1000);

  const result = await runLoad({
    port: ready.port,
    connections: CONNECTIONS,
    requests,
    eventsPerRequest,
    durationMs: SECONDS * 1000,
    ratePerSecond: requestRate,
    onAnswer,
  });
  clearTimeout(restartTimer);
  const loadSeconds = result.durationMs / 1000;

  // Drain: everything accepted is written (the stats answer comes after the ingestor's drain).
  const drainStarted = performance.now();
  const stats = await server.ask('stats', 'stats', DRAIN_SECONDS * 1000);
  clearInterval(ticker);
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  const finalProgress = await server.ask('progress', 'progress', 5000);

  const db = new pg.Client({ connectionString: ready.databaseUrl });
  await db.connect();
  const inDatabase = Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM events')).rows[0]!.n);
  await db.end();
  const stopped = await server.ask('stop', 'stopped', 120_000);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
  if (!stopped) {
    // The server did not clean up in time: drop its scratch database here.
    const cleanup = new pg.Client({ connectionString: DATABASE_URL });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${new URL(ready.databaseUrl).pathname.slice(1)} WITH (FORCE)`);
    await cleanup.end();
    if (ready.tmp) rmSync(ready.tmp, { recursive: true, force: true });
  }
  const logFile = path.join(os.tmpdir(), `impeto-soak-${process.pid}.log`);
  writeFileSync(logFile, `${server.log.join('\n')}\n`);
  console.log(`server log (warn and above): ${logFile}`);

  // Recovery, from the timeline: the stored count stops growing while the database is away; after the restart the
  // backlog (accepted − stored) is worked off. "Recovered" = the backlog is back under two seconds of traffic.
  const before = timeline.filter((s) => restart && s.t < restart.at);
  const normalBacklog = Math.max(RATE * 2, ...before.slice(-30).map((s) => s.accepted - s.stored));
  const after = timeline.filter((s) => restart && s.t >= restart.at);
  const peak = after.reduce((m, s) => Math.max(m, s.accepted - s.stored), 0);
  const peakAt = after.find((s) => s.accepted - s.stored === peak);
  const recovered = after.find((s) => peakAt && s.t >= peakAt.t && s.accepted - s.stored <= normalBacklog);
  const stalled = after.filter((s, i) => i > 0 && s.stored === after[i - 1]!.stored).length;
  const restartWindow = after.filter((s) => s.t <= (recovered?.t ?? Number.POSITIVE_INFINITY));
  const sortedAll = Float64Array.from(all).sort();
  const windowMax = restartWindow.reduce((m, s) => Math.max(m, Number.isNaN(s.p99) ? 0 : s.p99), 0);

  const storeRate = (from: number, to: number) => {
    const w = timeline.filter((x) => x.t >= from && x.t <= to && !Number.isNaN(x.stored));
    return w.length > 1 ? (w.at(-1)!.stored - w[0]!.stored) / (w.at(-1)!.t - w[0]!.t) : Number.NaN;
  };
  const rs = restart;
  const rates = rs
    ? {
        before: storeRate(rs.at - 60, rs.at),
        after: storeRate(rs.at + rs.seconds, rs.at + rs.seconds + 60),
      }
    : undefined;
  // Storing stops while the database is away: the first second that stored nothing, then the first that did again.
  const stallIndex = after.findIndex((x, i) => i > 0 && x.stored === after[i - 1]!.stored);
  const firstStoreAfter =
    stallIndex > 0 ? after.find((x, i) => i > stallIndex && x.stored > after[i - 1]!.stored) : undefined;
  const stored = stats?.stored ?? Number.NaN;
  const figures = {
    date: new Date().toISOString().slice(0, 10),
    pgVersion,
    load,
    loadEnd: os.loadavg(),
    loadSeconds,
    requests: result.requests,
    requestRate: result.requests / loadSeconds,
    eventRate: acceptedTotal / loadSeconds,
    accepted: acceptedTotal,
    stored,
    inDatabase,
    quarantined: stats?.quarantined ?? finalProgress?.quarantined ?? 0,
    statuses,
    errors: result.errors,
    p50: percentile(sortedAll, 50),
    p99: percentile(sortedAll, 99),
    max: sortedAll.at(-1) ?? Number.NaN,
    windowMax,
    drainSeconds,
    restart,
    outages: finalProgress?.outages,
    peak,
    recoveredAfter: recovered && restart ? recovered.t - restart.at : undefined,
    rates,
    storingAgainAfter: firstStoreAfter && rs ? firstStoreAfter.t - rs.at : undefined,
    sustained: stored / (loadSeconds + drainSeconds),
    stalled,
    rssMb: stats?.rssMb,
    warnings: server.log.filter((l) => /"level":(40|50|60)/.test(l)),
  };
  const section = report(figures);
  console.log(`\n${section}\n`);
  writeResults(section);
  const ok = acceptedTotal === inDatabase && acceptedTotal === stored && (restart?.ok ?? false);
  console.log(ok ? 'soak: accepted = stored' : 'soak: FALHOU (aceitos ≠ gravados, ou o restart falhou)');
  process.exit(ok ? 0 : 1);
}

const START = '<!-- soak:start (written by npm run bench:soak) -->';
const END = '<!-- soak:end -->';

function report(r: {
  date: string;
  pgVersion: string;
  load: number[];
  loadEnd: number[];
  loadSeconds: number;
  requests: number;
  requestRate: number;
  eventRate: number;
  accepted: number;
  stored: number;
  inDatabase: number;
  quarantined: number;
  statuses: Record<string, number>;
  errors: number;
  p50: number;
  p99: number;
  max: number;
  windowMax: number;
  drainSeconds: number;
  restart?: { at: number; seconds: number; ok: boolean; out: string };
  outages?: { count: number; away: boolean; lastSeconds: number };
  peak: number;
  recoveredAfter?: number;
  rates?: { before: number; after: number };
  storingAgainAfter?: number;
  sustained: number;
  stalled: number;
  rssMb?: number;
  warnings: string[];
}) {
  const non202 = Object.entries(r.statuses)
    .filter(([s]) => s !== '202')
    .map(([s, n]) => `${s}: ${f0(n)}`);
  const messages = new Map<string, number>();
  for (const w of r.warnings) {
    const m = /"msg":"([^"]*)"/.exec(w)?.[1] ?? w.slice(0, 80);
    messages.set(m, (messages.get(m) ?? 0) + 1);
  }
  return [
    `- Date: ${r.date}; command \`npm run bench:soak\` (SOAK_SECONDS=${SECONDS}, SOAK_RATE=${RATE}, restart at ${RESTART_AT} s, ${CONNECTIONS} connections)`,
    `- Machine: \`nproc\` = ${os.availableParallelism()} (${os.cpus()[0]?.model ?? ''}); node ${process.version}; PostgreSQL ${r.pgVersion}, cluster \`${CLUSTER}\` of its own (restarted with \`pg_ctlcluster ${clusterVersion} ${clusterName} restart\`)`,
    `- Load average ${r.load.map((l) => l.toFixed(2)).join(' / ')} at the start, ${r.loadEnd.map((l) => l.toFixed(2)).join(' / ')} at the end (1/5/15 min; the server, PostgreSQL and this load generator share the box's cores with other work)`,
    '',
    '| accepted (202 answers) | stored (ingestor) | rows in `events` | lost | quarantined | rate achieved | requests | non-202 | socket errors |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |',
    `| ${f0(r.accepted)} | ${f0(r.stored)} | ${f0(r.inDatabase)} | ${f0(r.accepted - r.inDatabase)} | ${f0(r.quarantined)} | ${f0(r.eventRate)} events/s (${f0(r.requestRate)} req/s) over ${f0(r.loadSeconds)} s | ${f0(r.requests)} | ${non202.length ? non202.join(', ') : 'none'} | ${f0(r.errors)} |`,
    '',
    `- The restart: started at ${f1(r.restart?.at ?? Number.NaN)} s, \`pg_ctlcluster … restart\` took ${f1(r.restart?.seconds ?? Number.NaN)} s${r.restart?.ok ? '' : ` and FAILED: ${r.restart?.out}`}. The ingestor saw the database away ${r.outages?.count ?? 0} time(s), the last for ${f1(r.outages?.lastSeconds ?? 0)} s (first failed batch → first stored batch); ${r.stalled} one-second samples with nothing stored after the restart began.`,
    `- Storing: ${f0(r.rates?.before ?? Number.NaN)} events/s in the minute before the restart, ${f0(r.rates?.after ?? Number.NaN)} events/s in the minute after it ended; batches were stored again ${r.storingAgainAfter !== undefined ? `${f1(r.storingAgainAfter)} s after the restart began` : '(not seen)'}. Sustained over the whole run (stored ÷ (load + final drain)): ${f0(r.sustained)} events/s.`,
    `- Backlog (accepted − stored, held in memory up to \`COLLECT_MEMORY_EVENTS\` and in the spool past it) peaked at ${f0(r.peak)} events after the restart and was back under two seconds of traffic ${r.recoveredAfter !== undefined ? `${f1(r.recoveredAfter)} s after the restart began` : 'only after the load stopped'}; the final drain took ${f1(r.drainSeconds)} s.`,
    `- Collect latency over the whole run: p50 ${f1(r.p50)} ms, p99 ${f1(r.p99)} ms, max ${f0(r.max)} ms; worst one-second p99 between the restart and the recovery ${f1(r.windowMax)} ms. Server RSS at the end ${f0(r.rssMb ?? Number.NaN)} MB.`,
    `- Server log lines at warn or above: ${messages.size ? [...messages].map(([m, n]) => `${n} × "${m}"`).join('; ') : 'none'}.`,
  ].join('\n');
}

function writeResults(section: string) {
  if (!RESULTS) return;
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const block = `${START}\n${section}\n${END}`;
  const next =
    current.includes(START) && current.includes(END)
      ? current.slice(0, current.indexOf(START)) + block + current.slice(current.indexOf(END) + END.length)
      : `${current.trimEnd()}\n\n## Soak: collector through a PostgreSQL restart\n\n${block}\n`;
  writeFileSync(RESULTS, next);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
