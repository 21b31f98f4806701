import { createECDH } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import webpush from 'web-push';
import { type PushService, pushServiceCert, startPushService } from '../../test/push-service.ts';
import type { ChannelDelivery } from './channel.ts';
import { createWebPushAdapter, MAX_PAYLOAD_BYTES } from './web-push.ts';

const content = {
  filter: 'CELL_NOTIFICATION',
  name: 'Carrinho abandonado',
  title: 'Esqueceu algo?',
  message: 'Seu carrinho ainda está esperando por você.',
  icon_uri: 'https://cdn.loja.com.br/icone.png',
  image: 'https://cdn.loja.com.br/banner.png',
  redirect_uri: 'https://loja.com.br/carrinho',
  intervalRecurrency: [],
};

const vapid = webpush.generateVAPIDKeys();

const trustsTestCertificate = () => {
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  return !!extra && existsSync(extra) && readFileSync(extra, 'utf8').includes(pushServiceCert.trim());
};

function delivery(
  subscription: ChannelDelivery['person']['pushSubscription'],
  extra: Partial<Omit<ChannelDelivery, 'person'>> = {},
): ChannelDelivery {
  return {
    id: `del-${Math.random().toString(36).slice(2)}`,
    momentumUuid: 'b9c3f0a2-0000-4000-8000-000000000001',
    domain: {
      uuid: 'b9c3f0a2-0000-4000-8000-000000000002',
      root: 'https://loja.com.br',
      vapidPublic: vapid.publicKey,
      vapidPrivate: vapid.privateKey,
    },
    person: {
      uuid: 'b9c3f0a2-0000-4000-8000-000000000003',
      visitorId: 'v-1',
      email: null,
      phone: null,
      pushSubscription: subscription,
      attributes: {},
    },
    content,
    channelProperties: {},
    ttlSeconds: 86_400,
    ...extra,
  };
}

