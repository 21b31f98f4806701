/**
 * The timing phases of `npm run bench:engine` (issue #27), asked by name: `PHASES=localtime,throttle`.
 *
 *   localtime  LOCAL_PERSONS (100,000) subscribed persons generated with SQL, spread over Brazil's four offsets by
 *              their geo place (São Paulo, Noronha, Manaus, Acre); an Active campaign with send_at_local_time set
 *              two hours ahead; time from the create request until every delivery row is written with its due time
 *              (target ≤ 30 s), and a check that each zone's rows are due at that time on their own clock.
 *   throttle   THROTTLE_PERSONS (3,000) subscribed persons; an Active campaign with throttle_per_minute THROTTLE_RATE
 *              (1,200); the pushes' arrival rate from the first to the last one, against the limit (target ± 5 %),
 *              and the most pushes in any 60 s window.
 */
import type { PushService } from '../apps/server/test/push-service.ts';

type Api = (method: string, url: string, body?: unknown) => Promise<{ uuid: string } & Record<string, unknown>>;
type Db = { query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }> };

export const LOCAL_PERSONS = Number(process.env.LOCAL_PERSONS ?? 100_000);
export const THROTTLE_PERSONS = Number(process.env.THROTTLE_PERSONS ?? 3_000);
export const THROTTLE_RATE = Number(process.env.THROTTLE_RATE ?? 1_200);
export const LOCAL_TARGET_S = 30;
export const RATE_TOLERANCE = 0.05;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '—');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');

const ZONES = [
  { region: 'São Paulo', city: 'São Paulo', zone: 'America/Sao_Paulo' },
  { region: 'Pernambuco', city: 'Fernando de Noronha', zone: 'America/Noronha' },
  { region: 'Amazonas', city: 'Manaus', zone: 'America/Manaus' },
  { region: 'Acre', city: 'Rio Branco', zone: 'America/Rio_Branco' },
];

const pushBlock = (title: string) => ({
  type: 'dispatcher',
  values: [
    {
      filter: 'CELL_NOTIFICATION',
      name: title,
      title,
      message: 'Mensagem do bench.',
      icon_uri: 'https://bench.example.com.br/icone.png',
      redirect_uri: 'https://bench.example.com.br/',
      intervalRecurrency: [],
    },
  ],
});
const everyone = { type: 'filter', values: [{ filter: 'all' }] };

/** Subscribed persons of a new domain, generated with SQL; `place(n)` gives each one's geo attributes. */
async function subscribers(api: Api, companyUuid: string, db: Db, push: PushService, name: string, count: number) {
  const host = `bench-${name}-${Date.now()}.example.com.br`;
  const domain = await api('POST', '/domain/create', {
    domain: { company_uuid: companyUuid, name: `Bench ${name}`, domain: `https://${host}` },
  });
  const first = push.newSubscription().subscription;
  const prefix = `${push.origin}/push/`;
  const ids = [first.endpoint.slice(prefix.length)];
  for (let i = 1; i < count; i++) ids.push(push.newSubscription().subscription.endpoint.slice(prefix.length));
  await db.query(
    `INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes, push_subscription, push_status)
     SELECT gen_random_uuid(), $1::uuid, $5 || '-' || n,
            jsonb_build_object('client.location.country', 'BR',
              'client.location.region', ($6::text[])[1 + (n % 4)], 'client.location.city', ($7::text[])[1 + (n % 4)]),
            jsonb_build_object('endpoint', $2::text || id, 'keys', $3::jsonb), 'subscribed'
     FROM unnest($4::text[]) WITH ORDINALITY AS u(id, n)`,
    [domain.uuid, prefix, JSON.stringify(first.keys), ids, name, ZONES.map((z) => z.region), ZONES.map((z) => z.city)],
  );
  await db.query('ANALYZE persons');
  return domain.uuid;
}

export interface LocalTimeResult {
  persons: number;
  sendAt: string;
  planSeconds: number;
  rows: number;
  /** Per zone: rows, and how many are due at the expected instant. */
  zones: { zone: string; rows: number; onTime: number; dueAt: string }[];
}

