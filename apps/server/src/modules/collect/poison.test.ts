import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectMessages, msg } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';
import { createIngestor, type IncomingRequest } from './ingest.ts';
import { createSpool } from './spool.ts';

/*
 * One request with a value the database refuses must never cost the other requests of its batch, other companies'
 * included: the collector cleans or refuses what PostgreSQL cannot store, and whatever still gets refused is split
 * out of its batch, quarantined on disk with the reason and never replayed, live and after a restart alike.
 */

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const NUL = String.fromCharCode(0);
const sites = ['https://loja-a.com.br', 'https://loja-b.com.br', 'https://loja-c.com.br'];

let t: TestApp;
let spoolRoot: string;
let shops: { site: string; uuid: string; gero_id: string }[];

beforeAll(async () => {
  spoolRoot = mkdtempSync(path.join(tmpdir(), 'impeto-poison-'));
  t = await createTestApp({ collectSpool: spoolRoot });
  shops = [];
  for (const [i, site] of sites.entries()) {
    const owner = await signUpAndSignIn(t.app);
    shops.push({ site, ...(await createDomain(t.app, owner, `Loja ${i}`, site)) });
  }
});
afterAll(async () => {
  await t?.close();
  rmSync(spoolRoot, { recursive: true, force: true });
});

const collect = (shop: (typeof shops)[number], body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: shop.site, 'user-agent': CHROME },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const urlsOf = async (prefix: string) =>
  (
    await queryRows<{ url: string }>(
      t.app.ctx.db,
      sql`SELECT url FROM events WHERE url LIKE ${`${prefix}%`} ORDER BY url`,
    )
  ).map((r) => r.url);

const request = (shop: (typeof shops)[number], vid: string, pages: string[], title = 'Loja'): IncomingRequest => ({
  domainUuid: shop.uuid,
  visitorId: vid,
  device: { browser: 'Chrome', version: '130', os: 'Windows', device: 'desktop', mobile: false },
  geo: { country: 'BR' },
  language: 'pt-BR',
  receivedAt: new Date('2026-11-20T15:00:00Z'),
  events: pages.map((u) => ({ t: 'pv' as const, u, ti: title, ts: Date.parse('2026-11-20T15:00:00Z') })),
});

/** 30 requests of the three companies with, in the middle, one whose page title PostgreSQL refuses (NUL). */
const poisonedBatch = (run: string) => {
  const requests: IncomingRequest[] = [];
  for (let i = 0; i < 30; i++) {
    const shop = shops[i % 3]!;
    requests.push(request(shop, `${run}-${i % 7}`, [`${shop.site}/${run}/${i}/a`, `${shop.site}/${run}/${i}/b`]));
    if (i === 16) requests.push(request(shops[0]!, `${run}-veneno`, [`${shops[0]!.site}/${run}/veneno`], `x${NUL}y`));
  }
  return requests;
};
const expected = (run: string) =>
  Array.from({ length: 30 }, (_, i) => [`${sites[i % 3]}/${run}/${i}/a`, `${sites[i % 3]}/${run}/${i}/b`]).flat();
const storedOf = async (run: string) =>
  (await Promise.all(sites.map((site) => urlsOf(`${site}/${run}/`)))).flat().filter((u) => !u.includes('veneno'));

const quarantineFiles = () =>
  readdirSync(spoolRoot, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.split(path.sep).includes('quarantine') && f.endsWith('.json'))
    .map((f) => path.join(spoolRoot, f));
