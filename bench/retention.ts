/**
 * `npm run bench:retention`: does the retention purge slow the collector? The real app on PostgreSQL (the server
 * child of bench:collect) takes the collector load of bench:collect (batches of 20 page views, 32 keep-alive
 * connections) twice: alone, then while the retention purge (in the server process, as under ROLE=all) removes a
 * backlog of old events: by default the backlog fills a month's partition of two years ago, which the purge drops
 * whole (events are partitioned by month); with MONTH=0 it sits in the default partition and is deleted in
 * statements of RETENTION_BATCH_ROWS rows with its pause (the row-level purge a short retention still needs).
 * Reports throughput, latency, accepted = stored and the purge's own pace (the collector runs alone first and last,
 * to bracket warm-up and machine noise); writes them into bench/RESULTS.md between the retention markers.
 * Env: DB (postgres), BACKLOG (500000 events), MONTH (1), DURATION_MS (20000), CONNECTIONS (32), PAUSES ("200": the
 * pause in ms of each purged run, e.g. "200,0").
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RETENTION_BATCH_ROWS } from '../apps/server/src/modules/persons/retention.ts';
import { buildRequest, percentile, runLoad } from './load.ts';

const here = import.meta.dirname;
const DB = process.env.DB === 'pglite' ? 'pglite' : 'postgres';
const BACKLOG = Number(process.env.BACKLOG ?? 500_000);
const DURATION_MS = Number(process.env.DURATION_MS ?? 20_000);
const WARMUP_MS = 2000;
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const PAUSES = (process.env.PAUSES ?? '200').split(',').map(Number);
const MONTH = process.env.MONTH !== '0';
const RESULTS = path.join(here, 'RESULTS.md');
const ORIGIN = 'https://bench.example.com.br';
const UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

interface Message {
  type: string;
  [key: string]: unknown;
}

function startServer() {
  const child: ChildProcess = fork(path.join(here, 'collect-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DB },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<string, (m: Message) => void>();
  child.on('message', (m: Message) => {
    if (m.type === 'error') console.error(m.message);
    waiting.get(m.type)?.(m);
    waiting.delete(m.type);
  });
  const ask = (message: object | null, reply: string) =>
    new Promise<Message>((resolve) => {
      waiting.set(reply, resolve);
      if (message) child.send(message);
    });
  return { child, ask };
}

function requests(geroId: string, port: number) {
  const now = Date.now();
  return Array.from({ length: 10_000 }, (_, i) => {
    const e = Array.from({ length: 20 }, (_, k) => ({
      t: 'pv',
      u: `${ORIGIN}/produto/${(i * 31 + k * 7) % 5000}`,
      ts: now + k,
    }));
    return buildRequest(
      '/collect',
      JSON.stringify({ id: geroId, vid: `ret-${i}`, v: '1.0.0', l: 'pt-BR', e }),
      { 'content-type': 'text/plain;charset=UTF-8', origin: ORIGIN, 'user-agent': UA },
      `127.0.0.1:${port}`,
    );
  });
}

interface Row {
  run: string;
  eps: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non202: number;
  accepted: number;
  stored: number;
  purge: string;
}

async function main() {
  const server = startServer();
  const ready = await server.ask(null, 'ready');
  const port = ready.port as number;
  const reqs = requests(ready.geroId as string, port);
  const rows: Row[] = [];
  let storedBefore = 0;

  const measure = async (run: string, purge?: { pauseMs: number }) => {
    let purgeLine = '—';
    let purging: Promise<Message> | undefined;
    if (purge) {
      process.stdout.write(`  ${run}: backlog of ${BACKLOG.toLocaleString('en-US')} old events … `);
      const backlog = await server.ask({ type: 'backlog', events: BACKLOG, month: MONTH }, 'backlog');
      process.stdout.write(`${((backlog.ms as number) / 1000).toFixed(1)} s; `);
    }
    process.stdout.write(`  ${run}: warm-up … `);
    const warm = await runLoad({
      port,
      connections: CONNECTIONS,
      requests: reqs,
      eventsPerRequest: 20,
      durationMs: WARMUP_MS,
    });
    if (purge)
      purging = server.ask({ type: 'purge', batchRows: RETENTION_BATCH_ROWS, pauseMs: purge.pauseMs }, 'purged');
    process.stdout.write('measuring … ');
    const r = await runLoad({
      port,
      connections: CONNECTIONS,
      requests: reqs,
      eventsPerRequest: 20,
      durationMs: DURATION_MS,
    });
    const stats = await server.ask({ type: 'stats' }, 'stats');
    if (purging) {
      const p = await purging;
      const secs = (p.ms as number) / 1000;
      const months = p.droppedMonths as string[];
      purgeLine =
        `${months.length ? `dropped ${months.join(', ')}; ` : ''}` +
        `${(p.deleted as number).toLocaleString('en-US')} rows deleted in ${p.statements} statements, ${secs.toFixed(1)} s, pause ${purge?.pauseMs} ms`;
    }
    const sorted = Float64Array.from(r.latenciesMs).sort();
    const stored = (stats.stored as number) - storedBefore;
    storedBefore = stats.stored as number;
    const secs = r.durationMs / 1000;
    rows.push({
      run,
      eps: r.accepted / secs,
      rps: r.requests / secs,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      non202: warm.non202 + r.non202,
      accepted: warm.accepted + r.accepted,
      stored,
      purge: purgeLine,
    });
    console.log('done');
  };

  try {
    await measure('collector alone');
    for (const pauseMs of PAUSES) await measure(`with purge (pause ${pauseMs} ms)`, { pauseMs });
    // Alone once more: the first run also pays the server's warm-up (JIT, pools, caches).
    await measure('collector alone, again');
  } finally {
    await server.ask({ type: 'stop' }, 'stopped');
  }

  const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
  const head = ['run', 'events/s', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-202', 'accepted', 'stored', 'purge'];
  const body = rows.map((r) => [
    r.run,
    f0(r.eps),
    f0(r.rps),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    r.max.toFixed(1),
    String(r.non202),
    f0(r.accepted),
    f0(r.stored),
    r.purge,
  ]);
  const table = [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...body.map((c) => `| ${c.join(' | ')} |`),
  ];
  console.log(table.join('\n'));

  const cpu = os.cpus();
  const section = [
    '<!-- retention:start -->',
    '## Retention purge vs. the collector (`npm run bench:retention`)',
    '',
    `${new Date().toISOString().slice(0, 10)}, ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}, ${DB}, Node ${process.version}; ` +
      `${CONNECTIONS} connections, requests of 20 page views, ${DURATION_MS / 1000} s measured after a 2 s warm-up; ` +
      `backlog of ${BACKLOG.toLocaleString('en-US')} events past the domain's retention, ` +
      (MONTH
        ? "in a month's partition of two years ago that the purge drops whole"
        : `in the default partition, purged in statements of ${RETENTION_BATCH_ROWS.toLocaleString('en-US')} rows`) +
      ' by the server process while the load runs.',
    '',
    ...table,
    '<!-- retention:end -->',
  ].join('\n');
  const current = readFileSync(RESULTS, 'utf8');
  const start = current.indexOf('<!-- retention:start -->');
  const end = current.indexOf('<!-- retention:end -->');
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${section}${current.slice(end + '<!-- retention:end -->'.length)}`
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(RESULTS, next);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