// The adapter needs no database: run it in one of the two server projects only.
describe.skipIf(inject('dbKind') === 'postgres')('web push adapter against a local push service', () => {
  let service: PushService;
  let adapter: ReturnType<typeof createWebPushAdapter>;

  beforeAll(async () => {
    service = await startPushService();
    adapter = createWebPushAdapter({ subject: 'mailto:push@impeto.test', allowPrivate: true, ca: pushServiceCert });
  });
  afterAll(async () => {
    await adapter?.close?.();
    await service?.close();
  });

  it('delivers the payload the service worker reads, encrypted for the subscription and signed by the domain', async () => {
    const { subscription } = service.newSubscription({ applicationServerKey: vapid.publicKey });
    const d = delivery(subscription, { ttlSeconds: 3600 });
    const before = service.received.length;

    expect(await adapter.send(d)).toEqual({ ok: true });

    const got = service.received[before]!;
    expect(got.payload).toEqual({
      title: content.title,
      message: content.message,
      icon_uri: content.icon_uri,
      image: content.image,
      redirect_uri: content.redirect_uri,
      delivery_id: d.id,
    });
    expect(got.endpoint).toBe(subscription.endpoint);
    expect(got.vapidPublicKey).toBe(vapid.publicKey);
    expect(got.ttl).toBe(3600);
    expect(got.urgency).toBe('normal');
    const claims = JSON.parse(Buffer.from(got.jwt.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ aud: service.origin, sub: 'mailto:push@impeto.test' });
    expect(claims.exp - Date.now() / 1000).toBeGreaterThan(11 * 3600);
  });

  it('sends with a domain key stored without its leading zero byte (1 in 256 of the keys created before the fix)', async () => {
    // Node's ECDH.getPrivateKey() drops leading zero bytes; such a 31-byte key was stored as it came, and web-push
    // refuses any key but 32 bytes: every push of that domain failed with 'Chaves VAPID do domínio inválidas'.
    let ecdh = createECDH('prime256v1');
    do {
      ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
    } while (ecdh.getPrivateKey().length === 32);
    const short = { publicKey: ecdh.getPublicKey('base64url'), privateKey: ecdh.getPrivateKey('base64url') };
    expect(Buffer.from(short.privateKey, 'base64url').length).toBeLessThan(32);
    const { subscription } = service.newSubscription({ applicationServerKey: short.publicKey });
    const d = delivery(subscription);
    d.domain = { ...d.domain, vapidPublic: short.publicKey, vapidPrivate: short.privateKey };
    const before = service.received.length;
    expect(await adapter.send(d)).toEqual({ ok: true });
    expect(service.received[before]?.vapidPublicKey).toBe(short.publicKey);
  });

  it('leaves empty fields out and passes the buttons on', async () => {
    const { subscription } = service.newSubscription();
    const d = delivery(subscription, {
      content: {
        filter: 'CELL_NOTIFICATION',
        title: 'Oferta',
        message: 'Só hoje',
        icon_uri: 'https://cdn.loja.com.br/icone.png',
        image: '',
        redirect_uri: 'https://loja.com.br',
        notification_buttons: [
          { action: 'ver', title: 'Ver oferta', url: 'https://loja.com.br/oferta' },
          { title: '' },
          { title: 'Depois' },
        ],
      },
    });
    const before = service.received.length;
    expect(await adapter.send(d)).toEqual({ ok: true });
    expect(service.received[before]!.payload).toEqual({
      title: 'Oferta',
      message: 'Só hoje',
      icon_uri: 'https://cdn.loja.com.br/icone.png',
      redirect_uri: 'https://loja.com.br',
      buttons: [{ action: 'ver', title: 'Ver oferta', url: 'https://loja.com.br/oferta' }, { title: 'Depois' }],
      delivery_id: d.id,
    });
  });

  it('signs the VAPID header once per push service across many sends', async () => {
    const own = createWebPushAdapter({ subject: 'mailto:push@impeto.test', allowPrivate: true, ca: pushServiceCert });
    const other = await startPushService();
    try {
      const before = service.received.length;
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          own.send(delivery((i % 2 ? other : service).newSubscription().subscription)),
        ),
      );
      expect(results.every((r) => r.ok)).toBe(true);
      const here = service.received.slice(before);
      expect(here).toHaveLength(20);
      expect(other.received).toHaveLength(20);
      expect(new Set(here.map((r) => r.jwt)).size).toBe(1);
      expect(new Set(other.received.map((r) => r.jwt)).size).toBe(1);
      expect(here[0]!.jwt).not.toBe(other.received[0]!.jwt);
    } finally {
      await own.close?.();
      await other.close();
    }
  });

  it('signs again when the cached header has less than an hour left', async () => {
    let now = Date.now();
    const own = createWebPushAdapter({
      subject: 'mailto:push@impeto.test',
      allowPrivate: true,
      ca: pushServiceCert,
      wallClock: () => now,
    });
    try {
      const before = service.received.length;
      const send = () => own.send(delivery(service.newSubscription().subscription));
      await send();
      now += 10 * 3600 * 1000;
      await send();
      now += 1.5 * 3600 * 1000;
      await send();
      const jwts = service.received.slice(before).map((r) => r.jwt);
      expect(jwts).toHaveLength(3);
      expect(jwts[1]).toBe(jwts[0]);
      expect(jwts[2]).not.toBe(jwts[0]);
    } finally {
      await own.close?.();
    }
  });

  it('a signature the subscription was not made with is refused permanently', async () => {
    const other = webpush.generateVAPIDKeys();
    const { subscription } = service.newSubscription({ applicationServerKey: other.publicKey });
    expect(await adapter.send(delivery(subscription))).toEqual({
      ok: false,
      transient: false,
      reason: 'O serviço de push recusou a mensagem (403).',
    });
  });

  it.each([
    [410, {}, { ok: false, gone: true, transient: false }],
    [404, {}, { ok: false, gone: true, transient: false }],
    [429, { 'retry-after': '120' }, { ok: false, transient: true, retryAfterSeconds: 120 }],
    [500, {}, { ok: false, transient: true }],
    [503, { 'retry-after': '7' }, { ok: false, transient: true, retryAfterSeconds: 7 }],
    [403, {}, { ok: false, transient: false, reason: 'O serviço de push recusou a mensagem (403).' }],
    [400, {}, { ok: false, transient: false, reason: 'O serviço de push recusou a mensagem (400).' }],
    [413, {}, { ok: false, transient: false }],
  ])('maps a %i answer', async (status, headers, expected) => {
    const { subscription } = service.newSubscription();
    service.respondWith(subscription.endpoint, status, headers);
    const result = await adapter.send(delivery(subscription));
    expect(result).toMatchObject(expected);
    if (!result.ok) expect(result.reason).toMatch(String(status));
    if (!result.ok && status !== 404 && status !== 410) expect(result.gone).toBeUndefined();
  });

  it('speaks HTTP/2 to a push service that offers it: one connection carries a burst of sends', async () => {
    const own = createWebPushAdapter({ subject: 'mailto:push@impeto.test', allowPrivate: true, ca: pushServiceCert });
    const before = { received: service.received.length, connections: service.connections };
    try {
      const results = await Promise.all(
        Array.from({ length: 40 }, () => own.send(delivery(service.newSubscription().subscription))),
      );
      expect(results.every((r) => r.ok)).toBe(true);
      const got = service.received.slice(before.received);
      expect(got).toHaveLength(40);
      expect(new Set(got.map((r) => r.httpVersion))).toEqual(new Set(['2.0']));
      expect(service.connections - before.connections).toBe(1);
    } finally {
      await own.close?.();
    }
  });

  it('keeps to the streams a push service takes at once, queueing the rest instead of failing them', async () => {
    const narrow = await startPushService({ maxConcurrentStreams: 4 });
    narrow.delayAnswers(30);
    const own = createWebPushAdapter({ subject: 'mailto:push@impeto.test', allowPrivate: true, ca: pushServiceCert });
    try {
      const results = await Promise.all(
        Array.from({ length: 30 }, () => own.send(delivery(narrow.newSubscription().subscription))),
      );
      expect(results.filter((r) => !r.ok)).toEqual([]);
      expect(narrow.received).toHaveLength(30);
      expect(narrow.connections).toBe(1);
    } finally {
      await own.close?.();
      await narrow.close();
    }
  });

  it('leaves a connection whose stream timed out: the next send opens a new one', async () => {
    const slow = await startPushService();
    const own = createWebPushAdapter({
      subject: 'mailto:push@impeto.test',
      allowPrivate: true,
      ca: pushServiceCert,
      timeoutMs: 300,
    });
    try {
      slow.delayAnswers(2000);
      expect(await own.send(delivery(slow.newSubscription().subscription))).toMatchObject({
        ok: false,
        transient: true,
        reason: expect.stringMatching(/não respondeu/),
      });
      slow.delayAnswers(0);
      expect(await own.send(delivery(slow.newSubscription().subscription))).toEqual({ ok: true });
      expect(slow.connections).toBe(2);
    } finally {
      await own.close?.();
      await slow.close();
    }
  });

  it('falls back to HTTP/1.1 when the push service does not offer HTTP/2, with the same answers', async () => {
    const h1 = await startPushService({ http2: false });
    const own = createWebPushAdapter({ subject: 'mailto:push@impeto.test', allowPrivate: true, ca: pushServiceCert });
    try {
      const { subscription } = h1.newSubscription();
      expect(await own.send(delivery(subscription))).toEqual({ ok: true });
      expect(await own.send(delivery(subscription))).toEqual({ ok: true });
      expect(h1.received.map((r) => [r.httpVersion, (r.payload as { title?: string }).title])).toEqual([
        ['1.1', content.title],
        ['1.1', content.title],
      ]);
      h1.unsubscribe(subscription.endpoint);
      expect(await own.send(delivery(subscription))).toMatchObject({ ok: false, gone: true });
      h1.respondWith('*', 429, { 'retry-after': '30' }, 1);
      expect(await own.send(delivery(h1.newSubscription().subscription))).toMatchObject({
        ok: false,
        transient: true,
        retryAfterSeconds: 30,
      });
    } finally {
      await own.close?.();
      await h1.close();
    }
  });

  it('a 429 over HTTP/2 is transient and keeps its Retry-After', async () => {
    service.respondWith('*', 429, { 'retry-after': '12' }, 1);
    expect(await adapter.send(delivery(service.newSubscription().subscription))).toMatchObject({
      ok: false,
      transient: true,
      retryAfterSeconds: 12,
    });
  });

  it('an endpoint the service does not know is gone', async () => {
    const { subscription } = service.newSubscription();
    service.unsubscribe(subscription.endpoint);
    expect(await adapter.send(delivery(subscription))).toMatchObject({ ok: false, gone: true, transient: false });
  });

  it('a refused connection is transient', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { subscription } = service.newSubscription();
    const result = await adapter.send(delivery({ ...subscription, endpoint: `https://127.0.0.1:${port}/push/x` }));
    expect(result).toMatchObject({ ok: false, transient: true, reason: expect.stringContaining('ECONNREFUSED') });
  });

  it('a push service that does not answer in time is transient', async () => {
    const silent = net.createServer((socket) => socket.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const own = createWebPushAdapter({ subject: 'mailto:push@impeto.test', allowPrivate: true, timeoutMs: 200 });
    try {
      const { subscription } = service.newSubscription();
      const endpoint = `https://127.0.0.1:${(silent.address() as AddressInfo).port}/push/x`;
      const result = await own.send(delivery({ ...subscription, endpoint }));
      expect(result).toMatchObject({ ok: false, transient: true });
    } finally {
      await own.close?.();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it.skipIf(trustsTestCertificate())('does not trust the test certificate unless told to', async () => {
    const own = createWebPushAdapter({ subject: 'mailto:push@impeto.test', allowPrivate: true });
    try {
      const result = await own.send(delivery(service.newSubscription().subscription));
      expect(result).toMatchObject({ ok: false, transient: true });
    } finally {
      await own.close?.();
    }
  });

  it('refuses a payload bigger than a push can carry, and takes the largest that fits', async () => {
    const { subscription } = service.newSubscription();
    const overhead = JSON.stringify({ message: '', delivery_id: 'x' }).length;
    const fits = delivery(subscription, { id: 'x', content: { filter: 'CELL_NOTIFICATION', message: '' } });
    fits.content.message = 'a'.repeat(MAX_PAYLOAD_BYTES - overhead);
    expect(await adapter.send(fits)).toEqual({ ok: true });

    const before = service.received.length;
    const big = delivery(subscription, { content: { ...content, message: 'ç'.repeat(3000) } });
    const result = await adapter.send(big);
    expect(result).toMatchObject({ ok: false, transient: false, reason: expect.stringMatching(/grande demais/) });
    expect(service.received.length).toBe(before);
  });

  it('a person without a subscription is a permanent failure', async () => {
    expect(await adapter.send(delivery(null))).toEqual({
      ok: false,
      transient: false,
      reason: 'Visitante sem inscrição de push.',
    });
  });

  it('broken subscription keys are a permanent failure', async () => {
    const { subscription } = service.newSubscription();
    const result = await adapter.send(
      delivery({ ...subscription, keys: { p256dh: 'abc', auth: subscription.keys.auth } }),
    );
    expect(result).toMatchObject({ ok: false, transient: false });
  });
});
