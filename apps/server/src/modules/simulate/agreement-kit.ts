import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { type PushService, startPushService } from '../../../test/push-service.ts';
import { queryRows } from '../../db/client.ts';
import type { Principal } from '../../lib/auth-guard.ts';
import { type SimulateOptions, simulate } from './simulate.service.ts';

/*
 * What the simulation's agreement tests share (test-only: simulate.test.ts, journey-replay.test.ts,
 * occurrence-plan.test.ts, throttled-replay.test.ts). Each replays a day of a shop live through the collector with
 * the engine running on a clock that stands still between the walk's steps, then simulates its momentums over that
 * day and compares with the rows the engine wrote. `agreementDay` gives a test file that day's app, push service,
 * owner and shop, and the steps every agreement takes (a visit, a momentum created, a simulation, the engine's sends);
 * the scenario, its seeds and its assertions stay in each file.
 */

export const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
export const STEP_MS = 15 * 60_000;
export const HOUR_MS = 3_600_000;

/** mulberry32: the same history every run. */
export function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

type Owner = Awaited<ReturnType<typeof signUpAndSignIn>>;
type Domain = Awaited<ReturnType<typeof createDomain>>;
type SimulationResult = Awaited<ReturnType<typeof simulate>>;
type OnSent = NonNullable<SimulateOptions['onSent']>;

/** Everyone, the filter that keeps all. */
export const everyone = { type: 'filter', values: [{ filter: 'all' }] };
/** Only Chrome visitors (by the browser the collector read from their user agent). */
export const chromeOnly = {
  type: 'filter',
  values: [{ filter: 'user_stored_data.navigator.browser', comparation: '==', value: ['Chrome'] }],
};
/** A trigger block of one condition (no delay unless `values` gives `dischargeIn`). */
export const trigger = (values: Record<string, unknown>) => ({
  type: 'trigger',
  regex: false,
  values: [{ dischargeIn: [], ...values }],
});
/** An on-site top bar's values with `text` and a 'Ver' button. */
export const topbarValues = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
});
/** A dispatcher block of one on-site top bar; `extra` adds to (or replaces) its values. */
export const topbarBlock = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'dispatcher',
  values: [{ ...topbarValues(text), ...extra }],
});

/** A message the engine sent (sent, viewed or clicked): whom, which step, on which channel, at which instant (ms). */
export interface SentRow {
  person_uuid: string;
  step: number;
  channel_type: string;
  at: number;
}

/** The rows the engine wrote for a momentum, counted by status, error and trigger instant. */
export interface DeliveryCount {
  status: string;
  error: string | null;
  trigger_at: Date | string;
  n: number;
}

/**
 * A day of a shop at `root` for the test file that calls it (at its top level): before its tests, an app whose clock
 * reads `frozen`, a push service and a signed-in owner; after them, both closed. `openShop` creates the shop's domain.
 */
