/**
 * The journey phase of `npm run bench:engine` (issue #26), asked by name: `PHASES=campaign,journey`.
 *
 *   journey  JOURNEY_PERSONS (100,000) subscribed persons generated with SQL, each inside an Active momentum's journey:
 *            their first message went out an hour ago (a sent step-0 delivery) and their position waits for step 1
 *            (wait 1 h, condition 'not converted', a push). The waits are made to expire at once (due_at = now),
 *            then the time until the last step-1 push arrives: claim → exit rules → condition → the step's delivery
 *            → the send, all through the running server's engine. Reported beside the campaign phase's rate.
 */
import type { PushService } from '../apps/server/test/push-service.ts';

type Api = (method: string, url: string, body?: unknown) => Promise<{ uuid: string } & Record<string, unknown>>;
type Db = { query<R>(text: string, values?: unknown[]): Promise<{ rows: R[] }> };

export const JOURNEY_PERSONS = Number(process.env.JOURNEY_PERSONS ?? 100_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const push = (title: string) => ({
  filter: 'CELL_NOTIFICATION',
  name: title,
  title,
  message: 'Mensagem do bench.',
  icon_uri: 'https://bench.example.com.br/icone.png',
  redirect_uri: 'https://bench.example.com.br/',
  intervalRecurrency: [],
});

export interface JourneyResult {
  persons: number;
  generateSeconds: number;
  firstPushSeconds: number;
  lastPushSeconds: number;
  /** When the last position advanced (its step-1 delivery inserted), from the waits' expiry. */
  advancedSeconds: number;
  perSecond: number;
  received: number;
  /** Step-1 deliveries by status at the end, and positions by state and step. */
  statuses: Record<string, number>;
  positions: Record<string, number>;
}

export async function journeyAdvance(api: Api, companyUuid: string, db: Db, service: PushService) {
  const generated = performance.now();
  const domain = await api('POST', '/domain/create', {
    domain: {
      company_uuid: companyUuid,
      name: 'Bench jornada',
      domain: `https://bench-jornada-${Date.now()}.example.com.br`,
    },
  });
  const momentum = await api('POST', '/momentum/create', {
    domain_uuid: domain.uuid,
    type: 'momentum',
    momentum_title: 'Bench jornada',
    status: 'Active',
    momentums: [
      { type: 'filter', values: [{ filter: 'all' }] },
      {
        type: 'trigger',
        regex: false,
        values: [{ filter: 'pageview', comparation: 'contain', value: ['/carrinho'], dischargeIn: [] }],
      },
      { type: 'dispatcher', values: [push('Esqueceu algo?')] },
    ],
    steps: [
      { wait: { amount: 1, unit: 'hours' }, condition: { kind: 'not_converted' }, values: [push('Etapa 1')] },
      { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [push('Etapa 2')] },
    ],
  });
  // Distinct endpoints, one shared key pair (count-only never decrypts), as the campaign phase.
  const first = service.newSubscription().subscription;
  const prefix = `${service.origin}/push/`;
  const ids = [first.endpoint.slice(prefix.length)];
  for (let i = 1; i < JOURNEY_PERSONS; i++)
    ids.push(service.newSubscription().subscription.endpoint.slice(prefix.length));
  await db.query(
    `INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes, push_subscription, push_status)
     SELECT gen_random_uuid(), $1::uuid, 'jornada-' || n, '{}'::jsonb,
            jsonb_build_object('endpoint', $2::text || id, 'keys', $3::jsonb), 'subscribed'
     FROM unnest($4::text[]) WITH ORDINALITY AS u(id, n)`,
    [domain.uuid, prefix, JSON.stringify(first.keys), ids],
  );
  const hourAgo = new Date(Date.now() - 3_600_000);
  await db.query(
    `INSERT INTO deliveries (id, domain_uuid, momentum_uuid, person_uuid, channel_type, dedupe_key, status, trigger_at,
                             due_at, sent_at, step, created_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, uuid, 'CELL_NOTIFICATION', $2 || ':' || uuid::text || ':once', 'sent',
            $3, $3, $3, 0, $3, $3
     FROM persons WHERE domain_uuid = $1::uuid`,
    [domain.uuid, momentum.uuid, hourAgo],
  );
  // Waiting for step 1, due far ahead: nothing runs until the phase makes every wait expire at once.
  await db.query(
    `INSERT INTO journey_positions (id, domain_uuid, momentum_uuid, person_uuid, step, due_at, state, entered_at,
                                    since_at, updated_at)
     SELECT gen_random_uuid(), $1::uuid, $2::uuid, uuid, 1, $3::timestamptz + interval '10 days', 'waiting', $3, $3, $3
     FROM persons WHERE domain_uuid = $1::uuid`,
    [domain.uuid, momentum.uuid, hourAgo],
  );
  await db.query('ANALYZE persons');
  await db.query('ANALYZE deliveries');
  await db.query('ANALYZE journey_positions');
  const generateSeconds = (performance.now() - generated) / 1000;

  const before = service.received.length;
  const started = performance.now();
  const startedAt = new Date();
  await db.query(`UPDATE journey_positions SET due_at = now() WHERE momentum_uuid = $1::uuid`, [momentum.uuid]);
  let firstPushSeconds = Number.NaN;
  service
    .waitFor(before + 1, 600_000)
    .then(() => {
      firstPushSeconds = (performance.now() - started) / 1000;
    })
    .catch(() => {});
  await service.waitFor(before + JOURNEY_PERSONS, 600_000).catch((err) => console.error(`  ${(err as Error).message}`));
  const lastPushSeconds = (performance.now() - started) / 1000;
  await sleep(1000);
  const received = service.received.length - before;
  const { rows } = await db.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM deliveries WHERE momentum_uuid = $1 AND step = 1 GROUP BY 1',
    [momentum.uuid],
  );
  // When the last position advanced (its step's delivery was inserted): the journey stage's own pace.
  const { rows: adv } = await db.query<{ s: number }>(
    `SELECT extract(epoch FROM max(created_at) - $2::timestamptz)::float8 AS s FROM deliveries
     WHERE momentum_uuid = $1 AND step = 1`,
    [momentum.uuid, startedAt],
  );
  const { rows: pos } = await db.query<{ k: string; n: number }>(
    `SELECT state || ':' || step AS k, count(*)::int AS n FROM journey_positions WHERE momentum_uuid = $1 GROUP BY 1`,
    [momentum.uuid],
  );
  // Nothing of it is to be sent later in the bench.
  await api('PUT', `/momentum/status/${momentum.uuid}`, { status: 'Paused' }).catch(() => undefined);
  return {
    persons: JOURNEY_PERSONS,
    generateSeconds,
    firstPushSeconds,
    lastPushSeconds,
    advancedSeconds: Number(adv[0]?.s ?? Number.NaN),
    perSecond: received / lastPushSeconds,
    received,
    statuses: Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])),
    positions: Object.fromEntries(pos.map((r) => [r.k, Number(r.n)])),
  } satisfies JourneyResult;
}
