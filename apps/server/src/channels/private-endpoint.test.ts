import { lookup as dnsLookup } from 'node:dns';
import net, { type AddressInfo, type LookupFunction } from 'node:net';
import { collectMessages } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import webpush from 'web-push';
import {
  blocks,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../../test/harness.ts';
import { type PushService, pushServiceCert, startPushService } from '../../test/push-service.ts';
import { queryRows } from '../db/client.ts';
import type { ChannelDelivery } from './channel.ts';
import { createWebPushAdapter } from './web-push.ts';

/*
 * A push subscription is a URL a visitor hands us: without ALLOW_PRIVATE_FETCH the engine must never connect to
 * an endpoint whose host is, or resolves to, our own network. A plain TCP listener on 127.0.0.1 counts the
 * connections that reach it.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const REFUSED = /rede interna/;

let listener: net.Server;
let port: number;
let connections = 0;
let push: PushService;

beforeAll(async () => {
  listener = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  push = await startPushService();
});
afterAll(async () => {
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await push?.close();
});

/** A name that resolves to 127.0.0.1, as an attacker's DNS would answer; every other name goes to the real DNS. */
const attackerDns: LookupFunction = (hostname, options, callback) => {
  if (hostname !== 'push.atacante.com.br') return dnsLookup(hostname, options, callback);
  if ((options as { all?: boolean }).all)
    return (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address: '127.0.0.1', family: 4 },
    ]);
  callback(null, '127.0.0.1', 4);
};

/** IPv6 addresses that reach, or stand for, 127.0.0.1 or the IPv6 ranges that are not public. */
const V6_LOOPBACK = [
  '::7f00:1',
  '::127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:0:7f00:1',
  '64:ff9b::7f00:1',
  '64:ff9b:1::7f00:1',
  '2002:7f00:1::1',
  '2001:0:7f00:1::1',
  'fd00::1',
  'fe80::1',
  '::',
];
const V6_LOOPBACK_HOSTS = V6_LOOPBACK.map((a) => `[${a}]`);

const vapid = webpush.generateVAPIDKeys();
const delivery = (endpoint: string): ChannelDelivery => ({
  id: 'del-privada',
  momentumUuid: 'b9c3f0a2-0000-4000-8000-000000000001',
  domain: { uuid: 'b9c3f0a2-0000-4000-8000-000000000002', root: 'https://loja.com.br', ...vapidOf() },
  person: {
    uuid: 'b9c3f0a2-0000-4000-8000-000000000003',
    visitorId: 'v-1',
    email: null,
    phone: null,
    // Real keys, so that encryption succeeds and only the address can stop the send.
    pushSubscription: { ...push.newSubscription().subscription, endpoint },
    attributes: {},
  },
  content: { filter: 'CELL_NOTIFICATION', title: 'Oferta', message: 'Só hoje.' },
  channelProperties: {},
  ttlSeconds: 3600,
});
const vapidOf = () => ({ vapidPublic: vapid.publicKey, vapidPrivate: vapid.privateKey });

describe.skipIf(inject('dbKind') === 'postgres')('the web push adapter without ALLOW_PRIVATE_FETCH', () => {
  it('never connects to an endpoint that is or resolves to a loopback address, and says why in pt-BR', async () => {
    const adapter = createWebPushAdapter({
      subject: 'mailto:push@impeto.test',
      allowPrivate: false,
      resolve: attackerDns,
      ca: pushServiceCert,
      encryptThreads: 0,
    });
    try {
      for (const host of [
        'push.atacante.com.br',
        'localhost',
        '127.0.0.1',
        '[::ffff:127.0.0.1]',
        '[::1]',
        ...V6_LOOPBACK_HOSTS,
      ]) {
        const result = await adapter.send(delivery(`https://${host}:${port}/push/x`));
        expect(result, host).toMatchObject({ ok: false, transient: false, reason: expect.stringMatching(REFUSED) });
      }
      expect(connections).toBe(0);
    } finally {
      await adapter.close?.();
    }
  });

  it('refuses a name that resolves to an IPv6 form of a private IPv4 address (NAT64, IPv4-compatible, 6to4, ...)', async () => {
    for (const address of V6_LOOPBACK) {
      const answers = (_hostname: string, options: object, callback: (...args: unknown[]) => void) => {
        if ((options as { all?: boolean }).all) return callback(null, [{ address, family: 6 }]);
        callback(null, address, 6);
      };
      const adapter = createWebPushAdapter({
        subject: 'mailto:push@impeto.test',
        allowPrivate: false,
        resolve: answers as LookupFunction,
        encryptThreads: 0,
        timeoutMs: 2000,
      });
      try {
        const result = await adapter.send(delivery(`https://push.nat64.com.br:${port}/push/x`));
        expect(result, address).toMatchObject({ ok: false, transient: false, reason: expect.stringMatching(REFUSED) });
      } finally {
        await adapter.close?.();
      }
    }
    expect(connections).toBe(0);
  });

  it('refuses a name when any of its DNS answers is private, even after a public one (rebinding)', async () => {
    const mixed: LookupFunction = (_hostname, options, callback) => {
      const answers = [
        { address: '200.160.2.3', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ];
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: typeof answers) => void)(null, answers);
      callback(null, '200.160.2.3', 4);
    };
    const adapter = createWebPushAdapter({
      subject: 'mailto:push@impeto.test',
      allowPrivate: false,
      resolve: mixed,
      encryptThreads: 0,
    });
    try {
      const result = await adapter.send(delivery(`https://push.misto.com.br:${port}/push/x`));
      expect(result).toMatchObject({ ok: false, transient: false, reason: expect.stringMatching(REFUSED) });
      expect(connections).toBe(0);
    } finally {
      await adapter.close?.();
    }
  });

  it('with ALLOW_PRIVATE_FETCH=1 the same endpoint is connected to (the local test peers)', async () => {
    const adapter = createWebPushAdapter({
      subject: 'mailto:push@impeto.test',
      allowPrivate: true,
      resolve: attackerDns,
      encryptThreads: 0,
      timeoutMs: 2000,
    });
    try {
      const before = connections;
      const result = await adapter.send(delivery(`https://push.atacante.com.br:${port}/push/x`));
      expect(result).toMatchObject({ ok: false, transient: true });
      expect(connections).toBeGreaterThan(before);
    } finally {
      await adapter.close?.();
    }
  });
});

