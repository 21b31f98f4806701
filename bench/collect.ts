/**
 * `npm run bench:collect`: the collector's throughput, latency and loss, then peopleImpacted on a large base.
 *
 * For each target (bare Fastify ceiling, the real app on PGlite, the real app on PostgreSQL) a server child
 * (bench/collect-server.ts) is started and this process loads it over keep-alive sockets (bench/load.ts):
 *   single  one `pv` per request, 10,000 distinct visitors
 *   batch   20 `pv` per request (one visitor per request), 10,000 distinct visitors
 * each after a warm-up; then the ingestor is drained and the events it stored are compared with the events
 * the answers accepted (warm-up included). Then bench/people-impacted.ts runs in its own child.
 *
 * Env: TARGETS=bare,pglite,postgres  DURATION_MS=10000  WARMUP_MS=2000  CONNECTIONS=32
 *      PEOPLE=1 (0 skips peopleImpacted)  PERSONS=1000000  PGLITE_PERSONS=200000 (0 skips the PGlite figure)
 *      TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)  RESULTS=bench/RESULTS.md
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildRequest, percentile, runLoad } from './load.ts';
import type { PeopleResult } from './people-impacted.ts';

const here = import.meta.dirname;
const TARGETS = (process.env.TARGETS ?? 'bare,pglite,postgres').split(',').map((s) => s.trim()) as Target[];
const DURATION_MS = Number(process.env.DURATION_MS ?? 10_000);
const WARMUP_MS = Number(process.env.WARMUP_MS ?? 2_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const PEOPLE = process.env.PEOPLE !== '0';
const PERSONS = Number(process.env.PERSONS ?? 1_000_000);
const PGLITE_PERSONS = Number(process.env.PGLITE_PERSONS ?? 200_000);
const FILTER_BUDGET_MS = Number(process.env.FILTER_BUDGET_MS ?? 10_000);
/** PGlite's peopleImpacted figure is optional: skipped when the run is already past this. */
const PGLITE_PEOPLE_AFTER_MS = 4 * 60_000;
const RESULTS = path.resolve(process.env.RESULTS ?? path.join(here, 'RESULTS.md'));
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DRAIN_TIMEOUT_MS = 180_000;
const VISITORS = 10_000;
const BATCH = 20;
const ORIGIN = 'https://bench.example.com.br';

/** Real, non-bot browsers (isbot counts HeadlessChrome as a bot; these pass). */
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'Mozilla/5.0 (Linux; Android 14; SM-A546E) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
];
const PAGES = ['/', '/produto/', '/categoria/tenis', '/categoria/bolsas', '/blog/post-', '/carrinho'];
const pageUrl = (n: number) => {
  const p = PAGES[n % PAGES.length]!;
  return `${ORIGIN}${p.endsWith('-') || p.endsWith('/produto/') ? `${p}${n % 997}` : p}`;
};

type Target = 'bare' | 'pglite' | 'postgres';
type Scenario = 'single' | 'batch';

interface Row {
  target: Target;
  scenario: Scenario;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  eps: number;
  p50: number;
  p99: number;
  max: number;
  non202: number;
  statuses: Record<string, number>;
  errors: number;
  accepted: number;
  stored: number | null;
  drainMs: number;
  drained: boolean;
  serverRssMb: number;
  /** CPU used during the measured window, in cores (1 = one core busy all the time). */
  serverCores: number;
  loadgenCores: number;
}

function buildRequests(geroId: string, port: number, scenario: Scenario) {
  const host = `127.0.0.1:${port}`;
  const now = Date.now();
  const out: Buffer[] = [];
  for (let i = 0; i < VISITORS; i++) {
    const vid = `bench-${i.toString(36).padStart(4, '0')}-${(i * 2654435761) % 100000}`;
    const n = scenario === 'single' ? 1 : BATCH;
    const e = Array.from({ length: n }, (_, k) => ({
      t: 'pv',
      u: pageUrl(i * 31 + k * 7),
      ...(k === 0 && i % 3 === 0 ? { r: 'https://www.google.com/' } : {}),
      ts: now + k,
    }));
    const body = JSON.stringify({ id: geroId, vid, v: '1.0.0', l: 'pt-BR', e });
    out.push(
      buildRequest(
        '/collect',
        body,
        {
          'content-type': 'text/plain;charset=UTF-8',
          origin: ORIGIN,
          'user-agent': USER_AGENTS[i % USER_AGENTS.length]!,
          'accept-language': 'pt-BR,pt;q=0.9,en;q=0.8',
        },
        host,
      ),
    );
  }
  return out;
}

