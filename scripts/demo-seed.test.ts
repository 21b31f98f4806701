import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushService, pushServiceCertPath, startPushService } from '../apps/server/test/push-service.ts';
import { type ServerProcess, startServerProcess } from '../apps/server/test/server-process.ts';
import { startTestSite, type TestSite } from '../e2e/test-site/site.ts';
import { DEMO_TITLES, type SeedResult, seedDemo } from './demo-seed.ts';

/*
 * `npm run demo`'s seed against the real server process, as the demo starts it (PGlite, DEMO_CLOCK=1, the local
 * push service trusted through NODE_EXTRA_CA_CERTS, Cloudflare's geo headers trusted): every dashboard widget has
 * 30 days to show, the lists have every kind of item, and a second run seeds nothing again.
 */

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

const DAY_MS = 86_400_000;
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const shiftDay = (day: string, n: number) =>
  new Date(Date.parse(`${day}T12:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const start = shiftDay(today, -29);
const range = `start=${start}&end=${today}`;

let dataDir: string;
let server: ServerProcess;
let base: string;
let push: PushService;
let site: TestSite;
let seeded: SeedResult;
const lines: string[] = [];
let seconds = 0;

const get = async <T = unknown>(url: string): Promise<T> => {
  const res = await fetch(`${base}/api${url}`, { headers: { authorization: `Bearer ${seeded.token}` } });
  const body = (await res.json()) as { data: T; message?: string };
  expect(res.status, `${url}: ${body.message}`).toBe(200);
  return body.data;
};
const analytics = <T = unknown>(p: string) => get<T>(`/analytics/${seeded.domain.uuid}/${p}`);
/** Days of the range whose value is above zero. */
const daysWith = <T extends { date: string }>(rows: T[], value: (r: T) => number) =>
  new Set(rows.filter((r) => value(r) > 0).map((r) => r.date)).size;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'impeto-demo-'));
  const port = await freePort();
  server = startServerProcess({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'development',
    ALLOW_PRIVATE_FETCH: '1',
    DEMO_CLOCK: '1',
    TRUSTED_GEO_HEADERS: 'cloudflare',
    NODE_EXTRA_CA_CERTS: pushServiceCertPath,
    SECRET_KEY: 'd'.repeat(43),
  });
  base = await server.ready;
  push = await startPushService();
  const config = (await (await fetch(`${base}/api/config`)).json()) as { data: { publicUrl: string } };
  site = await startTestSite({ publicUrl: config.data.publicUrl });
  const t0 = Date.now();
  seeded = await seedDemo({ base, site, push, log: (line) => lines.push(line) });
  seconds = (Date.now() - t0) / 1000;
}, 180_000);

afterAll(async () => {
  await site?.close();
  await push?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('seeds in well under two minutes, saying what it does in pt-BR', () => {
    expect(seeded.skipped).toBe(false);
    // About 30 s on a quiet 2-core box; the bound only catches a seed gone astray on a busy one.
    expect(seconds).toBeLessThan(120);
    expect(lines.join('\n')).toMatch(/30\/30 dias de histórico/);
    expect(lines.join('\n')).toMatch(/Histórico pronto: \d+ visitas/);
  });

  it('gives the dashboard page views on at least 25 of the last 30 days, and every list widget rows', async () => {
    const perDay = await Promise.all(
      Array.from({ length: 30 }, (_, i) => shiftDay(start, i)).map(async (day) => ({
        date: day,
        ...(await analytics<{ count: number }>(`count/visits?start=${day}&end=${day}`)),
      })),
    );
    expect(daysWith(perDay, (d) => d.count)).toBeGreaterThanOrEqual(25);
    expect((await analytics<{ count: number }>(`count/visitors?${range}`)).count).toBeGreaterThan(300);
    const pages = await analytics<{ url: string }[]>(`pages/mostViewed?${range}`);
    expect(pages.map((p) => new URL(p.url).pathname)).toEqual(
      expect.arrayContaining(['/', '/produtos', '/carrinho', '/obrigado']),
    );
    const devices = await analytics<{ device: string }[]>(`visitors/device?${range}`);
    expect(devices.map((d) => d.device)).toEqual(expect.arrayContaining(['mobile', 'desktop']));
    const categories = await analytics<{ parent_category: string; amount: number }[]>(`visitors/category?${range}`);
    expect(categories.map((c) => c.parent_category)).toEqual(
      expect.arrayContaining(['ver_produto', 'adicionar_ao_carrinho', 'busca', 'compra']),
    );
    const base = await analytics<{ channel: string; amount: number }[]>(`base/channel?${range}`);
    expect(base.find((b) => b.channel === 'push')?.amount).toBeGreaterThan(50);
    expect(base.find((b) => b.channel === 'onsite')?.amount).toBeGreaterThan(50);
  });

  it('has opt-ins, deliveries and event visitors per day on at least 25 days, with opt-outs in the month', async () => {
    const optins = await analytics<{ date: string; optins: number; optouts: number }[]>(`optins/daily?${range}`);
    expect(daysWith(optins, (d) => d.optins)).toBeGreaterThanOrEqual(25);
    expect(optins.reduce((n, d) => n + d.optouts, 0)).toBeGreaterThan(0);
    const daily = await analytics<{ date: string; notifications_sent: number }[]>(`momentums/daily?${range}`);
    expect(daysWith(daily, (d) => d.notifications_sent)).toBeGreaterThanOrEqual(25);
    const [cart] = (
      await get<{ uuid: string; parent_category: string }[]>(`/person/event/${seeded.domain.uuid}`)
    ).filter((c) => c.parent_category === 'adicionar_ao_carrinho');
    const events = await get<{ date: string; amount: number }[]>(
      `/analytics/event/${cart!.uuid}/${seeded.domain.uuid}/count/dailyPeopleImpacted?period=30&end=${today}`,
    );
    expect(daysWith(events, (d) => d.amount)).toBeGreaterThanOrEqual(25);
  });

  it('has push and on-site deliveries viewed and clicked, and conversions with revenue credited to them', async () => {
    type Row = {
      momentum_uuid: string;
      momentum_title: string;
      type: string;
      notifications_sent: number;
      notifications_viewed: number;
      notifications_clicked: number;
      not_convertion: number;
      not_convertion_profit: number;
    };
    const rows = await analytics<Row[]>(`momentums/performance?${range}`);
    const of = (title: string) => rows.find((r) => r.momentum_title === title);
    for (const title of [DEMO_TITLES.pageview, DEMO_TITLES.events, DEMO_TITLES.abandon, DEMO_TITLES.recurrence]) {
      expect(of(title), title).toMatchObject({
        notifications_sent: expect.any(Number),
        notifications_viewed: expect.any(Number),
      });
      expect(of(title)!.notifications_viewed, title).toBeGreaterThan(0);
      expect(of(title)!.notifications_clicked, title).toBeGreaterThan(0);
    }
    expect(of(DEMO_TITLES.campaign)).toMatchObject({ type: 'campaign' });
    expect(of(DEMO_TITLES.campaign)!.notifications_clicked).toBeGreaterThan(0);
    expect(rows.reduce((n, r) => n + r.not_convertion, 0)).toBeGreaterThan(5);
    expect(rows.reduce((n, r) => n + r.not_convertion_profit, 0)).toBeGreaterThan(500);
    // The delivery log of the on-site momentum holds viewed and clicked messages.
    const log = await get<{ items: { viewed_at: string | null; clicked_at: string | null }[] }>(
      `/momentum/deliveries/${of(DEMO_TITLES.pageview)!.momentum_uuid}`,
    );
    expect(log.items.some((d) => d.viewed_at)).toBe(true);
    expect(log.items.some((d) => d.clicked_at)).toBe(true);
  });

  it('lists an active momentum of each trigger kind, a draft, a paused and a scheduled one, and campaigns', async () => {
    type Item = {
      momentum_title: string;
      status: string;
      scheduled_at: string | null;
      momentums: { type: string; values: { filter: string }[] }[];
    };
    const list = await get<Item[]>(`/momentum/list/${seeded.domain.uuid}?type=momentum`);
    const triggerOf = (m: Item) => m.momentums.find((b) => b.type === 'trigger')?.values[0]?.filter;
    const active = list.filter((m) => m.status === 'Active').map(triggerOf);
    expect(active.sort()).toEqual(['abandon', 'events', 'pageview', 'recurrence']);
    expect(list.filter((m) => m.status === 'Draft')).toHaveLength(1);
    expect(list.filter((m) => m.status === 'Paused' && !m.scheduled_at)).toHaveLength(1);
    expect(list.filter((m) => m.status === 'Paused' && m.scheduled_at)).toHaveLength(1);
    const campaigns = await get<Item[]>(`/momentum/list/${seeded.domain.uuid}?type=campaign`);
    expect(campaigns.map((c) => c.status).sort()).toEqual(['Active', 'Done', 'Draft', 'Paused']);
    expect(campaigns.find((c) => c.status === 'Paused')?.scheduled_at).toBeTruthy();
    const gcd = await get<(Item & { dcm_stats?: { shown: number } })[]>(
      `/momentum/list/${seeded.domain.uuid}?type=dcm`,
    );
    expect(gcd.map((g) => [g.momentum_title, g.status])).toEqual([[DEMO_TITLES.dcm, 'Active']]);
    expect(gcd[0]!.dcm_stats?.shown).toBeGreaterThan(100);

    // Issue #29: what the seed made opens in the editors with its channel (they read channel_uuid).
    const channels = await get<{ uuid: string; channel_type: string }[]>(`/domain/channels/${seeded.domain.uuid}`);
    const channelOf = new Map(channels.map((c) => [c.channel_type, c.uuid]));
    const withChannel = [...list, ...campaigns].filter((m) => m.momentums.some((b) => b.type === 'dispatcher'));
    expect(withChannel.length).toBeGreaterThan(8);
    for (const m of withChannel) {
      const type = m.momentums.find((b) => b.type === 'dispatcher')?.values[0]?.filter ?? '';
      expect((m as Item & { channel_uuid: string | null }).channel_uuid, m.momentum_title).toBe(channelOf.get(type));
    }
  });

  it('makes visitors of varied browsers, systems, devices, countries and cities, the channels and the gallery', async () => {
    // Four pages of 50: the visitors abroad are 4 in 94, so one page of the newest can hold none of them.
    const persons: { user_stored_data: Record<string, unknown> }[] = [];
    for (let page = 1; page <= 4; page++)
      persons.push(
        ...(await get<{ user_stored_data: Record<string, unknown> }[]>(
          `/person/list/${seeded.domain.uuid}?page=${page}`,
        )),
      );
    expect(persons.length).toBe(200);
    const distinct = (key: string) => new Set(persons.map((p) => p.user_stored_data[key]).filter(Boolean)).size;
    expect(distinct('navigator.browser')).toBeGreaterThanOrEqual(3);
    expect(distinct('client.device.os')).toBeGreaterThanOrEqual(3);
    expect(distinct('client.location.city')).toBeGreaterThanOrEqual(5);
    expect(distinct('client.location.country')).toBeGreaterThanOrEqual(2);
    const channels = await get<{ channel_type: string }[]>(`/domain/channels/${seeded.domain.uuid}`);
    expect(channels.map((c) => c.channel_type).sort()).toEqual(['CELL_NOTIFICATION', 'SUPERARE_WEBVIEW']);
    const media = await get<unknown[]>(`/gallery/list/${seeded.domain.uuid}/domain`);
    expect(media.length).toBeGreaterThanOrEqual(4);
    // The clock is the real one again: "now" is now.
    const clock = (await (await fetch(`${base}/api/dev/clock`)).json()) as { data: { shifted: boolean } };
    expect(clock.data.shifted).toBe(false);
  });

  it('a second run on the same data seeds nothing again', async () => {
    const before = await analytics<{ count: number }>(`count/visits?${range}`);
    const again = await seedDemo({ base, site, push, log: (line) => lines.push(line) });
    expect(again.skipped).toBe(true);
    expect(lines.at(-1)).toMatch(/já estão neste DATA_DIR/);
    expect(await analytics<{ count: number }>(`count/visits?${range}`)).toEqual(before);
    const list = await get<unknown[]>(`/momentum/list/${seeded.domain.uuid}?type=momentum`);
    expect(list).toHaveLength(7);
  }, 60_000);
});
