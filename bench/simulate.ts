/**
 * `npm run bench:simulate`: the dry run of issue #28 (modules/simulate) on the analytics bench's history: one
 * domain with EVENTS events and PERSONS persons over DAYS days (bench/history.ts; PostgreSQL defaults 10,000,000 /
 * 1,000,000 / 90, `SIZE=small` 200,000 / 20,000), three other companies' domains with NOISE (0.1) of that each, a
 * frequency cap of 2 a day and 5 a week on the domain (so the cap reads the generated deliveries), and a push
 * subscription for the persons the generator marks subscribed. Then each
 * momentum below is simulated through the service for the last 1, 7 and 30 days (one warm-up, median of RUNS=3),
 * while the process's resident memory is sampled every 25 ms: the peak above the idle resident size (measured after
 * a GC, before each run) is what the simulation costs the server.
 *
 * Targets (issue #28, PostgreSQL, full size): 7 days ≤ 5 s, 30 days ≤ 20 s, memory ≤ 256 MB above idle.
 * Prints a table; at full size writes the Simulation section of bench/RESULTS.md between its markers (RESULTS=0:
 * don't; RESULTS=<file> writes there at any size). DBS=pglite (or postgres,pglite) runs it on PGlite too.
 * KEEP=1 (PostgreSQL) leaves the generated database in place and prints its name; REUSE=<that name> runs the cases on
 * it without generating again (the 10M-event history takes about ten minutes to generate). ONLY=<a|b> runs the cases
 * whose names contain any of those words.
 */

import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SimulateMomentumBody } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client.ts';
import type { Principal } from '../apps/server/src/lib/auth-guard.ts';
import type { AppContext } from '../apps/server/src/lib/context.ts';
import { simulate } from '../apps/server/src/modules/simulate/simulate.service.ts';
import { addDomain, fmt, generate, type Kind, log, openDatabase, SITE } from './history.ts';

const root = path.resolve(import.meta.dirname, '..');
const SMALL = process.env.SIZE === 'small';
const RESULTS_ENV = process.env.RESULTS;
const RESULTS =
  RESULTS_ENV === '0' || (SMALL && !RESULTS_ENV)
    ? null
    : path.resolve(RESULTS_ENV ?? path.join(root, 'bench/RESULTS.md'));
const START = '<!-- simulate:start (written by npm run bench:simulate) -->';
const END = '<!-- simulate:end -->';
const RUNS = Number(process.env.RUNS ?? 3);
const DAYS = Number(process.env.DAYS ?? 90);
const NOISE = Number(process.env.NOISE ?? 0.1);
const RANGES = (process.env.RANGES ?? '1,7,30').split(',').map(Number);
const TARGET_MS: Record<number, number> = { 7: 5_000, 30: 20_000 };
const TARGET_MB = 256;
const KEEP = process.env.KEEP === '1';

const sizes = (kind: Kind) => ({
  events: Number(process.env.EVENTS ?? (SMALL ? 200_000 : kind === 'postgres' ? 10_000_000 : 1_000_000)),
  persons: Number(process.env.PERSONS ?? (SMALL ? 20_000 : kind === 'postgres' ? 1_000_000 : 100_000)),
});

const trigger = (values: Record<string, unknown>) => ({
  type: 'trigger',
  regex: false,
  values: [{ dischargeIn: [], ...values }],
});
const everyone = { type: 'filter', values: [{ filter: 'all' }] };
const push = {
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_NOTIFICATION',
      name: 'Bench',
      title: 'Oferta',
      message: 'Só hoje.',
      icon_uri: `${SITE}/icone.png`,
      redirect_uri: `${SITE}/ofertas`,
    },
  ],
};
const onsite = (repeats: number[] = []) => ({
  type: 'dispatcher',
  values: [
    {
      filter: 'SUPERARE_WEBVIEW',
      webview_type: 'topbar',
      webview_mode: 'devices_all',
      webview_props: { topbarContent: 'Frete grátis', topbarBtnText: 'Ver' },
      ...(repeats.length ? { intervalRecurrency: repeats } : {}),
    },
  ],
});
const email = {
  type: 'dispatcher',
  values: [{ filter: 'AWS_SES', subject: 'Novidades da semana', body: '<p>Olá!</p>' }],
};
const worktime = { weekdays: [1, 2, 3, 4, 5], start_at: '09:00', stop_at: '18:00' };