/** What the children send over IPC (collect-server.ts, people-impacted.ts). */
interface ChildMessage {
  type: string;
  message?: string;
  port?: number;
  geroId?: string;
  geoMs?: number;
  stored?: number;
  drainMs?: number;
  rssMb?: number;
  cpuMs?: number;
  result?: PeopleResult;
}

interface ChildHandle {
  child: ChildProcess;
  request(message: object, reply: string, timeoutMs?: number): Promise<ChildMessage | null>;
}

function startChild(
  script: string,
  env: Record<string, string>,
): Promise<{ handle: ChildHandle; ready: ChildMessage | null }> {
  const child = fork(path.join(here, script), [], {
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : []),
    ],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiters = new Map<string, (m: ChildMessage | null) => void>();
  child.on('message', (m: ChildMessage) => {
    if (m?.type === 'error') console.error(`[${script}] ${m.message}`);
    const w = waiters.get(m?.type) ?? (m?.type === 'error' ? [...waiters.values()][0] : undefined);
    if (w) {
      waiters.clear();
      w(m?.type === 'error' ? null : m);
    }
  });
  child.on('exit', () => {
    for (const w of waiters.values()) w(null);
    waiters.clear();
  });
  const request = (message: object, reply: string, timeoutMs = 60_000) =>
    new Promise<ChildMessage | null>((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(reply);
        resolve(null);
      }, timeoutMs);
      waiters.set(reply, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      if (Object.keys(message).length) child.send(message);
    });
  const handle = { child, request };
  return request({}, script.includes('server') ? 'ready' : 'result', 30 * 60_000).then((ready) => ({
    handle,
    ready,
  }));
}

async function stopChild(h: ChildHandle) {
  if (h.child.exitCode !== null) return;
  const stopped = await h.request({ type: 'stop' }, 'stopped', 30_000);
  if (!stopped && h.child.exitCode === null) h.child.kill('SIGKILL');
}

async function benchTarget(target: Target): Promise<Row[]> {
  const env: Record<string, string> = target === 'bare' ? { MODE: 'bare' } : { DB: target };
  const { handle, ready } = await startChild('collect-server.ts', env);
  if (!ready?.port || !ready.geroId) throw new Error(`servidor ${target} não iniciou`);
  const { port, geroId } = ready;
  if (ready.geoMs)
    console.log(`  ${target.padEnd(8)} geo tables loaded at start-up in ${(ready.geoMs / 1000).toFixed(1)} s`);
  const rows: Row[] = [];
  let storedBefore = 0;
  try {
    for (const scenario of (process.env.SCENARIOS ?? 'single,batch').split(',') as Scenario[]) {
      const requests = buildRequests(geroId, port, scenario);
      const eventsPerRequest = scenario === 'single' ? 1 : BATCH;
      const base = { port, connections: CONNECTIONS, requests, eventsPerRequest };
      process.stdout.write(`  ${target.padEnd(8)} ${scenario.padEnd(6)} warm-up ${WARMUP_MS / 1000}s … `);
      const warm = await runLoad({ ...base, durationMs: WARMUP_MS });
      process.stdout.write(`measuring ${DURATION_MS / 1000}s … `);
      const cpuBefore = (await handle.request({ type: 'cpu' }, 'cpu'))?.cpuMs ?? Number.NaN;
      const ownBefore = process.cpuUsage();
      const r = await runLoad({ ...base, durationMs: DURATION_MS });
      const own = process.cpuUsage(ownBefore);
      const cpuAfter = (await handle.request({ type: 'cpu' }, 'cpu'))?.cpuMs ?? Number.NaN;
      process.stdout.write('draining … ');
      const reply = await handle.request({ type: 'stats' }, 'stats', DRAIN_TIMEOUT_MS);
      const stats = reply ? { stored: reply.stored ?? 0, drainMs: reply.drainMs ?? 0, rssMb: reply.rssMb ?? 0 } : null;
      console.log(stats ? `${(stats.drainMs / 1000).toFixed(1)}s` : 'timed out');
      const sorted = Float64Array.from(r.latenciesMs).sort();
      const accepted = warm.accepted + r.accepted;
      const stored = stats ? stats.stored - storedBefore : null;
      if (stats) storedBefore = stats.stored;
      const secs = r.durationMs / 1000;
      const statuses = { ...warm.statuses };
      for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
      rows.push({
        target,
        scenario,
        connections: CONNECTIONS,
        seconds: secs,
        requests: r.requests,
        rps: r.requests / secs,
        eps: r.accepted / secs,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? Number.NaN,
        non202: warm.non202 + r.non202,
        statuses,
        errors: warm.errors + r.errors,
        accepted,
        stored,
        drainMs: stats?.drainMs ?? DRAIN_TIMEOUT_MS,
        drained: Boolean(stats),
        serverRssMb: stats?.rssMb ?? Number.NaN,
        serverCores: (cpuAfter - cpuBefore) / r.durationMs,
        loadgenCores: (own.user + own.system) / 1000 / r.durationMs,
      });
    }
  } finally {
    await stopChild(handle);
  }
  return rows;
}

