import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import {
  agreementDay,
  CHROME,
  chromeOnly,
  countRows,
  everyone,
  FIREFOX,
  HOUR_MS,
  prng,
  type SentRow,
  STEP_MS,
  topbarBlock,
  trigger,
} from './agreement-kit.ts';

/*
 * Issue #28's agreement: a recorded day of a shop (visitors on Chrome and Firefox, some subscribed to push, page
 * views, cart events, abandoned bags) is replayed live through the collector with the engine running, for a
 * momentum of each trigger kind (page view with a filter and a worktime window, event with a delay and repeats on
 * the on-site channel, abandon with its wait and goal page, a daily recurrence with a filter, a throttled campaign),
 * under a frequency cap of 3 a day and quiet hours on each visitor's clock (some in Manaus; the page-view momentum's
 * worktime on the visitor's clock too); then each momentum is simulated over that day and must name exactly the people, and
 * count exactly the messages, the engine really sent. The clock stands still between the walk's steps, so every
 * instant (events, delays, worktime openings) falls where the simulation puts it.
 */

const ROOT = 'https://loja-simulada.com.br';

const day = agreementDay(ROOT);
const { pushBlock } = day;
const onsiteBlock = (extra: Record<string, unknown> = {}) => topbarBlock('Seu tênis espera por você', extra);
const notFirefox = {
  type: 'filter',
  values: [{ filter: 'user_stored_data.navigator.browser', comparation: '!=', value: ['Firefox'] }],
};

/** How many messages the engine sent each person, by person. */
const messagesPerPerson = (sent: SentRow[]) => {
  const counts = new Map<string, number>();
  for (const r of sent) counts.set(r.person_uuid, (counts.get(r.person_uuid) ?? 0) + 1);
  return [...counts]
    .map(([person_uuid, n]) => ({ person_uuid, n }))
    .sort((a, b) => a.person_uuid.localeCompare(b.person_uuid));
};

