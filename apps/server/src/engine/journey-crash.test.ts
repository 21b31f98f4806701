import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { exited, workerProcesses } from '../../test/worker-process.ts';
import { queryRows } from '../db/client.ts';

/*
 * Journeys (issue #26) and DESIGN.md §11's guarantees: a worker process is SIGKILLed while 2,000 persons of a journey
 * advance from step 1 (their first message went out, the wait is over) and restarted. Each person gets step 1's
 * delivery exactly once (one row: the key is the position and step), the pushes reach everyone, duplicates come only
 * from deliveries that were `sending` at the kill, and every position ends waiting for step 2: none lost, none run
 * twice. Positions a dead worker held are handed back by the sweeper after the lease, like deliveries.
 */

const PERSONS = 2000;
const KILL_AT = 0.37;
const LEASE_SECONDS = 3;

let t: TestApp;
let push: PushService;
const workers = workerProcesses({ secretKey: () => t.app.ctx.config.secretKey, leaseSeconds: LEASE_SECONDS });

const pushValues = (title: string) => ({
  filter: 'CELL_NOTIFICATION',
  name: title,
  title,
  message: 'Seu carrinho está te esperando.',
  icon_uri: 'https://queda-jornada.com.br/icone.png',
  redirect_uri: 'https://queda-jornada.com.br/carrinho',
});

describe.skipIf(inject('dbKind') !== 'postgres')('a worker killed in the middle of a journey', () => {
  beforeAll(async () => {
    t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true }, { engine: { work: false } });
    push = await startPushService({ decrypt: 'count-only' });
  });
  afterAll(async () => {
    await workers.killAll();
    await t?.close();
    await push?.close();
  });

  it('every person gets step 1 once, no position is lost or run twice', async () => {
    const started = Date.now();
    const db = t.app.ctx.db;
    const owner = await signUpAndSignIn(t.app);
    const domainUuid = (await createDomain(t.app, owner, 'Queda', 'https://queda-jornada.com.br')).uuid;
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: domainUuid,
        type: 'momentum',
        momentum_title: 'Jornada do carrinho',
        status: 'Active',
        momentums: [
          { type: 'filter', values: [{ filter: 'all' }] },
          {
            type: 'trigger',
            regex: false,
            values: [{ filter: 'pageview', comparation: 'contain', value: ['/carrinho'], dischargeIn: [] }],
          },
          { type: 'dispatcher', values: [pushValues('Esqueceu algo?')] },
        ],
        steps: [
          { wait: { amount: 1, unit: 'hours' }, condition: { kind: 'not_converted' }, values: [pushValues('Cupom')] },
          { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [pushValues('Fim')] },
        ],
      },
      owner.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const momentumUuid = res.body.data.uuid as string;

    // Persons whose first message went out an hour ago: each with its sent step-0 delivery and a position due now.
    const subs = Array.from({ length: PERSONS }, (_, i) => ({
      vid: `jq-${i}`,
      s: push.newSubscription().subscription,
    }));
    const now = new Date();
    const hourAgo = new Date(now.getTime() - 3_600_000);
    await db.execute(sql`
      INSERT INTO persons (uuid, domain_uuid, visitor_id, push_subscription, push_status)
      SELECT gen_random_uuid(), ${domainUuid}::uuid, r.vid, r.s, 'subscribed'
      FROM jsonb_to_recordset(${JSON.stringify(subs)}::jsonb) AS r(vid text, s jsonb)`);
    await db.execute(sql`
      INSERT INTO deliveries (id, domain_uuid, momentum_uuid, person_uuid, channel_type, dedupe_key, status, trigger_at,
                              due_at, sent_at, step, created_at, updated_at)
      SELECT gen_random_uuid(), ${domainUuid}::uuid, ${momentumUuid}::uuid, uuid, 'CELL_NOTIFICATION',
             ${momentumUuid} || ':' || uuid::text || ':once', 'sent', ${hourAgo}, ${hourAgo}, ${hourAgo}, 0,
             ${hourAgo}, ${hourAgo}
      FROM persons WHERE domain_uuid = ${domainUuid}::uuid`);
    await db.execute(sql`
      INSERT INTO journey_positions (id, domain_uuid, momentum_uuid, person_uuid, step, due_at, state, entered_at,
                                     since_at, updated_at)
      SELECT gen_random_uuid(), ${domainUuid}::uuid, ${momentumUuid}::uuid, uuid, 1, ${now}, 'waiting', ${hourAgo},
             ${hourAgo}, ${hourAgo}
      FROM persons WHERE domain_uuid = ${domainUuid}::uuid`);

    let worker = await workers.start(t.app.ctx.database.url!);
    await push.waitFor(Math.ceil(PERSONS * KILL_AT), 30_000);
    worker.kill('SIGKILL');
    await exited(worker);
    const receivedAtKill = push.received.length;
    const sendingAtKill = (
      await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM deliveries WHERE status = 'sending'`)
    )[0]!.n;
    const runningAtKill = (
      await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM journey_positions WHERE state = 'running'`)
    )[0]!.n;

    worker = await workers.start(t.app.ctx.database.url!);
    const restarted = Date.now();
    const states = () =>
      queryRows<{ state: string; step: number; n: number }>(
        db,
        sql`SELECT state, step, count(*)::int AS n FROM journey_positions GROUP BY 1, 2 ORDER BY 1, 2`,
      );
    const stepOne = () =>
      queryRows<{ status: string; n: number }>(
        db,
        sql`SELECT status, count(*)::int AS n FROM deliveries WHERE step = 1 GROUP BY 1`,
      );
    for (;;) {
      const [s, d] = [await states(), await stepOne()];
      const done = s.length === 1 && s[0]!.state === 'waiting' && s[0]!.step === 2;
      if (done && d.length === 1 && d[0]!.status === 'sent' && Number(d[0]!.n) === PERSONS) break;
      if (Date.now() - restarted > 30_000) throw new Error(`não terminou: ${JSON.stringify({ s, d })}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    worker.kill('SIGTERM');
    await exited(worker);

    const perPerson = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM deliveries WHERE momentum_uuid = ${momentumUuid}::uuid AND step = 1
          GROUP BY person_uuid`,
    );
    const perEndpoint = new Map<string, number>();
    for (const r of push.received) perEndpoint.set(r.endpoint, (perEndpoint.get(r.endpoint) ?? 0) + 1);
    const duplicates = push.received.length - perEndpoint.size;
    console.log(
      `journey crash test: ${PERSONS} persons; killed after ${receivedAtKill} pushes, ${runningAtKill} positions ` +
        `running and ${sendingAtKill} deliveries sending; ${push.received.length} pushes, ${duplicates} duplicates; ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    expect(receivedAtKill).toBeLessThan(PERSONS);
    expect(perPerson).toHaveLength(PERSONS);
    expect(perPerson.every((p) => Number(p.n) === 1)).toBe(true);
    for (const s of subs) expect(perEndpoint.get(s.s.endpoint) ?? 0, s.vid).toBeGreaterThanOrEqual(1);
    expect(duplicates).toBeLessThanOrEqual(sendingAtKill);
    expect(await states()).toEqual([{ state: 'waiting', step: 2, n: PERSONS }]);
    expect(push.refused).toEqual([]);
  }, 90_000);
});