async function benchPeople(db: 'postgres' | 'pglite', persons: number): Promise<PeopleResult | null> {
  console.log(`  peopleImpacted on ${persons.toLocaleString('en-US')} persons (${db}) …`);
  const { handle, ready } = await startChild('people-impacted.ts', {
    DB: db,
    PERSONS: String(persons),
    FILTER_BUDGET_MS: String(FILTER_BUDGET_MS),
  });
  if (handle.child.exitCode === null) handle.child.kill('SIGTERM');
  return ready?.result ?? null;
}

// ------------------------------------------------------------------ report

const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');

function table(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function markdown(head: string[], rows: string[][]) {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i < 2 ? ' --- ' : ' ---: ')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

const COLLECT_HEAD = [
  'target',
  'scenario',
  'conns',
  'req/s',
  'events/s',
  'p50 ms',
  'p99 ms',
  'max ms',
  'non-202',
  'accepted',
  'stored',
  'lost',
  'drain s',
  'server CPU',
  'loadgen CPU',
  'server RSS MB',
];
const collectCells = (r: Row) => [
  r.target,
  r.scenario === 'single' ? 'single pv' : `batch ${BATCH} pv`,
  String(r.connections),
  f0(r.rps),
  f0(r.eps),
  f1(r.p50),
  f1(r.p99),
  f1(r.max),
  f0(r.non202 + r.errors),
  f0(r.accepted),
  r.stored === null ? 'drain timed out' : f0(r.stored),
  r.stored === null ? '?' : f0(r.accepted - r.stored),
  f1(r.drainMs / 1000),
  r.serverCores.toFixed(2),
  r.loadgenCores.toFixed(2),
  f0(r.serverRssMb),
];

const PEOPLE_HEAD = ['database', 'persons', 'filter', 'median ms', 'runs ms', 'impacted', '%', 'exact %', 'sampled'];
const peopleCells = (p: PeopleResult) =>
  p.filters.map((f) => [
    p.db,
    f0(p.persons),
    f.name,
    f0(f.medianMs),
    f.runsMs.map((x) => f0(x)).join(' / '),
    f0(f.impacted),
    f1(f.percent),
    f1(f.exactPercent),
    f.estimated ? 'yes' : 'no',
  ]);

async function machine() {
  let pgVersion = 'unavailable';
  try {
    const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
    await c.connect();
    pgVersion = (await c.query<{ v: string }>('SELECT version() AS v')).rows[0]!.v;
    await c.end();
  } catch {}
  let free = '';
  try {
    free = execFileSync('free', ['-g'], { encoding: 'utf8' }).trimEnd();
  } catch {}
  let pglite = '';
  try {
    const pkg = path.resolve(here, '../node_modules/@electric-sql/pglite/package.json');
    pglite = JSON.parse(readFileSync(pkg, 'utf8')).version;
  } catch {}
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? '',
    free,
    node: process.version,
    pgVersion,
    pglite,
  };
}

const READING_MARK =
  '<!-- Everything below this line is written by hand and kept when the bench rewrites the file. -->';

