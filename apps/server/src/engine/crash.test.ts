import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { exited, workerProcesses } from '../../test/worker-process.ts';
import { queryRows } from '../db/client.ts';

/*
 * DESIGN.md §11, "Engine guarantees, precisely": a worker process is SIGKILLed in the middle of a campaign and
 * restarted. Every recipient gets at least one push, and duplicates come only from deliveries that were
 * `sending` at the kill. The test app only creates the campaign (its engine does not work); the campaign.fanout
 * job reaches the worker through pg-boss in the same database.
 */

const SUBSCRIBERS = 5000;
/** Kill once this share of the pushes arrived: past the first claimed batch, mid-way through another. */
const KILL_AT = 0.37;
const LEASE_SECONDS = 3;

let t: TestApp;
let push: PushService;
const workers = workerProcesses({ secretKey: () => t.app.ctx.config.secretKey, leaseSeconds: LEASE_SECONDS });

const countByStatus = async () => {
  const rows = await queryRows<{ status: string; n: number }>(
    t.app.ctx.db,
    sql`SELECT status, count(*)::int AS n FROM deliveries GROUP BY status`,
  );
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
};

const sendingIds = async () =>
  (await queryRows<{ id: string }>(t.app.ctx.db, sql`SELECT id FROM deliveries WHERE status = 'sending'`)).map(
    (r) => r.id,
  );

describe.skipIf(inject('dbKind') !== 'postgres')('a worker killed in the middle of a campaign', () => {
  beforeAll(async () => {
    t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true }, { engine: { work: false } });
    push = await startPushService();
  });
  afterAll(async () => {
    await workers.killAll();
    await t?.close();
    await push?.close();
  });

  it('every subscriber gets the push; duplicates only from deliveries that were sending at the kill', async () => {
    const started = Date.now();
    const databaseUrl = t.app.ctx.database.url!;
    const owner = await signUpAndSignIn(t.app);
    const domainUuid = (await createDomain(t.app, owner, 'Queda', 'https://queda-motor.com.br')).uuid;

    // Subscribers straight in the database: each with its own P-256 keys from the push service.
    const subs = Array.from({ length: SUBSCRIBERS }, (_, i) => ({
      vid: `queda-${i}`,
      s: push.newSubscription().subscription,
    }));
    await t.app.ctx.db.execute(sql`
      INSERT INTO persons (uuid, domain_uuid, visitor_id, push_subscription, push_status)
      SELECT gen_random_uuid(), ${domainUuid}::uuid, r.vid, r.s, 'subscribed'
      FROM jsonb_to_recordset(${JSON.stringify(subs)}::jsonb) AS r(vid text, s jsonb)`);

    const phases: string[] = [];
    const mark = (name: string) => phases.push(`${name} ${((Date.now() - started) / 1000).toFixed(1)}s`);
    mark('seeded');
    let worker = await workers.start(databaseUrl);
    mark('worker ready');
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: domainUuid,
        type: 'campaign',
        momentum_title: 'Queda do worker',
        status: 'Active',
        momentums: [
          { type: 'filter', values: [{ filter: 'all' }] },
          {
            type: 'dispatcher',
            values: [
              {
                filter: 'CELL_NOTIFICATION',
                name: 'Queda',
                title: 'Oferta relâmpago',
                message: 'Só hoje.',
                icon_uri: 'https://queda-motor.com.br/icone.png',
                redirect_uri: 'https://queda-motor.com.br/oferta',
              },
            ],
          },
        ],
      },
      owner.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    mark('campaign active');
    await push.waitFor(1, 30_000).catch(async (err: Error) => {
      // What the worker did meanwhile: the deliveries by status and their errors.
      const state = await queryRows(
        t.app.ctx.db,
        sql`SELECT status, error, attempts, count(*)::int AS n FROM deliveries GROUP BY 1, 2, 3 LIMIT 10`,
      );
      throw new Error(`${err.message}; ${phases.join(', ')}; deliveries ${JSON.stringify(state)}`);
    });
    mark('first push');
    await push.waitFor(Math.ceil(SUBSCRIBERS * KILL_AT), 30_000);
    mark('kill');
    worker.kill('SIGKILL');
    await exited(worker);
    const receivedAtKill = push.received.length;
    const sendingAtKill = new Set(await sendingIds());
    const atKill = await countByStatus();

    worker = await workers.start(databaseUrl);
    mark('restarted');
    const restarted = Date.now();
    for (;;) {
      const counts = await countByStatus();
      if (!counts.queued && !counts.sending && (counts.sent ?? 0) + (counts.failed ?? 0) >= SUBSCRIBERS) break;
      if (Date.now() - restarted > 60_000) {
        const stuck = await queryRows(
          t.app.ctx.db,
          sql`SELECT status, error, attempts, due_at, locked_at, now() AS db_now, count(*)::int AS n FROM deliveries
              WHERE status <> 'sent' GROUP BY 1, 2, 3, 4, 5 LIMIT 10`,
        );
        throw new Error(`não terminou: ${JSON.stringify(counts)} ${JSON.stringify(stuck)} ${push.received.length}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    mark('drained');
    worker.kill('SIGTERM');
    await exited(worker);

    const perEndpoint = new Map<string, number>();
    for (const r of push.received) perEndpoint.set(r.endpoint, (perEndpoint.get(r.endpoint) ?? 0) + 1);
    const perDelivery = new Map<string, number>();
    for (const r of push.received) {
      const id = (r.payload as { delivery_id: string }).delivery_id;
      perDelivery.set(id, (perDelivery.get(id) ?? 0) + 1);
    }
    const duplicates = push.received.length - perEndpoint.size;
    const duplicated = [...perDelivery].filter(([, n]) => n > 1).map(([id]) => id);
    const final = await countByStatus();

    console.log(
      `crash test: ${SUBSCRIBERS} subscribers; killed after ${receivedAtKill} pushes ` +
        `(deliveries at the kill ${JSON.stringify(atKill)}); ${push.received.length} pushes received, ` +
        `${duplicates} duplicates, ${sendingAtKill.size} sending at the kill; final ${JSON.stringify(final)}; ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s (${phases.join(', ')})`,
    );

    expect(receivedAtKill).toBeLessThan(SUBSCRIBERS);
    for (const s of subs) expect(perEndpoint.get(s.s.endpoint) ?? 0, s.vid).toBeGreaterThanOrEqual(1);
    expect(perEndpoint.size).toBe(SUBSCRIBERS);
    expect(duplicates).toBeLessThanOrEqual(sendingAtKill.size);
    expect(duplicated.filter((id) => !sendingAtKill.has(id))).toEqual([]);
    expect(final).toEqual({ sent: SUBSCRIBERS });
    expect(push.refused).toEqual([]);
  }, 150_000);
});
