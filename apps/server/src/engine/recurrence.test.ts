import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { fromPglite, PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, freshDatabase, signUpAndSignIn, type TestApp } from '../../test/harness.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { type Database, queryRows } from '../db/client.ts';

/*
 * A recurrence sends at every occurrence to whoever matches its filter then (issue #29: in the demonstration's month
 * the weekly Tuesday momentum sent only on the first Tuesday). The clock is moved as `npm run demo` moves it: weeks
 * behind the database's own clock, four moments a day, the timed jobs that came due run before and after each move
 * (settle), and pg-boss's maintenance passes by now and then as it does in a running server.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const DAY_MS = 86_400_000;
const ROOT = 'https://recorrencia-semanal.com.br';

let database: Database;
let closeDatabase: () => Promise<void>;
let push: PushService;
const apps: TestApp[] = [];

beforeAll(async () => {
  // One database for two apps in turn (a restart): the apps must not close it.
  database = await freshDatabase();
  closeDatabase = database.close;
  database.close = async () => {};
  push = await startPushService();
});
afterAll(async () => {
  for (const t of apps) await t.close();
  await closeDatabase();
  await push.close();
});

const startApp = async () => {
  const t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true }, { database });
  apps.push(t);
  return t;
};

/** pg-boss's maintenance, due now (in a running server it passes every 24 h, the first a minute after start). */
async function pgBossMaintenance() {
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({ db: fromPglite(database.pglite as never), backend: 'pglite', schedule: false, supervise: false })
      : new PgBoss({ connectionString: database.url!, max: 1, schedule: false, supervise: false });
  boss.on('error', () => {});
  await boss.start();
  await database.db.execute(sql`UPDATE pgboss.queue SET maintain_on = NULL`);
  await boss.supervise();
  await boss.stop({ graceful: false, close: database.kind === 'postgres' });
}

/** The Monday before the Tuesday that begins at least `daysAgo` days ago, 08:00 in São Paulo (11:00 UTC). */
function mondayBefore(daysAgo: number) {
  const d = new Date(Date.now() - daysAgo * DAY_MS);
  d.setUTCHours(11, 0, 0, 0);
  while (d.getUTCDay() !== 1) d.setTime(d.getTime() - DAY_MS);
  return d;
}

describe('a weekly recurrence, with the clock moved weeks behind the database', () => {
  it('sends at each of four Tuesdays to everyone subscribed then, across a restart', async () => {
    let t = await startApp();
    const start = mondayBefore(40);
    t.clock.set(start);
    const owner = await signUpAndSignIn(t.app);
    const domain = await createDomain(t.app, owner, 'Loja semanal', ROOT);

    const subscribe = async () => {
      const sub = push.newSubscription();
      const res = await t.app.inject({
        method: 'POST',
        url: '/collect',
        headers: { 'content-type': 'text/plain', origin: ROOT, 'user-agent': CHROME },
        payload: JSON.stringify({
          id: domain.gero_id,
          vid: `v-${randomUUID()}`,
          e: [{ t: 'optin', s: sub.subscription }],
        }),
      });
      expect(res.statusCode).toBe(202);
      await t.app.ingestor.drain();
      return sub.subscription.endpoint;
    };
    /** As the demonstration seed walks a day: 09:00, 13:00, 18:00 and 21:00, each move settled on both sides. */
    let day = 0;
    const walkDays = async (days: number) => {
      for (let i = 0; i < days; i++, day++) {
        for (const hour of [9, 13, 18, 21]) {
          await t.app.engine.settle();
          t.clock.set(new Date(start.getTime() + day * DAY_MS + (hour - 8) * 3_600_000));
          await t.app.engine.settle();
        }
        await pgBossMaintenance();
      }
    };

    const ana = await subscribe();
    const bia = await subscribe();
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: domain.uuid,
        type: 'momentum',
        status: 'Active',
        momentum_title: 'Ofertas da semana (terças, 10h)',
        momentums: [
          { type: 'filter', values: [{ filter: 'all' }] },
          {
            type: 'trigger',
            regex: false,
            values: [
              { filter: 'recurrence', comparation: 'weekly', value: ['tuesday'], hours: '10:00', dischargeIn: [] },
            ],
          },
          {
            type: 'dispatcher',
            values: [
              {
                filter: 'CELL_NOTIFICATION',
                name: 'Ofertas da semana',
                title: 'Ofertas da semana',
                message: 'Até 30% off em tênis e acessórios de corrida.',
                icon_uri: `${ROOT}/icone.png`,
                redirect_uri: `${ROOT}/produtos`,
                intervalRecurrency: [],
              },
            ],
          },
        ],
      },
      owner.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const momentumUuid = res.body.data.uuid as string;

    // Monday to Thursday: the first Tuesday. Then Caio subscribes, and the second Tuesday passes.
    await walkDays(4);
    const caio = await subscribe();
    await walkDays(7);
    // A restart between occurrences: a new engine (and app) on the same database, at the same instant.
    const at = t.clock.now();
    await t.app.engine.stop();
    t = await startApp();
    t.clock.set(at);
    // The third and fourth Tuesdays.
    await walkDays(14);

    const tuesdays = [1, 8, 15, 22].map((d) => new Date(start.getTime() + d * DAY_MS + 2 * 3_600_000).toISOString());
    const rows = await queryRows<{ endpoint: string; status: string; due_at: string | Date }>(
      database.db,
      sql`SELECT p.push_subscription ->> 'endpoint' AS endpoint, d.status, d.due_at FROM deliveries d
          JOIN persons p ON p.uuid = d.person_uuid WHERE d.momentum_uuid = ${momentumUuid}::uuid ORDER BY d.due_at`,
    );
    const occurrences = (endpoint: string) =>
      rows.filter((r) => r.endpoint === endpoint).map((r) => `${new Date(r.due_at).toISOString()} ${r.status}`);
    expect(occurrences(ana), JSON.stringify(rows)).toEqual(tuesdays.map((d) => `${d} sent`));
    expect(occurrences(bia)).toEqual(tuesdays.map((d) => `${d} sent`));
    expect(occurrences(caio)).toEqual(tuesdays.slice(1).map((d) => `${d} sent`));
    expect(push.received.filter((r) => r.endpoint === ana)).toHaveLength(4);
    expect(push.received.filter((r) => r.endpoint === caio)).toHaveLength(3);
    // The fifth Tuesday waits.
    const next = await t.app.engine.jobs.waiting('recurrence.tick');
    expect(next.filter((j) => j.data.uuid === momentumUuid).map((j) => j.data.at)).toContain(
      new Date(start.getTime() + 29 * DAY_MS + 2 * 3_600_000).toISOString(),
    );
  });
});