describe('a simulation agrees with what the engine sent', () => {
  it('names the same people and counts the same messages, for every trigger kind', async () => {
    // 08:30 in São Paulo, two days ago: the day replayed runs from here.
    const start = new Date(Date.now() - 2 * 86_400_000);
    start.setUTCHours(11, 30, 0, 0);
    day.frozen = start.getTime();
    const { t, push, owner } = day;
    const domain = await day.openShop('Loja simulada', 3);
    // Issue #27: quiet hours on each person's clock (some visitors are in Manaus, an hour behind).
    const quiet = await call(
      t.app,
      'PUT',
      `/api/domain/update/${domain.uuid}`,
      { domain: { quiet_hours: { start: '05:30', end: '09:00' } } },
      owner.token,
    );
    expect(quiet.status, JSON.stringify(quiet.body)).toBe(200);

    const random = prng(28);
    const visitors = Array.from({ length: 14 }, (_, i) => ({
      vid: `v-${i}-${randomUUID()}`,
      ua: i % 3 === 2 ? FIREFOX : CHROME,
      subscribed: i % 4 !== 3,
      tz: i % 5 === 1 ? 'America/Manaus' : undefined,
    }));
    for (const v of visitors) {
      await day.collect(v.vid, v.ua, [{ t: 'pv', u: `${ROOT}/` }], v.tz);
      if (v.subscribed) await day.collect(v.vid, v.ua, [{ t: 'optin', s: push.newSubscription().subscription }]);
    }

    const bodies: Record<string, Record<string, unknown>> = {
      pageview: {
        type: 'momentum',
        momentums: [
          chromeOnly,
          trigger({ filter: 'pageview', comparation: 'contain', value: ['/produto'] }),
          pushBlock('Produto visto'),
        ],
        worktime: { weekdays: [0, 1, 2, 3, 4, 5, 6], start_at: '12:00', stop_at: '18:00' },
        worktime_zone: 'visitor',
      },
      event: {
        type: 'momentum',
        momentums: [
          notFirefox,
          trigger({
            filter: 'events',
            parentCategory: 'adicionar_ao_carrinho',
            key: 'produto',
            comparation: 'contain',
            value: ['tênis'],
            dischargeIn: [900],
          }),
          onsiteBlock({ intervalRecurrency: [3 * 3600] }),
        ],
      },
      abandon: {
        type: 'momentum',
        momentums: [
          everyone,
          trigger({
            filter: 'abandon',
            comparation: 'contain',
            comparation2: 'contain',
            value: ['/sacola'],
            value2: ['/obrigado'],
            dischargeIn: [1800],
          }),
          pushBlock('Sua sacola espera'),
        ],
      },
      recurrence: {
        type: 'momentum',
        momentums: [
          chromeOnly,
          trigger({ filter: 'recurrence', comparation: 'daily', value: [], hours: '10:00' }),
          pushBlock('Ofertas do dia'),
        ],
      },
    };
    const uuids: Record<string, string> = {};
    for (const [name, body] of Object.entries(bodies))
      uuids[name] = await day.createMomentum({ momentum_title: `Simulado ${name}`, ...body });

    const end = start.getTime() + 24 * HOUR_MS;
    const campaignAt = start.getTime() + 8 * STEP_MS + 30 * 60_000; // 11:00 in São Paulo
    bodies.campaign = {
      type: 'campaign',
      throttle_per_minute: 4,
      momentums: [everyone, pushBlock('Campanha de terça')],
    };
    const pages = ['/', '/produto/tenis-azul', '/produto/meia', '/sacola', '/obrigado', '/blog/corrida'];
    for (let at = start.getTime() + STEP_MS; at <= end; at += STEP_MS) {
      day.frozen = at;
      if (at === campaignAt) {
        uuids.campaign = await day.createMomentum({ momentum_title: 'Simulado campaign', ...bodies.campaign });
        bodies.campaign.scheduled_at = new Date(at).toISOString();
      }
      // Visits stop two hours before the end: nothing the engine would send after the end is due inside it.
      if (at < end - 2 * HOUR_MS) {
        for (const v of visitors) {
          const r = random();
          if (r > 0.3) continue;
          const events =
            r < 0.06
              ? [{ t: 'ev', c: 'adicionar_ao_carrinho', p: { produto: random() < 0.6 ? 'Tênis azul' : 'Meia' } }]
              : [{ t: 'pv', u: `${ROOT}${pages[Math.floor(random() * pages.length)]}` }];
          await day.collect(v.vid, v.ua, events);
        }
      }
      await t.app.engine.settle();
    }

    const totals = { sent: 0, filter: 0, cap: 0, channel: 0, goal: 0 };
    for (const [name, body] of Object.entries(bodies)) {
      const simulated = new Map<string, number>();
      const result = await day.simulateDay(uuids[name]!, { momentum_title: `Simulado ${name}`, ...body }, (p) =>
        simulated.set(p, (simulated.get(p) ?? 0) + 1),
      );
      const live = messagesPerPerson(await day.sentBy(uuids[name]!));
      expect(
        [...simulated]
          .map(([p, n]) => ({ person_uuid: p, n }))
          .sort((a, b) => a.person_uuid.localeCompare(b.person_uuid)),
        `${name}: ${JSON.stringify(result.stages)}`,
      ).toEqual(live);
      expect(result.messages).toBe(live.reduce((s, r) => s + r.n, 0));
      expect(result.persons).toBe(live.length);
      const last = result.stages[result.stages.length - 1]!;
      expect(last.entered - last.removed).toBe(result.messages);
      expect(result.by_day.reduce((s, d) => s + d.persons, 0)).toBeGreaterThanOrEqual(result.persons);
      const removed = (stage: string) => result.stages.find((s) => s.stage === stage)!.removed;
      totals.sent += result.messages;
      totals.filter += removed('filter');
      totals.cap += removed('frequency_cap');
      totals.channel += removed('channel');
      totals.goal += removed('trigger');
      // The funnel counts the rows the engine wrote: each planned send (a fan-out writes none for those out of
      // the filter), the goal's cancellations, the cap's refusals (and what waits for it at the end).
      const rows = await day.rowsBy(uuids[name]!);
      const count = (where: (r: (typeof rows)[number]) => boolean) => countRows(rows, where);
      const planned =
        name === 'recurrence' || name === 'campaign'
          ? result.stages[0]!.entered - removed('filter')
          : result.stages[0]!.entered;
      expect(planned, `${name}: ${JSON.stringify(rows)} ${JSON.stringify(result.stages)}`).toBe(count(() => true));
      expect(removed('trigger')).toBe(count((r) => r.error === 'O visitante chegou à página de objetivo.'));
      expect(removed('frequency_cap')).toBe(count((r) => r.error === 'limite de frequência'));
      expect(live.length, `${name} enviou a alguém`).toBeGreaterThan(0);
    }
    // The history exercises every stage the agreement is about.
    expect(totals.filter).toBeGreaterThan(0);
    expect(totals.cap).toBeGreaterThan(0);
    expect(totals.channel).toBeGreaterThan(0);
    expect(totals.goal).toBeGreaterThan(0);
  }, 180_000);
});