const segments = () => readdirSync(spoolRoot, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.seg'));

/** A pid that no process has now: a child that already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe('strings PostgreSQL cannot store, at the collector', () => {
  it('cleans NUL and unpaired surrogates out of free text and stores the event beside another company’s', async () => {
    const [a, b] = [shops[0]!, shops[1]!];
    const dirty = await collect(a, {
      id: a.gero_id,
      vid: 'limpo-1',
      l: `pt-BR${NUL}`,
      e: [
        { t: 'pv', u: `${a.site}/limpeza/1${NUL}`, r: `https://busca.com.br/${NUL}`, ti: `Oferta${NUL} \uD800do dia` },
        { t: 'ev', c: 'carrinho', p: { [`produto${NUL}`]: `Tênis${NUL}`, [NUL]: 'some', valor: 10 } },
        { t: 'id', p: { name: `Ana${NUL}`, plano: '\uDC00ouro' } },
      ],
    });
    const clean = await collect(b, { id: b.gero_id, vid: 'limpo-2', e: [{ t: 'pv', u: `${b.site}/limpeza/2` }] });
    expect(dirty.statusCode).toBe(202);
    expect(dirty.json()).toEqual({ accepted: 3, rejected: [], onsite: [] });
    expect(clean.statusCode).toBe(202);
    await t.app.ingestor.drain();

    const rows = await queryRows<{ kind: string; url: string | null; props: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`SELECT e.kind, e.url, e.props FROM events e JOIN persons p ON p.uuid = e.person_uuid
          WHERE p.visitor_id = 'limpo-1' ORDER BY e.id`,
    );
    expect(rows).toEqual([
      {
        kind: 'pageview',
        url: `${a.site}/limpeza/1`,
        props: { referrer: 'https://busca.com.br/', title: 'Oferta \uFFFDdo dia' },
      },
      { kind: 'event', url: null, props: { produto: 'Tênis', valor: 10 } },
      { kind: 'identify', url: null, props: { name: 'Ana', plano: '\uFFFDouro' } },
    ]);
    const [person] = await queryRows<{ name: string; attributes: Record<string, unknown> }>(
      t.app.ctx.db,
      sql`SELECT name, attributes FROM persons WHERE visitor_id = 'limpo-1'`,
    );
    expect(person).toMatchObject({ name: 'Ana', attributes: { 'navigator.language': 'pt-BR' } });
    expect(await urlsOf(`${b.site}/limpeza/`)).toEqual([`${b.site}/limpeza/2`]);
  });

  it('refuses by index an event whose category or identifiers cannot be stored, and keeps the rest', async () => {
    const a = shops[0]!;
    const res = await collect(a, {
      id: a.gero_id,
      vid: 'recusa-1',
      e: [
        { t: 'ev', c: `compra${NUL}` },
        { t: 'pv', u: `${a.site}/recusa/ok` },
        { t: 'ev', c: 'lone\uD83D' },
        {
          t: 'optin',
          s: { endpoint: `https://fcm.googleapis.com/fcm/send/x${NUL}`, keys: { p256dh: 'BPk', auth: 'xyz' } },
        },
        { t: 'clicked', d: `d${NUL}` },
      ],
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({
      accepted: 1,
      rejected: [
        { index: 0, message: collectMessages.unstorableCategory },
        { index: 2, message: collectMessages.unstorableCategory },
        { index: 3, message: collectMessages.unstorableIdentifier },
        { index: 4, message: collectMessages.unstorableIdentifier },
      ],
      onsite: [],
    });
    await t.app.ingestor.drain();
    expect(await urlsOf(`${a.site}/recusa/`)).toEqual([`${a.site}/recusa/ok`]);
  });

  it('answers 400 in pt-BR to a visitor id or tracking id with NUL, on the beacon and on the poll', async () => {
    const a = shops[0]!;
    const badVisitor = await collect(a, { id: a.gero_id, vid: `v${NUL}`, e: [{ t: 'pv', u: `${a.site}/x` }] });
    expect(badVisitor.statusCode).toBe(400);
    expect(badVisitor.json()).toEqual({ code: 'INVALID_VISITOR', message: collectMessages.invalidVisitor });
    const badId = await collect(a, { id: `${a.gero_id}${NUL}`, vid: 'v', e: [{ t: 'pv', u: `${a.site}/x` }] });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe(collectMessages.invalidBatch);
    for (const query of [`id=${a.gero_id}%00&vid=v`, `id=${a.gero_id}&vid=v%00`]) {
      const poll = await t.app.inject({ method: 'GET', url: `/collect/pending?${query}` });
      expect(poll.statusCode, query).toBe(400);
      // The API-wide text rule (lib/text-guard.ts) answers a NUL in a query string before the route does.
      expect(poll.json().message).toBe(msg.input.nulCharacter);
    }
  });
});

describe('a batch the database refuses', () => {
  it('is split: the refused request is quarantined with its reason and every other company’s event is stored', async () => {
    const storedBefore = t.app.ingestor.stored();
    const quarantinedBefore = t.app.ingestor.quarantined();
    // Straight into the ingestor, as the route would after its checks, all in one turn: one batch.
    for (const r of poisonedBatch('vivo')) expect(t.app.ingestor.push(r)).toBe(true);
    await t.app.ingestor.drain();

    expect(await storedOf('vivo')).toEqual([...expected('vivo')].sort());
    expect(await urlsOf(`${sites[0]}/vivo/veneno`)).toEqual([]);
    expect(t.app.ingestor.stored() - storedBefore).toBe(60);
    expect(t.app.ingestor.quarantined() - quarantinedBefore).toBe(1);
    const [file, ...others] = quarantineFiles();
    expect(others).toEqual([]);
    const kept = JSON.parse(readFileSync(file!, 'utf8'));
    expect(kept.reason).toMatchObject({ code: '22P05' });
    expect(kept.request).toMatchObject({ domainUuid: shops[0]!.uuid, visitorId: 'vivo-veneno' });
    expect(segments()).toEqual([]);
    rmSync(file!);
  });

  it('in a spool segment left by a dead process, is split on replay; the poison is never replayed again', async () => {
    const writer = createSpool(spoolRoot, t.app.ctx.config.dataDir);
    for (const r of poisonedBatch('replay')) writer.append(JSON.stringify(r));
    writer.seal();
    const folder = path.join(path.dirname(writer.dir), `${deadPid()}-${randomUUID()}`);
    renameSync(writer.dir, folder);

    expect(await t.app.ingestor.recover()).toBe(60);
    await t.app.ingestor.drain();
    expect(await storedOf('replay')).toEqual([...expected('replay')].sort());
    expect(existsSync(folder)).toBe(false);
    expect(quarantineFiles()).toHaveLength(1);
    expect(JSON.parse(readFileSync(quarantineFiles()[0]!, 'utf8')).request.visitorId).toBe('replay-veneno');

    // The next start finds nothing to replay: the poison is in quarantine, not in the spool.
    expect(await t.app.ingestor.recover()).toBe(0);
    expect(segments()).toEqual([]);
    rmSync(quarantineFiles()[0]!);
  });

  it('a process that died while splitting is followed by one that stores each request once', async () => {
    // The victim splits and stores the batch, quarantines the poison and dies before its marks are forgotten; a copy
    // of its segment, taken before, is what a crash right before removing the file would leave.
    const writer = createSpool(spoolRoot, t.app.ctx.config.dataDir);
    const victim = createIngestor(t.app.ctx, { spool: writer });
    for (const r of poisonedBatch('metade')) victim.push(r);
    await victim.durable();
    const [segment] = readdirSync(writer.dir);
    const parked = path.join(spoolRoot, 'parked');
    mkdirSync(parked);
    copyFileSync(path.join(writer.dir, segment!), path.join(parked, segment!));
    await victim.close();
    expect(victim.stored()).toBe(60);
    expect(await storedOf('metade')).toEqual([...expected('metade')].sort());

    const folder = path.join(path.dirname(writer.dir), `${deadPid()}-${randomUUID()}`);
    renameSync(parked, folder);
    const before = t.app.ingestor.stored();
    expect(await t.app.ingestor.recover()).toBe(0);
    await t.app.ingestor.drain();
    expect(t.app.ingestor.stored()).toBe(before);
    expect(await storedOf('metade')).toEqual([...expected('metade')].sort());
    expect(existsSync(folder)).toBe(false);
    // The same request, quarantined twice, is one file.
    expect(quarantineFiles()).toHaveLength(1);
  });
});