function verdicts(rows: Row[], people: (PeopleResult | null)[]) {
  const pgRows = rows.filter((r) => r.target === 'postgres');
  const batch = pgRows.find((r) => r.scenario === 'batch');
  const single = pgRows.find((r) => r.scenario === 'single');
  const real = rows.filter((r) => r.target !== 'bare');
  const pgPeople = people.find((p) => p?.db === 'postgres');
  const yes = (ok: boolean | undefined) => (ok === undefined ? 'not measured' : ok ? '**met**' : '**missed**');
  /** Events stored per second over warm-up + measure + drain: what the database really kept up with. */
  const sustained = (r: Row) =>
    r.stored === null ? Number.NaN : r.stored / ((WARMUP_MS + r.seconds * 1000 + r.drainMs) / 1000);
  const lossOf = (r: Row) => (r.stored === null ? Number.NaN : r.accepted - r.stored);
  const lossText = real
    .map((r) => `${r.target} ${r.scenario}: ${r.stored === null ? 'drain timed out' : `${f0(lossOf(r))} lost`}`)
    .join('; ');
  const slowest = pgPeople ? Math.max(...pgPeople.filters.map((f) => f.medianMs)) : undefined;
  return [
    `| target (issue) | measured | verdict |`,
    `| --- | --- | --- |`,
    `| ≥ 30,000 events/s batched (PostgreSQL) | ${batch ? `${f0(batch.eps)} events/s accepted; ${batch.stored === null ? 'drain timed out' : `${f0(sustained(batch))} events/s stored (sustained, drain included)`}` : '—'} | ${yes(batch ? batch.eps >= 30_000 && sustained(batch) >= 30_000 : undefined)} |`,
    `| ≥ 5,000 single page views/s at p99 ≤ 50 ms (PostgreSQL) | ${single ? `${f0(single.rps)} req/s, p99 ${f1(single.p99)} ms; ${f0(sustained(single))} events/s stored (sustained)` : '—'} | ${yes(single ? single.rps >= 5000 && single.p99 <= 50 && sustained(single) >= 5000 : undefined)} |`,
    `| zero loss (accepted = stored after drain) | ${lossText || '—'} | ${yes(real.length ? real.every((r) => lossOf(r) === 0) : undefined)} |`,
    `| peopleImpacted ≤ 300 ms on 1M persons (PostgreSQL) | ${pgPeople ? `slowest filter median ${f0(slowest!)} ms (${pgPeople.filters.filter((f) => f.medianMs > 300).length} of ${pgPeople.filters.length} filters over 300 ms)` : '—'} | ${yes(pgPeople && pgPeople.persons >= 1_000_000 ? slowest! <= 300 : undefined)} |`,
  ].join('\n');
}