describe('the engine without ALLOW_PRIVATE_FETCH', () => {
  let t: TestApp;
  const SITE = 'https://loja-privada.com.br';
  beforeAll(async () => {
    t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: false });
  });
  afterAll(() => t?.close());

  const collect = (geroId: string, vid: string, events: object[]) =>
    t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': CHROME },
      payload: JSON.stringify({ id: geroId, vid, e: events }),
    });

  it('refuses at opt-in the endpoints it can tell are internal, by their text', async () => {
    const owner = await signUpAndSignIn(t.app);
    const domain = await createDomain(t.app, owner, 'Privada', SITE);
    const { subscription } = push.newSubscription();
    const hosts = [
      'localhost.',
      'intranet',
      'push.local',
      'api.internal',
      '10.0.0.7',
      '[::ffff:7f00:1]',
      ...V6_LOOPBACK_HOSTS,
    ];
    const res = await collect(
      domain.gero_id,
      'v-optin',
      hosts.map((host) => ({ t: 'optin', s: { ...subscription, endpoint: `https://${host}/push/x` } })),
    );
    expect(res.json()).toEqual({
      accepted: 0,
      rejected: hosts.map((_, index) => ({ index, message: collectMessages.privateEndpoint })),
      onsite: [],
    });
  });

  it('fails the delivery with a pt-BR reason and never connects to a subscription that resolves to 127.0.0.1', async () => {
    const owner = await signUpAndSignIn(t.app);
    const domain = await createDomain(t.app, owner, 'Privada', SITE);
    const momentum = await createMomentum(t.app, owner, domain.uuid, 'Push interno', [
      blocks.everyone,
      blocks.pageviewContaining('/oferta'),
      {
        type: 'dispatcher',
        values: [
          {
            filter: 'CELL_NOTIFICATION',
            name: 'Oferta',
            title: 'Oferta',
            message: 'Só hoje.',
            icon_uri: `${SITE}/icone.png`,
            redirect_uri: `${SITE}/oferta`,
          },
        ],
      },
    ]);
    expect((await collect(domain.gero_id, 'v-interno', [{ t: 'pv', u: `${SITE}/` }])).statusCode).toBe(202);
    await t.app.ingestor.drain();
    // A subscription stored before this check existed (or forged past it): `localhost` resolves to loopback.
    const subscription = { ...push.newSubscription().subscription, endpoint: `https://localhost:${port}/push/x` };
    await t.app.ctx.db.execute(sql`
      UPDATE persons SET push_subscription = ${JSON.stringify(subscription)}::jsonb, push_status = 'subscribed'
      WHERE domain_uuid = ${domain.uuid}::uuid AND visitor_id = 'v-interno'`);

    const before = connections;
    expect((await collect(domain.gero_id, 'v-interno', [{ t: 'pv', u: `${SITE}/oferta/1` }])).statusCode).toBe(202);
    await t.app.ingestor.drain();
    while ((await t.app.engine.dispatchDue()) > 0);

    const rows = await queryRows<{ status: string; error: string | null }>(
      t.app.ctx.db,
      sql`SELECT status, error FROM deliveries WHERE momentum_uuid = ${momentum.uuid}::uuid`,
    );
    expect(rows).toEqual([{ status: 'failed', error: expect.stringMatching(REFUSED) }]);
    expect(connections).toBe(before);
  });
});
