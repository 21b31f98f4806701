import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../apps/server/src/db/client.ts';
import type { AppContext } from '../apps/server/src/lib/context.ts';
import * as analytics from '../apps/server/src/modules/analytics/analytics.service.ts';
import { experimentReport } from '../apps/server/src/modules/analytics/experiment.service.ts';
import { addDomain, fmt, generate, type Kind, log, openDatabase } from './history.ts';

const root = path.resolve(import.meta.dirname, '..');
const RESULTS =
  process.env.RESULTS === '0' ? null : path.resolve(process.env.RESULTS ?? path.join(root, 'bench/RESULTS.md'));
const START = '<!-- analytics:start (written by npm run bench:analytics) -->';
const END = '<!-- analytics:end -->';
const RUNS = Number(process.env.RUNS ?? 5);
const DAYS = Number(process.env.DAYS ?? 90);
const NOISE = Number(process.env.NOISE ?? 0.1);
const TZ = 'America/Sao_Paulo';
/** Inlined (a constant), so PostgreSQL sees repeated day expressions as the same expression. */
const zone = sql.raw(`'${TZ}'`);
const sizes = (kind: Kind) => ({
  events: Number(process.env.EVENTS ?? (kind === 'postgres' ? 10_000_000 : 1_000_000)),
  persons: Number(process.env.PERSONS ?? (kind === 'postgres' ? 1_000_000 : 100_000)),
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const dayIn = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(at);
const daysAgo = (n: number) => dayIn(new Date(Date.now() - n * 86_400_000));

/** The rollups the collector and the engine keep, built from the generated history in one pass each. */
async function buildRollups(db: Db) {
  const day = sql`(ts AT TIME ZONE ${zone})::date`;
  // The collector's device class (lib/user-agent.ts): phones and tablets are mobile.
  const devClass = sql`CASE WHEN device IN ('mobile', 'tablet') THEN 'mobile' ELSE 'desktop' END`;
  await db.execute(sql`
    INSERT INTO daily_stats (domain_uuid, day, dimension, value, count)
    SELECT domain_uuid, ${day}, 'pageviews', '', count(*) FROM events WHERE kind = 'pageview' GROUP BY 1, 2
    UNION ALL
    SELECT domain_uuid, ${day}, 'page:' || ${devClass}, url, count(*) FROM events WHERE kind = 'pageview' GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT domain_uuid, ${day}, 'device', device, count(*) FROM events WHERE kind = 'pageview' GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT domain_uuid, ${day}, 'event', category, count(*) FROM events WHERE kind = 'event' GROUP BY 1, 2, 3, 4
    UNION ALL
    SELECT domain_uuid, ${day}, kind || 's', '', count(*) FROM events WHERE kind IN ('optin', 'optout') GROUP BY 1, 2, 3`);
  await db.execute(sql`
    INSERT INTO daily_visitors (domain_uuid, day, person_uuid)
    SELECT DISTINCT domain_uuid, ${day}, person_uuid FROM events`);
  await db.execute(sql`
    INSERT INTO daily_stats (domain_uuid, day, dimension, value, count)
    SELECT domain_uuid, day, 'visitors', '', count(*) FROM daily_visitors GROUP BY 1, 2
    UNION ALL
    SELECT domain_uuid, day, 'visitors_device', device, count(*) FROM (
      SELECT DISTINCT ON (domain_uuid, ${day}, person_uuid) domain_uuid, ${day} AS day, device FROM events
      ORDER BY domain_uuid, ${day}, person_uuid, ts) AS first GROUP BY 1, 2, 4`);
  await db.execute(sql`
    INSERT INTO daily_event_visitors (domain_uuid, day, category, person_uuid)
    SELECT DISTINCT domain_uuid, ${day}, category, person_uuid FROM events WHERE kind = 'event'`);
  await db.execute(sql`
    INSERT INTO daily_stats (domain_uuid, day, dimension, value, count)
    SELECT domain_uuid, day, 'event_visitors', category, count(*) FROM daily_event_visitors GROUP BY 1, 2, 4`);
  await buildSketches(db);
  await db.execute(sql`
    INSERT INTO daily_momentum_stats AS s (momentum_uuid, day, domain_uuid, sent, viewed, clicked)
    SELECT momentum_uuid, (sent_at AT TIME ZONE ${zone})::date, domain_uuid, count(*), count(viewed_at), count(clicked_at)
    FROM deliveries GROUP BY 1, 2, 3`);
  await db.execute(sql`
    INSERT INTO daily_momentum_stats AS s (momentum_uuid, day, domain_uuid, conversions, revenue_cents)
    SELECT momentum_uuid, (ts AT TIME ZONE ${zone})::date, domain_uuid, count(*), sum(value_cents) FROM conversions
    GROUP BY 1, 2, 3
    ON CONFLICT (momentum_uuid, day) DO UPDATE SET conversions = excluded.conversions, revenue_cents = excluded.revenue_cents`);
  await buildExperiment(db);
  // A history built over 90 days has been vacuumed by autovacuum (visibility map set, so counts read indexes only);
  // one bulk load of minutes has not: vacuum it as the real table would be.
  await db.execute(sql`VACUUM ANALYZE`);
}

/**
 * The experiment report's data (issue #25): every momentum's first momentum by title (the one the widgets read) is
 * given an experiment, a 10 % control group and variants A/B 50/50; its deliveries get an arm in those proportions
 * (held-out ones `skipped`, never sent, as the send stage records them), one assignment per person, and the per-arm
 * daily counters are built from them and their conversions the way the send stage and attribution keep them.
 */
async function buildExperiment(db: Db) {
  const push = { filter: 'CELL_NOTIFICATION', title: 'Oferta', message: 'Só hoje', intervalRecurrency: [] };
  const experiment = {
    control_percent: 10,
    variants: [
      { name: 'A', weight: 50, values: [push] },
      { name: 'B', weight: 50, values: [{ ...push, title: 'Oferta B' }] },
    ],
  };
  await db.execute(sql`
    WITH firsts AS (
      SELECT DISTINCT ON (domain_uuid) uuid FROM momentums ORDER BY domain_uuid, momentum_title)
    UPDATE momentums m SET experiment = ${JSON.stringify(experiment)}::jsonb FROM firsts WHERE m.uuid = firsts.uuid`);
  await db.execute(sql`
    UPDATE deliveries d SET
      arm = CASE WHEN x.u < 0.1 THEN 'control' WHEN x.u < 0.55 THEN 'A' ELSE 'B' END,
      status = CASE WHEN x.u < 0.1 THEN 'skipped' ELSE d.status END,
      error = CASE WHEN x.u < 0.1 THEN 'grupo de controle' END,
      sent_at = CASE WHEN x.u < 0.1 THEN NULL ELSE d.sent_at END,
      viewed_at = CASE WHEN x.u < 0.1 THEN NULL ELSE d.viewed_at END,
      clicked_at = CASE WHEN x.u < 0.1 THEN NULL ELSE d.clicked_at END
    FROM (SELECT d2.id, ('x' || substr(md5(d2.person_uuid::text || d2.momentum_uuid::text), 1, 8))::bit(32)::bigint
            / 4294967296.0 AS u
          FROM deliveries d2 JOIN momentums m ON m.uuid = d2.momentum_uuid WHERE m.experiment IS NOT NULL) AS x
    WHERE d.id = x.id`);
  await db.execute(sql`
    DELETE FROM conversions c USING deliveries d WHERE c.delivery_id = d.id AND d.arm = 'control'`);
  await db.execute(sql`
    INSERT INTO experiment_assignments (momentum_uuid, person_uuid, domain_uuid, arm, first_at, last_at)
    SELECT DISTINCT ON (momentum_uuid, person_uuid) momentum_uuid, person_uuid, domain_uuid, arm, trigger_at, trigger_at
    FROM deliveries WHERE arm IS NOT NULL ORDER BY momentum_uuid, person_uuid, trigger_at`);
  await db.execute(sql`
    INSERT INTO daily_arm_stats (momentum_uuid, arm, day, domain_uuid, assigned, sent, viewed, clicked, conversions,
      converted, revenue_cents)
    SELECT momentum_uuid, arm, day, domain_uuid, sum(assigned), sum(sent), sum(viewed), sum(clicked),
      sum(conversions), sum(converted), sum(revenue_cents)
    FROM (
      SELECT momentum_uuid, arm, (first_at AT TIME ZONE ${zone})::date AS day, domain_uuid, 1 AS assigned, 0 AS sent,
        0 AS viewed, 0 AS clicked, 0 AS conversions, 0 AS converted, 0 AS revenue_cents
      FROM experiment_assignments
      UNION ALL
      SELECT momentum_uuid, arm, (coalesce(sent_at, trigger_at) AT TIME ZONE ${zone})::date, domain_uuid, 0,
        (sent_at IS NOT NULL)::int, (viewed_at IS NOT NULL)::int, (clicked_at IS NOT NULL)::int, 0, 0, 0
      FROM deliveries WHERE arm IS NOT NULL
      UNION ALL
      SELECT d.momentum_uuid, d.arm, (c.ts AT TIME ZONE ${zone})::date, d.domain_uuid, 0, 0, 0, 0, 1, 1, c.value_cents
      FROM conversions c JOIN deliveries d ON d.id = c.delivery_id WHERE d.arm IS NOT NULL
    ) AS x
    GROUP BY 1, 2, 3, 4`);
}

/**
 * The visitor sketches the rollups stage keeps (exact hashes up to 256 a day, registers past that), built the way
 * migration 0014 converts history: per day, from daily_visitors, daily_event_visitors and each visitor's first device
 * of the day, with the SQL functions the collector uses (visitor_hash, sketch_index, sketch_rank).
 */
async function buildSketches(db: Db) {
  const day = sql`(ts AT TIME ZONE ${zone})::date`;
  await db.execute(sql`
    CREATE TEMPORARY TABLE bench_sketch_source AS
    SELECT domain_uuid, day, 'visitors'::text AS dimension, ''::text AS value, visitor_hash(person_uuid) AS h
    FROM daily_visitors
    UNION ALL
    SELECT domain_uuid, day, 'event_visitors', category, visitor_hash(person_uuid) FROM daily_event_visitors
    UNION ALL
    SELECT domain_uuid, day, 'visitors_device', device, visitor_hash(person_uuid) FROM (
      SELECT DISTINCT ON (domain_uuid, ${day}, person_uuid) domain_uuid, ${day} AS day, person_uuid, device
      FROM events ORDER BY domain_uuid, ${day}, person_uuid, ts) AS first_of_day`);
  await db.execute(sql`
    INSERT INTO daily_sketches (domain_uuid, day, dimension, value, hashes)
    SELECT domain_uuid, day, dimension, value, array_agg(DISTINCT h ORDER BY h)
    FROM bench_sketch_source GROUP BY 1, 2, 3, 4 HAVING count(DISTINCT h) <= 256`);
  await db.execute(sql`
    WITH big AS (
      SELECT domain_uuid, day, dimension, value FROM bench_sketch_source GROUP BY 1, 2, 3, 4
      HAVING count(DISTINCT h) > 256
    ), ranks AS (
      SELECT s.domain_uuid, s.day, s.dimension, s.value, sketch_index(s.h) AS i, max(sketch_rank(s.h)) AS r
      FROM bench_sketch_source s JOIN big USING (domain_uuid, day, dimension, value) GROUP BY 1, 2, 3, 4, 5
    )
    INSERT INTO daily_sketches (domain_uuid, day, dimension, value, registers)
    SELECT b.domain_uuid, b.day, b.dimension, b.value,
      decode(string_agg(lpad(to_hex(coalesce(r.r, 0)), 2, '0'), '' ORDER BY g.i), 'hex')
    FROM big b CROSS JOIN generate_series(0, 16383) AS g(i)
    LEFT JOIN ranks r ON r.domain_uuid = b.domain_uuid AND r.day = b.day AND r.dimension = b.dimension
      AND r.value = b.value AND r.i = g.i
    GROUP BY b.domain_uuid, b.day, b.dimension, b.value`);
  await db.execute(sql`DROP TABLE bench_sketch_source`);
}

interface Timing {
  widget: string;
  byRange: Record<string, number>;
  raw?: number;
}

async function timeIt(fn: () => Promise<unknown>, runs: number) {
  await fn();
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    xs.push(performance.now() - s);
  }
  return median(xs);
}

async function measure(kind: Kind) {
  const { events, persons } = sizes(kind);
  log(`${kind}: ${fmt(events)} events, ${fmt(persons)} persons over ${DAYS} days (+ noise ${NOISE})`);
  const { database, version, drop } = await openDatabase(kind);
  try {
    await database.migrate();
    const db = database.db;
    const main = await addDomain(db, 'Loja Bench');
    const t0 = performance.now();
    await generate(db, main, events, persons, DAYS);
    for (let i = 1; i <= 3; i++) {
      const other = await addDomain(db, `Ruído ${i}`);
      await generate(db, other, Math.floor(events * NOISE), Math.floor(persons * NOISE), DAYS);
    }
    log('  building rollups');
    await buildRollups(db);
    const generateMs = performance.now() - t0;
    const [size] = await queryRows<{ events: string; stats: string; stats_rows: string }>(
      db,
      sql`SELECT (SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree('events'))::text AS events, pg_total_relation_size('daily_stats')::text AS stats,
            (SELECT count(*) FROM daily_stats)::text AS stats_rows`,
    );
    const ctx = { db, database, clock: { now: () => new Date() } } as unknown as AppContext;
    const c = main.companyUuid;
    const dom = main.domainUuid;
    const [category] = await queryRows<{ uuid: string }>(
      db,
      sql`INSERT INTO event_categories (uuid, domain_uuid, name) VALUES (gen_random_uuid(), ${dom}::uuid, 'carrinho')
          RETURNING uuid`,
    );
    const [momentum] = await queryRows<{ uuid: string }>(
      db,
      sql`SELECT uuid FROM momentums WHERE domain_uuid = ${dom}::uuid ORDER BY momentum_title LIMIT 1`,
    );
    const ranges = { '1 day': daysAgo(0), '30 days': daysAgo(29), '90 days': daysAgo(89) };
    const widgets: { name: string; run: (r: { start: string; end: string }, n: number) => Promise<unknown> }[] = [
      { name: 'count/visits', run: (r) => analytics.visits(ctx, c, dom, r) },
      { name: 'count/visitors', run: (r) => analytics.visitors(ctx, c, dom, r) },
      { name: 'count/momentums', run: () => analytics.momentumCounts(ctx, c, dom) },
      { name: 'count/live', run: () => analytics.liveVisitors(ctx, c, dom) },
      { name: 'pages/mostViewed', run: (r) => analytics.mostViewed(ctx, c, dom, { ...r, limit: 10 }) },
      { name: 'visitors/category', run: (r) => analytics.visitorsByCategory(ctx, c, dom, r) },
      { name: 'visitors/device', run: (r) => analytics.visitorsByDevice(ctx, c, dom, r) },
      { name: 'base/channel', run: (r) => analytics.baseByChannel(ctx, c, dom, r) },
      { name: 'momentums/performance', run: (r) => analytics.momentumPerformance(ctx, c, dom, r) },
      { name: 'momentums/daily', run: (r) => analytics.momentumDaily(ctx, c, dom, r) },
      { name: 'momentum/:uuid/dailyPeopleImpacted', run: (r) => analytics.oneMomentumDaily(ctx, c, momentum!.uuid, r) },
      {
        name: 'event/:category/dailyPeopleImpacted',
        run: (r, n) => analytics.eventDaily(ctx, c, category!.uuid, dom, { period: n, end: r.end }),
      },
      { name: 'optins/daily', run: (r) => analytics.optinsDaily(ctx, c, dom, r) },
    ];
    // The experiment report is a page of its own (/v2/experiment), not a dashboard widget: measured alone.
    const pages: typeof widgets = [
      {
        name: 'momentum/:uuid/experiment',
        run: (r) => experimentReport(ctx, c, dom, momentum!.uuid, r),
      },
    ];
    const end = daysAgo(0);
    const timings: Timing[] = [];
    for (const w of [...widgets, ...pages]) {
      const byRange: Record<string, number> = {};
      for (const [label, start] of Object.entries(ranges)) {
        const n = Number(label.split(' ')[0]);
        byRange[label] = await timeIt(() => w.run({ start, end }, n), RUNS);
      }
      timings.push({ widget: w.name, byRange });
      log(
        `  ${w.name}: ${Object.entries(byRange)
          .map(([k, v]) => `${k} ${ms(v)} ms`)
          .join(', ')}`,
      );
    }
    const experiment = await experimentReport(ctx, c, dom, momentum!.uuid, {
      start: ranges['90 days'],
      end: daysAgo(0),
    });
    log(
      `  experiment of ${momentum!.uuid}, 90 days: ${experiment.arms
        .map((a) => `${a.arm} ${fmt(a.assigned)} assigned, ${fmt(a.sent)} sent, ${fmt(a.converted)} converted`)
        .join('; ')}`,
    );
    const dashboard: Record<string, number> = {};
    for (const [label, start] of Object.entries(ranges)) {
      const n = Number(label.split(' ')[0]);
      dashboard[label] = await timeIt(() => Promise.all(widgets.map((w) => w.run({ start, end }, n))), RUNS);
    }
    log(
      `  whole dashboard: ${Object.entries(dashboard)
        .map(([k, v]) => `${k} ${ms(v)} ms`)
        .join(', ')}`,
    );

    // The same answers over raw rows, 30 days: what the rollups buy.
    const from = sql`(${ranges['30 days']}::date::timestamp AT TIME ZONE ${zone})`;
    const to = sql`((${end}::date + 1)::timestamp AT TIME ZONE ${zone})`;
    const inRange = sql`domain_uuid = ${dom}::uuid AND ts >= ${from} AND ts < ${to}`;
    const raw: Record<string, SQL> = {
      'count/visits': sql`SELECT count(*) FROM events WHERE ${inRange} AND kind = 'pageview'`,
      'count/visitors': sql`SELECT count(DISTINCT person_uuid) FROM events WHERE ${inRange}`,
      'pages/mostViewed': sql`SELECT url, count(*) FILTER (WHERE device = 'mobile'), count(*) FILTER (WHERE device <> 'mobile')
        FROM events WHERE ${inRange} AND kind = 'pageview' GROUP BY url ORDER BY count(*) DESC LIMIT 10`,
      'visitors/category': sql`SELECT category, count(DISTINCT person_uuid) FROM events
        WHERE ${inRange} AND kind = 'event' GROUP BY category`,
      'visitors/device': sql`SELECT device, count(DISTINCT person_uuid) FROM events WHERE ${inRange} GROUP BY device`,
      'momentums/performance': sql`SELECT d.momentum_uuid, count(*), count(d.viewed_at), count(d.clicked_at),
        (SELECT count(*) FROM conversions c WHERE c.momentum_uuid = d.momentum_uuid AND c.ts >= ${from} AND c.ts < ${to})
        FROM deliveries d WHERE d.domain_uuid = ${dom}::uuid AND d.sent_at >= ${from} AND d.sent_at < ${to}
        GROUP BY d.momentum_uuid`,
      'event/:category/dailyPeopleImpacted': sql`SELECT (ts AT TIME ZONE ${zone})::date, count(DISTINCT person_uuid)
        FROM events WHERE ${inRange} AND kind = 'event' AND category = 'carrinho' GROUP BY 1`,
      'optins/daily': sql`SELECT (ts AT TIME ZONE ${zone})::date, count(*) FILTER (WHERE kind = 'optin'),
        count(*) FILTER (WHERE kind = 'optout') FROM events WHERE ${inRange} AND kind IN ('optin', 'optout') GROUP BY 1`,
    };
    for (const t of timings) {
      const q = raw[t.widget];
      if (q) {
        t.raw = await timeIt(() => db.execute(q), 3);
        log(`  raw ${t.widget}: ${ms(t.raw)} ms`);
      }
    }
    // The visitors card against the exact distinct count of the per-day visitor table, per range.
    const accuracy: Record<string, { exact: number; estimated: number }> = {};
    for (const [label, start] of Object.entries(ranges)) {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(DISTINCT person_uuid)::int AS n FROM daily_visitors
            WHERE domain_uuid = ${dom}::uuid AND day BETWEEN ${start}::date AND ${end}::date`,
      );
      const estimated = (await analytics.visitors(ctx, c, dom, { start, end })).count;
      accuracy[label] = { exact: row!.n, estimated };
      log(
        `  distinct visitors ${label}: exact ${fmt(row!.n)}, card ${fmt(estimated)} (${errorPercent(accuracy[label]!)})`,
      );
    }
    return {
      accuracy,
      kind,
      version,
      events,
      persons,
      generateMs,
      eventsMb: Number(size!.events) / 1e6,
      statsMb: Number(size!.stats) / 1e6,
      statsRows: Number(size!.stats_rows),
      timings,
      dashboard,
    };
  } finally {
    await database.close();
    await drop();
  }
}

type Result = Awaited<ReturnType<typeof measure>>;

const errorPercent = (a: { exact: number; estimated: number }) =>
  `${a.exact ? (((a.estimated - a.exact) / a.exact) * 100).toFixed(2) : '0.00'} %`;

function report(results: Result[]) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores (${cpu}), ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average before the run ` +
      `${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(' / ')}. Median of ${RUNS} runs after one warm-up; raw: median of 3.`,
    '',
  ];
  for (const r of results) {
    lines.push(
      `### ${r.version}: ${fmt(r.events)} events, ${fmt(r.persons)} persons over ${DAYS} days (+${NOISE * 100}% noise in 3 other domains)`,
      '',
      `Generated with its rollups in ${(r.generateMs / 1000).toFixed(0)} s; events table ${r.eventsMb.toFixed(0)} MB, ` +
        `daily_stats ${r.statsMb.toFixed(1)} MB (${fmt(r.statsRows)} rows).`,
      '',
      '| widget | 1 day (ms) | 30 days (ms) | 90 days (ms) | raw events, 30 days (ms) |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...r.timings.map(
        (t) =>
          `| ${t.widget} | ${ms(t.byRange['1 day']!)} | ${ms(t.byRange['30 days']!)} | ${ms(t.byRange['90 days']!)} | ${t.raw === undefined ? '—' : ms(t.raw)} |`,
      ),
      `| **whole dashboard (13 widgets at once)** | ${ms(r.dashboard['1 day']!)} | ${ms(r.dashboard['30 days']!)} | ${ms(r.dashboard['90 days']!)} | |`,
      '',
      '| distinct visitors | 1 day | 30 days | 90 days |',
      '| --- | ---: | ---: | ---: |',
      `| exact (daily_visitors) | ${['1 day', '30 days', '90 days'].map((k) => fmt(r.accuracy[k]!.exact)).join(' | ')} |`,
      `| visitors card (sketches) | ${['1 day', '30 days', '90 days'].map((k) => fmt(r.accuracy[k]!.estimated)).join(' | ')} |`,
      `| error | ${['1 day', '30 days', '90 days'].map((k) => errorPercent(r.accuracy[k]!)).join(' | ')} |`,
      '',
    );
  }
  return lines.join('\n');
}

function writeResults(section: string) {
  if (!RESULTS) return;
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const block = `${START}\n${section}\n${END}`;
  const next =
    current.includes(START) && current.includes(END)
      ? current.slice(0, current.indexOf(START)) + block + current.slice(current.indexOf(END) + END.length)
      : `${current.trimEnd()}\n\n## Analytics\n\n${block}\n`;
  writeFileSync(RESULTS, next);
}

const kinds = (process.env.DBS ?? 'postgres,pglite').split(',').map((s) => s.trim()) as Kind[];
const results: Result[] = [];
for (const kind of kinds) results.push(await measure(kind));
const section = report(results);
console.log(`\n${section}`);
writeResults(section);