async function main() {
  const started = Date.now();
  const loadBefore = os.loadavg();
  console.log(
    `bench:collect — ${TARGETS.join(', ')}; ${CONNECTIONS} connections, ${WARMUP_MS / 1000}s warm-up + ${DURATION_MS / 1000}s per scenario`,
  );
  const rows: Row[] = [];
  for (const target of TARGETS) {
    try {
      rows.push(...(await benchTarget(target)));
    } catch (err) {
      console.error(`  ${target}: ${(err as Error).message}`);
    }
  }

  const people: (PeopleResult | null)[] = [];
  let pgliteSkipped = false;
  if (PEOPLE) {
    people.push(await benchPeople('postgres', PERSONS));
    if (PGLITE_PERSONS > 0 && Date.now() - started < PGLITE_PEOPLE_AFTER_MS)
      people.push(await benchPeople('pglite', PGLITE_PERSONS));
    else if (PGLITE_PERSONS > 0) {
      pgliteSkipped = true;
      console.log('  peopleImpacted on PGlite skipped: the run is already past 4 minutes');
    }
  }
  const totalS = (Date.now() - started) / 1000;
  const loadAfter = os.loadavg();
  const loadText = `load average ${loadBefore.map((x) => x.toFixed(2)).join(' / ')} (1/5/15 min) at the start, ${loadAfter.map((x) => x.toFixed(2)).join(' / ')} at the end`;

  console.log(`\nCollector (${os.availableParallelism()} cores; load generator and server in separate processes)\n`);
  console.log(table(COLLECT_HEAD, rows.map(collectCells)));
  const done = people.filter((p): p is PeopleResult => p !== null);
  if (done.length) {
    console.log('\npeopleImpacted (real service + compileFilter; median of the timed runs)\n');
    console.log(table(PEOPLE_HEAD, done.flatMap(peopleCells)));
  }
  console.log(`\n${verdicts(rows, people)}`);
  console.log(`\ntotal ${totalS.toFixed(0)} s; ${loadText}`);

  const m = await machine();
  const kept = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8').split(READING_MARK)[1] : undefined;
  const today = new Date().toISOString().slice(0, 10);
  const md = `# Benchmark results

Written by \`npm run bench:collect\` (bench/collect.ts); the section after the marker at the end is kept across runs.

- Date: ${today}
- Command: \`npm run bench:collect\`${
    Object.keys(process.env).some((k) =>
      [
        'TARGETS',
        'DURATION_MS',
        'WARMUP_MS',
        'CONNECTIONS',
        'PERSONS',
        'PGLITE_PERSONS',
        'PEOPLE',
        'FILTER_BUDGET_MS',
      ].includes(k),
    )
      ? ` (with ${[
          'TARGETS',
          'DURATION_MS',
          'WARMUP_MS',
          'CONNECTIONS',
          'PERSONS',
          'PGLITE_PERSONS',
          'PEOPLE',
          'FILTER_BUDGET_MS',
          'COLLECT_SPOOL',
        ]
          .filter((k) => process.env[k])
          .map((k) => `${k}=${process.env[k]}`)
          .join(' ')})`
      : ''
  }; whole run ${totalS.toFixed(0)} s
- Machine: \`nproc\` = ${m.nproc} (${m.cpu}); node ${m.node}; ${m.pgVersion.split(' on ')[0]}; PGlite ${m.pglite}
- Other load on the box: ${loadText} (the bench's own processes included; anything above ~2 means other work shared the 2 cores)
- \`free -g\`:

\`\`\`
${m.free}
\`\`\`

## Targets (from the issue)

${verdicts(rows, people)}

Throughput targets apply to PostgreSQL; PGlite figures are reported, not targeted (DESIGN.md §11).

## Collector: POST /collect

${CONNECTIONS} keep-alive connections, closed loop (each sends its next request when the answer arrives), ${WARMUP_MS / 1000} s warm-up then
${DURATION_MS / 1000} s measured, per scenario. Requests rotate over ${VISITORS.toLocaleString('en-US')} distinct visitor ids and ${USER_AGENTS.length} real browser user agents, with
\`Origin: ${ORIGIN}\` (the domain root). *single pv*: one \`pv\` per request; *batch ${BATCH} pv*: ${BATCH} \`pv\` of one
visitor per request. req/s, events/s (accepted) and latencies cover the measured window only; *accepted* (sum of
the answers' \`accepted\`) and *stored* (\`app.ingestor.stored()\` after \`drain()\`) include the warm-up; *drain s* is
how long the drain took after the load stopped, i.e. the backlog the ingestor still held. *server CPU* and
*loadgen CPU* are the cores each Node process used during the measured window (1.00 = one core all the time;
PostgreSQL's own processes are not in either). *bare* is a Fastify app
with only a text/plain JSON parser and a 202: the ceiling of this box with this load generator (it stores nothing).
The real app runs with the collector's spool ${process.env.COLLECT_SPOOL === 'off' ? '**off** (`COLLECT_SPOOL=off`: accepted events wait in memory only)' : 'on (the default: each accepted request is appended to a file before the 202)'}.

${markdown(COLLECT_HEAD, rows.map(collectCells))}

${done.length ? `## peopleImpacted\n\nThe real \`peopleImpacted\` (persons.service.ts, the filter compiled by \`compileFilter\`) on generated persons\n(\`INSERT … SELECT generate_series\`, seeded: browser, version, mobile, language, device, OS, country, region, city,\nASN, origin, 1–5 \`visited.url\`, \`createdAt\` over 2026), one domain, after \`ANALYZE\`. One untimed warm-up run,\nthen up to 5 timed runs (fewer when a filter has used its ${FILTER_BUDGET_MS / 1000} s budget); the median is reported.\n\n${markdown(PEOPLE_HEAD, done.flatMap(peopleCells))}\n\n${pgliteSkipped ? `- PGlite (${f0(PGLITE_PERSONS)} persons) skipped: the run was past 4 minutes; run it alone with \`DB=pglite PERSONS=${PGLITE_PERSONS} node --import tsx bench/people-impacted.ts\`.\n` : ''}${done.map((p) => `- ${p.db}: generated ${f0(p.persons)} persons in ${f1(p.generateMs / 1000)} s; persons table + indexes ${f0(p.tableMb)} MB; server ${p.version}`).join('\n')}\n` : ''}
${READING_MARK}${kept ?? '\n\n## Reading\n\n(to be written)\n'}`;
  writeFileSync(RESULTS, md);
  // `npm run lint` checks Markdown too: let Biome lay the tables out (best effort).
  try {
    execFileSync(path.resolve(here, '../node_modules/.bin/biome'), ['format', '--write', RESULTS], { stdio: 'ignore' });
  } catch {}
  console.log(`\nwrote ${path.relative(process.cwd(), RESULTS)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