/** The momentums simulated: every trigger kind, broad and narrow, with and without repeats, worktime and the cap. */
const CASES: { name: string; body: Record<string, unknown> }[] = [
  {
    name: 'page view, one product (push)',
    body: {
      type: 'momentum',
      momentums: [everyone, trigger({ filter: 'pageview', comparation: 'contain', value: ['/produto/7'] }), push],
    },
  },
  {
    name: 'page view, every product (on-site, worktime, repeats)',
    body: {
      type: 'momentum',
      worktime,
      momentums: [
        everyone,
        trigger({ filter: 'pageview', comparation: 'contain', value: ['/produto/'] }),
        onsite([86_400]),
      ],
    },
  },
  {
    name: 'event carrinho (push, 10 min delay)',
    body: {
      type: 'momentum',
      momentums: [everyone, trigger({ filter: 'events', parentCategory: 'carrinho', dischargeIn: [600] }), push],
    },
  },
  {
    name: 'abandon /carrinho (push, 30 min)',
    body: {
      type: 'momentum',
      momentums: [
        everyone,
        trigger({
          filter: 'abandon',
          comparation: 'contain',
          comparation2: 'contain',
          value: ['/carrinho'],
          value2: ['/obrigado'],
          dischargeIn: [1800],
        }),
        push,
      ],
    },
  },
  {
    name: 'daily recurrence 10:00 (push)',
    body: {
      type: 'momentum',
      momentums: [everyone, trigger({ filter: 'recurrence', comparation: 'daily', value: [], hours: '10:00' }), push],
    },
  },
  { name: 'campaign (e-mail)', body: { type: 'campaign', momentums: [everyone, email] } },
  {
    // Issue #26 in the simulation: every product viewer enters a journey whose steps read conversions and page views.
    name: 'journey: page view, every product (on-site → 1 d → push → 2 d → on-site)',
    body: {
      type: 'momentum',
      momentums: [everyone, trigger({ filter: 'pageview', comparation: 'contain', value: ['/produto/'] }), onsite()],
      steps: [
        { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [push.values[0]] },
        {
          wait: { amount: 2, unit: 'days' },
          condition: { kind: 'viewed_page', comparation: 'contain', value: ['/carrinho'] },
          values: [onsite().values[0]],
        },
      ],
    },
  },
  {
    // Issue #27 in the simulation: a momentum started by events under a throttle, replayed in time order.
    name: 'event carrinho, 100 per minute (push)',
    body: {
      type: 'momentum',
      throttle_per_minute: 100,
      momentums: [everyone, trigger({ filter: 'events', parentCategory: 'carrinho' }), push],
    },
  },
];