describe('POST /api/momentum/simulate', () => {
  let api: TestApp;
  let me: Awaited<ReturnType<typeof signUpAndSignIn>>;
  let site: Awaited<ReturnType<typeof createDomain>>;
  const logs: { code?: string; msg?: string }[] = [];

  /** A domain with a day of history written straight into the tables: 2,000 visitors, 60,000 page views. */
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line));
        done();
      },
    });
    api = await createTestApp(
      { authRateLimit: 1000, allowPrivateFetch: true, logLevel: 'warn' },
      { logStream: stream },
    );
    me = await signUpAndSignIn(api.app);
    site = await createDomain(api.app, me, 'Loja movimentada', 'https://loja-movimentada.com.br');
    const now = api.clock.now();
    await api.app.ctx.db.execute(sql`
      INSERT INTO persons (uuid, domain_uuid, visitor_id, attributes, first_seen, last_seen)
      SELECT gen_random_uuid(), ${site.uuid}::uuid, 'visitante-' || g, '{}'::jsonb, ${now}::timestamptz - interval '1 day',
             ${now}::timestamptz
      FROM generate_series(1, 2000) AS g`);
    await api.app.ctx.db.execute(sql`
      INSERT INTO events (domain_uuid, person_uuid, kind, url, ts)
      SELECT ${site.uuid}::uuid, p.uuid, 'pageview', 'https://loja-movimentada.com.br/produto/' || (g % 40),
             ${now}::timestamptz - make_interval(secs => g * 1400 + (hashtext(p.visitor_id) & 1023))
      FROM persons p CROSS JOIN generate_series(1, 30) AS g WHERE p.domain_uuid = ${site.uuid}::uuid`);
  });
  afterAll(async () => {
    await api.close();
  });

  const draft = (over: Record<string, unknown> = {}) => ({
    domain_uuid: site.uuid,
    type: 'momentum',
    momentum_title: '',
    momentums: [
      everyone,
      trigger({ filter: 'pageview', comparation: 'contain', value: ['/produto/'] }),
      onsiteBlock({ intervalRecurrency: [3600] }),
    ],
    ...over,
  });
  const simulateCall = (body: unknown, token = me.token) =>
    call(api.app, 'POST', '/api/momentum/simulate', body, token);

  it('answers the funnel, the days and a sample, for a draft that was never saved', async () => {
    const res = await simulateCall({ momentum: draft(), days: 7 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data.stages.map((s: { stage: string }) => s.stage)).toEqual([
      'trigger',
      'filter',
      'channel',
      'schedule',
      'frequency_cap',
      'control_group',
    ]);
    expect(data.persons).toBe(2000);
    expect(data.messages).toBeGreaterThan(2000);
    expect(data.by_channel).toEqual([{ channel: 'SUPERARE_WEBVIEW', messages: data.messages }]);
    expect(data.by_day).toHaveLength(8);
    expect(data.sample).toHaveLength(20);
    // An on-site message's words: the topbar's text, not its button.
    expect(data.sample[0]).toMatchObject({ stage: 'sent', reason: null, message: 'Seu tênis espera por você' });
    expect(data.sample[0].recipient).toMatch(/^visitante-\d+$/);
    expect(typeof data.took_ms).toBe('number');
    // Nothing was written.
    const [written] = await queryRows<{ n: number }>(api.app.ctx.db, sql`SELECT count(*)::int AS n FROM deliveries`);
    expect(written!.n).toBe(0);
  });

  it('refuses another period, another company, and a momentum without trigger or channel, in pt-BR', async () => {
    const days = await simulateCall({ momentum: draft(), days: 5 });
    expect(days.status).toBe(400);
    expect(days.body.message).toContain('1, 7 ou 30 dias');
    const stranger = await signUpAndSignIn(api.app);
    const other = await simulateCall({ momentum: draft(), days: 1 }, stranger.token);
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('DOMAIN_NOT_FOUND');
    const noTrigger = await simulateCall({ momentum: draft({ momentums: [everyone, onsiteBlock()] }), days: 1 });
    expect(noTrigger.status).toBe(400);
    expect(noTrigger.body.message).toContain('precisa de gatilho e canal');
    const notMine = await simulateCall({ momentum: draft({ uuid: randomUUID() }), days: 1 });
    expect(notMine.status).toBe(404);
  });

  it('is described in the OpenAPI document, with its body and its answers', async () => {
    const spec = (await api.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const op = spec.paths['/api/momentum/simulate'].post;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '403', '404', '429']);
    expect(op.requestBody.content['application/json'].schema.required).toEqual(['momentum', 'days']);
  });

  it('runs one simulation at a time per user: a second one meanwhile is refused with 429', async () => {
    const [a, b] = await Promise.all([
      simulateCall({ momentum: draft(), days: 7 }),
      simulateCall({ momentum: draft(), days: 7 }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 429]);
    expect([a, b].find((r) => r.status === 429)!.body.message).toBe(
      'Você já tem uma simulação em andamento. Aguarde o resultado dela antes de simular de novo.',
    );
    expect((await simulateCall({ momentum: draft(), days: 1 })).status).toBe(200);
  });

  it('stops when the client goes away, and the user may simulate again', async () => {
    const address = await api.app.listen({ port: 0, host: '127.0.0.1' });
    const abort = new AbortController();
    const pending = fetch(`${address}/api/momentum/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${me.token}` },
      body: JSON.stringify({ momentum: draft(), days: 30 }),
      signal: abort.signal,
    }).catch(() => null);
    await new Promise((r) => setTimeout(r, 30));
    abort.abort();
    await pending;
    // Up to 15 s for the replay to notice (a loaded box runs the test files beside it).
    for (let i = 0; i < 300 && !logs.some((l) => l.code === 'SIMULATION_CANCELLED'); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(logs.some((l) => l.code === 'SIMULATION_CANCELLED')).toBe(true);
    expect((await simulateCall({ momentum: draft(), days: 1 })).status).toBe(200);
  });
});