const hhmmIn = (at: Date, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

/** The local-time campaign's plan: every row written with its due time, timed. */
export async function localTimePlan(api: Api, companyUuid: string, db: Db, push: PushService) {
  const domainUuid = await subscribers(api, companyUuid, db, push, 'fusos', LOCAL_PERSONS);
  // Two hours ahead on São Paulo's clock, on the minute: nothing is due during the phase.
  const sendAt = hhmmIn(new Date(Date.now() + 2 * 3_600_000), 'America/Sao_Paulo').replace(/\d$/, '0');
  const started = performance.now();
  const momentum = await api('POST', '/momentum/create', {
    domain_uuid: domainUuid,
    type: 'campaign',
    momentum_title: 'Bench horário local',
    status: 'Active',
    send_at_local_time: sendAt,
    momentums: [everyone, pushBlock('Bench horário local')],
  });
  let rows = 0;
  while (rows < LOCAL_PERSONS && performance.now() - started < 300_000) {
    await sleep(250);
    const { rows: r } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deliveries WHERE momentum_uuid = $1',
      [momentum.uuid],
    );
    rows = Number(r[0]!.n);
  }
  const planSeconds = (performance.now() - started) / 1000;
  const { rows: byZone } = await db.query<{ region: string; due_at: Date; n: number }>(
    `SELECT p.attributes ->> 'client.location.region' AS region, d.due_at, count(*)::int AS n
     FROM deliveries d JOIN persons p ON p.uuid = d.person_uuid WHERE d.momentum_uuid = $1 GROUP BY 1, 2`,
    [momentum.uuid],
  );
  const zones = ZONES.map((z) => {
    const mine = byZone.filter((r) => r.region === z.region);
    const onTime = mine.filter((r) => hhmmIn(new Date(r.due_at), z.zone) === sendAt).reduce((n, r) => n + r.n, 0);
    const due = mine[0] ? new Date(mine[0].due_at).toISOString() : '—';
    return { zone: z.zone, rows: mine.reduce((n, r) => n + r.n, 0), onTime, dueAt: due };
  });
  // Nothing of it is to be sent during the bench.
  await api('PUT', `/momentum/status/${momentum.uuid}`, { status: 'Paused' }).catch(() => undefined);
  return { persons: LOCAL_PERSONS, sendAt, planSeconds, rows, zones } satisfies LocalTimeResult;
}

export interface ThrottleResult {
  persons: number;
  limit: number;
  received: number;
  seconds: number;
  /** Pushes per minute from the first arrival to the last. */
  perMinute: number;
  /** The most pushes that arrived within any 60 s. */
  maxInMinute: number;
  duplicates: number;
}

/** A throttled campaign: its pushes' arrival rate against the limit. */
export async function throttleRate(api: Api, companyUuid: string, db: Db, push: PushService) {
  const domainUuid = await subscribers(api, companyUuid, db, push, 'vazao', THROTTLE_PERSONS);
  const before = push.received.length;
  await api('POST', '/momentum/create', {
    domain_uuid: domainUuid,
    type: 'campaign',
    momentum_title: 'Bench limite por minuto',
    status: 'Active',
    throttle_per_minute: THROTTLE_RATE,
    momentums: [everyone, pushBlock('Bench limite por minuto')],
  });
  const expectedSeconds = (THROTTLE_PERSONS / THROTTLE_RATE) * 60;
  await push.waitFor(before + THROTTLE_PERSONS, (expectedSeconds + 120) * 1000).catch(() => undefined);
  const mine = push.received.slice(before);
  const times = mine.map((r) => r.at.getTime()).sort((a, b) => a - b);
  const seconds = times.length > 1 ? (times.at(-1)! - times[0]!) / 1000 : Number.NaN;
  let maxInMinute = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 60_000) j++;
    maxInMinute = Math.max(maxInMinute, i - j + 1);
  }
  const endpoints = new Set(mine.map((r) => r.endpoint));
  return {
    persons: THROTTLE_PERSONS,
    limit: THROTTLE_RATE,
    received: mine.length,
    seconds,
    perMinute: times.length > 1 ? ((times.length - 1) / seconds) * 60 : Number.NaN,
    maxInMinute,
    duplicates: mine.length - endpoints.size,
  } satisfies ThrottleResult;
}

/** The timing section of bench/RESULTS.md. */
export function reportTiming(
  meta: { pgVersion: string; seconds: number; date: string },
  local: LocalTimeResult | null,
  throttle: ThrottleResult | null,
) {
  const lines = [
    `- Date: ${meta.date}; ${meta.pgVersion}; command \`PHASES=${[local && 'localtime', throttle && 'throttle'].filter(Boolean).join(',')} npm run bench:engine\`; whole run ${f0(meta.seconds)} s`,
  ];
  if (local) {
    const ok = local.zones.every((z) => z.onTime === z.rows) && local.rows === local.persons;
    lines.push(
      `- **Local-time campaign plan**: ${f0(local.persons)} persons in four zones, 'Enviar às ${local.sendAt} no horário de cada visitante': every delivery row written with its due time in **${f1(local.planSeconds)} s** (target ≤ ${LOCAL_TARGET_S} s: ${local.planSeconds <= LOCAL_TARGET_S ? 'met' : 'missed'}); ${f0(local.rows)} rows, ${ok ? 'each zone due at that time on its own clock' : 'SOME ROWS OFF THEIR LOCAL TIME'}:`,
      ...local.zones.map(
        (z) => `  - ${z.zone}: ${f0(z.rows)} rows due ${z.dueAt} (${f0(z.onTime)} at ${local.sendAt} local)`,
      ),
    );
  }
  if (throttle) {
    const off = Math.abs(throttle.perMinute - throttle.limit) / throttle.limit;
    lines.push(
      `- **Throttled campaign**: ${f0(throttle.persons)} persons at \`throttle_per_minute: ${f0(throttle.limit)}\`: ${f0(throttle.received)} pushes in ${f1(throttle.seconds)} s, **${f0(throttle.perMinute)} per minute** (${f1(off * 100)} % from the limit; target ± ${RATE_TOLERANCE * 100} %: ${off <= RATE_TOLERANCE ? 'met' : 'missed'}), at most ${f0(throttle.maxInMinute)} in any 60 s, ${f0(throttle.duplicates)} duplicates`,
    );
  }
  return lines.join('\n');
}