interface Row {
  kind: Kind;
  name: string;
  days: number;
  medianMs: number;
  peakMb: number;
  persons: number;
  messages: number;
  entered: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const mb = (bytes: number) => bytes / 1024 / 1024;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** Runs `fn` while sampling the resident set size; answers its time and the peak above the idle size before it. */
async function measured<T>(fn: () => Promise<T>) {
  gc();
  await new Promise((r) => setTimeout(r, 50));
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const t0 = performance.now();
  try {
    const value = await fn();
    const ms = performance.now() - t0;
    peak = Math.max(peak, process.memoryUsage().rss);
    return { value, ms, peakMb: mb(peak - idle) };
  } finally {
    clearInterval(timer);
  }
}

async function measure(kind: Kind): Promise<{ rows: Row[]; version: string; events: number; persons: number }> {
  const { events, persons } = sizes(kind);
  const reuse = kind === 'postgres' ? process.env.REUSE : undefined;
  log(
    `${kind}: ${fmt(events)} events, ${fmt(persons)} persons over ${DAYS} days (+ noise ${NOISE})${reuse ? `, reusing ${reuse}` : ''}`,
  );
  const { database, version, drop, name } = await openDatabase(kind, 'simulate', reuse);
  try {
    const db = database.db;
    let main: { companyUuid: string; domainUuid: string };
    if (reuse) {
      const [d] = await queryRows<{ uuid: string; company_uuid: string }>(
        db,
        sql`SELECT uuid, company_uuid FROM domains WHERE name = 'Loja Bench'`,
      );
      main = { companyUuid: d!.company_uuid, domainUuid: d!.uuid };
    } else {
      await database.migrate();
      main = await addDomain(db, 'Loja Bench');
      const t0 = performance.now();
      await generate(db, main, events, persons, DAYS);
      for (let i = 1; i <= 3; i++) {
        const other = await addDomain(db, `Ruído ${i}`);
        await generate(db, other, Math.floor(events * NOISE), Math.floor(persons * NOISE), DAYS);
      }
      await db.execute(
        sql`UPDATE domains SET frequency_cap_day = 2, frequency_cap_week = 5 WHERE uuid = ${main.domainUuid}::uuid`,
      );
      // The generator marks 15 % of persons subscribed without a subscription: give them one, so push reaches them.
      await db.execute(sql`
        UPDATE persons SET push_subscription = jsonb_build_object('endpoint', 'https://push.example.com/' || uuid,
          'keys', jsonb_build_object('p256dh', 'p', 'auth', 'a'))
        WHERE push_status = 'subscribed'`);
      await db.execute(sql`ANALYZE`);
      log(`  generated in ${((performance.now() - t0) / 1000).toFixed(0)} s${KEEP ? `; kept as ${name}` : ''}`);
    }
    const ctx = { db, database, clock: { now: () => new Date() } } as unknown as AppContext;
    const principal: Principal = {
      token: '',
      sessionId: '',
      userUuid: randomUUID(),
      companyUuid: main.companyUuid,
      username: 'bench',
      role: 'admin',
    };
    const rows: Row[] = [];
    const only = process.env.ONLY?.split('|');
    for (const c of CASES.filter((x) => !only || only.some((o) => x.name.includes(o)))) {
      for (const days of RANGES) {
        const input = {
          momentum: { domain_uuid: main.domainUuid, momentum_title: c.name, ...c.body },
          days,
        } as unknown as SimulateMomentumBody;
        const once = () => simulate(ctx, principal, input, new AbortController().signal);
        await once(); // warm-up: plans, caches
        const times: number[] = [];
        let peakMb = 0;
        let last: Awaited<ReturnType<typeof once>> | undefined;
        for (let r = 0; r < RUNS; r++) {
          const m = await measured(once);
          times.push(m.ms);
          peakMb = Math.max(peakMb, m.peakMb);
          last = m.value;
        }
        const row: Row = {
          kind,
          name: c.name,
          days,
          medianMs: median(times),
          peakMb,
          persons: last!.persons,
          messages: last!.messages,
          entered: last!.stages[0]!.entered,
        };
        rows.push(row);
        log(
          `  ${c.name}, ${days} d: ${row.medianMs.toFixed(0)} ms, +${row.peakMb.toFixed(0)} MB, ${fmt(row.persons)} persons, ${fmt(row.messages)} messages`,
        );
      }
    }
    const [count] = await queryRows<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM events`);
    log(`  events stored in all domains: ${fmt(Number(count!.n))}`);
    return { rows, version, events, persons };
  } finally {
    await database.close();
    if (!KEEP && !reuse) await drop();
  }
}

function report(runs: Awaited<ReturnType<typeof measure>>[]) {
  const lines: string[] = [];
  const date = new Date().toISOString().slice(0, 10);
  lines.push(
    `Run ${date} on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.version}${SMALL ? " (SIZE=small: not the targets' size)" : ''}.`,
  );
  for (const run of runs) {
    lines.push('');
    lines.push(
      `**${run.version}**: ${fmt(run.events)} events and ${fmt(run.persons)} persons over ${DAYS} days in the domain simulated (+ three domains with ${NOISE * 100} % of that). Median of ${RUNS} after a warm-up; memory is the peak resident size above the idle size before the run.`,
    );
    lines.push('');
    lines.push('| momentum | days | time | memory | planned | persons | messages | target |');
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const r of run.rows) {
      const target = TARGET_MS[r.days];
      const verdict =
        r.kind !== 'postgres' || !target || SMALL
          ? ''
          : r.medianMs <= target && r.peakMb <= TARGET_MB
            ? `ok (≤ ${target / 1000} s, ≤ ${TARGET_MB} MB)`
            : `**missed** (≤ ${target / 1000} s, ≤ ${TARGET_MB} MB)`;
      lines.push(
        `| ${r.name} | ${r.days} | ${(r.medianMs / 1000).toFixed(2)} s | +${r.peakMb.toFixed(0)} MB | ${fmt(r.entered)} | ${fmt(r.persons)} | ${fmt(r.messages)} | ${verdict} |`,
      );
    }
  }
  return lines.join('\n');
}

function writeResults(section: string) {
  if (!RESULTS) return;
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '';
  const block = `${START}\n\n${section}\n\n${END}`;
  const next =
    current.includes(START) && current.includes(END)
      ? current.slice(0, current.indexOf(START)) + block + current.slice(current.indexOf(END) + END.length)
      : `${current.trimEnd()}\n\n## Simulation\n\n${block}\n`;
  writeFileSync(RESULTS, next);
}

const kinds = (process.env.DBS ?? 'postgres').split(',').map((s) => s.trim()) as Kind[];
const runs: Awaited<ReturnType<typeof measure>>[] = [];
for (const kind of kinds) runs.push(await measure(kind));
const section = report(runs);
console.log(`\n${section}`);
writeResults(section);