export function agreementDay(root: string) {
  let app: TestApp | undefined;
  let pushService: PushService | undefined;
  let signedIn: Owner | undefined;
  let shop: Domain | undefined;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`agreementDay: ${what} is not there yet`);
    return value;
  };

  beforeAll(async () => {
    app = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
    pushService = await startPushService();
    signedIn = await signUpAndSignIn(app.app);
    // A clock that stands still: each step of the walk happens at its exact instant.
    app.clock.now = () => new Date(day.frozen);
  });
  afterAll(async () => {
    await app?.close();
    await pushService?.close();
  });

  const day = {
    /** The instant the app's clock reads (ms since the epoch); each step of the walk sets it. */
    frozen: 0,
    get t() {
      return ready(app, 'the app');
    },
    get push() {
      return ready(pushService, 'the push service');
    },
    get owner() {
      return ready(signedIn, 'the owner');
    },
    /** The shop's domain, once `openShop` created it. */
    get domain() {
      return ready(shop, 'the shop');
    },

    /** Creates the shop's domain at `root`, with a frequency cap of `capPerDay` a day if given. */
    async openShop(name: string, capPerDay?: number) {
      shop = await createDomain(day.t.app, day.owner, name, root);
      if (capPerDay !== undefined) {
        const cap = await call(
          day.t.app,
          'PUT',
          `/api/domain/frequency/${shop.uuid}`,
          { domain: { frequency_cap_day: capPerDay, frequency_cap_week: null } },
          day.owner.token,
        );
        expect(cap.status).toBe(200);
      }
      return shop;
    },

    /** The owner as the simulation's routes see them. */
    principal(): Principal {
      const owner = day.owner;
      return {
        token: owner.token,
        sessionId: '',
        userUuid: owner.signin.body.data.user_uuid,
        companyUuid: owner.company.uuid,
        username: owner.user.username,
        role: 'admin',
      };
    },

    /** A visitor's events through the collector (on the visitor's clock `tz` if given), ingested before it returns. */
    async collect(vid: string, ua: string, events: object[], tz?: string) {
      const res = await day.t.app.inject({
        method: 'POST',
        url: '/collect',
        headers: { 'content-type': 'text/plain', origin: root, 'user-agent': ua },
        payload: JSON.stringify({ id: day.domain.gero_id, vid, e: events, ...(tz ? { tz } : {}) }),
      });
      expect(res.statusCode).toBe(202);
      await day.t.app.ingestor.drain();
    },

    /** A push message's values titled `title`, with the shop's icon and offers page. */
    pushValues: (title: string) => ({
      filter: 'CELL_NOTIFICATION',
      name: title,
      title,
      message: 'Aproveite hoje.',
      icon_uri: `${root}/icone.png`,
      redirect_uri: `${root}/ofertas`,
    }),
    /** A dispatcher block of one push message; `extra` adds to (or replaces) its values. */
    pushBlock: (title: string, extra: Record<string, unknown> = {}) => ({
      type: 'dispatcher',
      values: [{ ...day.pushValues(title), ...extra }],
    }),

    /** An Active momentum of the shop (its body names its title), created through the API: its uuid. */
    async createMomentum(body: Record<string, unknown>) {
      const res = await call(
        day.t.app,
        'POST',
        '/api/momentum/create',
        { domain_uuid: day.domain.uuid, status: 'Active', ...body },
        day.owner.token,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.uuid as string;
    },

    /** The simulation of the saved momentum `uuid` (as `body`, which names its title) over the day before the clock. */
    simulateDay(uuid: string, body: Record<string, unknown>, onSent: OnSent): Promise<SimulationResult> {
      return simulate(
        day.t.app.ctx,
        day.principal(),
        { momentum: { domain_uuid: day.domain.uuid, uuid, ...body } as never, days: 1 },
        new AbortController().signal,
        { onSent },
      );
    },

    /** The messages the engine sent for a momentum, in no order. */
    sentBy: async (momentumUuid: string): Promise<SentRow[]> =>
      (
        await queryRows<SentRow>(
          day.t.app.ctx.db,
          sql`SELECT person_uuid::text, step, channel_type, floor(extract(epoch FROM sent_at) * 1000)::float8 AS at
            FROM deliveries
            WHERE momentum_uuid = ${momentumUuid}::uuid AND status IN ('sent', 'viewed', 'clicked')`,
        )
      ).map((r) => ({ ...r, at: Number(r.at) })),

    /** Every row the engine wrote for a momentum, counted by status, error and trigger instant. */
    rowsBy: (momentumUuid: string) =>
      queryRows<DeliveryCount>(
        day.t.app.ctx.db,
        sql`SELECT status, error, trigger_at, count(*)::int AS n FROM deliveries
            WHERE momentum_uuid = ${momentumUuid}::uuid GROUP BY status, error, trigger_at`,
      ),
  };
  return day;
}

/** How many rows `rows` count, of those `where` keeps. */
export const countRows = (rows: DeliveryCount[], where: (r: DeliveryCount) => boolean = () => true) =>
  rows.filter(where).reduce((s, r) => s + r.n, 0);
