import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASE, buildTag, releases, VAPID } from './harness.ts';

let tag: ReturnType<typeof buildTag>;
beforeAll(() => {
  tag = buildTag();
});
afterAll(() => tag?.remove());

type Handler = (event: Record<string, unknown>) => void;

// Runs a built sw.js as /t/sw.js serves it (with `self.__GERO` prepended) in a fake worker scope.
const worker = (version: string) => {
  const handlers: Record<string, Handler> = {};
  const reports: { url: string; body: { id: string; vid?: string; e: Record<string, unknown>[] } }[] = [];
  const registration = {
    showNotification: vi.fn(async (_title: string, _options: unknown) => {}),
    pushManager: {
      subscribe: vi.fn(async (_options: unknown) => ({
        toJSON: () => ({
          endpoint: 'https://push.example/nova',
          expirationTime: null,
          keys: { p256dh: 'k', auth: 'a' },
        }),
      })),
    },
  };
  const clients = { openWindow: vi.fn(async (_url: string) => ({})) };
  const fetch = vi.fn(async (url: string, init?: { body: string }) => {
    if (url.includes('/t/config/')) return { json: async () => ({ vapid_public: VAPID }) };
    reports.push({ url, body: JSON.parse(init!.body) });
    return { ok: true };
  });
  const self = { registration, clients, addEventListener: (type: string, fn: Handler) => (handlers[type] = fn) };
  const code = `self.__GERO=${JSON.stringify({ base: BASE, id: 'g1' })};\n${tag.read(`cnsw/${version}/sw.js`)}`;
  runInNewContext(code, { self, fetch, atob, Uint8Array, Date, Promise, JSON, String, encodeURIComponent });
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    handlers[type]!({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  return { dispatch, registration, clients, fetch, reports };
};

const payload = {
  title: 'Oferta relâmpago',
  message: 'Só hoje: 20% off',
  icon_uri: 'https://cdn.example/icone.png',
  image: 'https://cdn.example/banner.png',
  redirect_uri: 'https://loja.example/ofertas',
  delivery_id: 'd-1',
  buttons: [
    { action: 'ver', title: 'Ver oferta', url: 'https://loja.example/oferta/1' },
    { title: 'Carrinho', url: 'https://loja.example/carrinho' },
  ],
};
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v));

describe.each(releases.serviceWorker.map((r) => r.version))('the service worker %s', (version) => {
  it('shows a push and reports viewed', async () => {
    const sw = worker(version);
    await sw.dispatch('push', { data: { json: () => payload, text: () => '' } });
    const [title, options] = sw.registration.showNotification.mock.calls[0]!;
    expect(title).toBe('Oferta relâmpago');
    expect(plain(options)).toEqual({
      body: 'Só hoje: 20% off',
      icon: 'https://cdn.example/icone.png',
      image: 'https://cdn.example/banner.png',
      tag: 'd-1',
      data: { url: 'https://loja.example/ofertas', delivery_id: 'd-1', buttons: payload.buttons },
      actions: [
        { action: 'ver', title: 'Ver oferta' },
        { action: '1', title: 'Carrinho' },
      ],
    });
    expect(sw.fetch).toHaveBeenCalledWith(`${BASE}/collect`, expect.objectContaining({ method: 'POST' }));
    expect(sw.fetch.mock.calls[0]![1]).toMatchObject({ headers: { 'content-type': 'text/plain' } });
    expect(sw.reports).toEqual([
      { url: `${BASE}/collect`, body: { id: 'g1', e: [{ t: 'viewed', d: 'd-1', ts: expect.any(Number) }] } },
    ]);
  });

  it('shows a text push without reporting when there is no delivery', async () => {
    const sw = worker(version);
    await sw.dispatch('push', {
      data: {
        json: () => {
          throw new SyntaxError('not json');
        },
        text: () => 'Olá',
      },
    });
    expect(sw.registration.showNotification.mock.calls[0]![1]).toMatchObject({ body: 'Olá' });
    expect(sw.reports).toEqual([]);
  });

  it.each([
    ['', 'https://loja.example/ofertas'],
    ['ver', 'https://loja.example/oferta/1'],
    ['1', 'https://loja.example/carrinho'],
  ])('a click on action "%s" opens %s and reports clicked', async (action, url) => {
    const sw = worker(version);
    const close = vi.fn();
    const data = { url: payload.redirect_uri, delivery_id: 'd-1', buttons: payload.buttons };
    await sw.dispatch('notificationclick', { action, notification: { data, close } });
    expect(close).toHaveBeenCalled();
    expect(sw.clients.openWindow).toHaveBeenCalledWith(url);
    expect(sw.reports.map((r) => r.body.e)).toEqual([[{ t: 'clicked', d: 'd-1', ts: expect.any(Number) }]]);
  });

  it('re-subscribes on pushsubscriptionchange with the old options and reports the new subscription', async () => {
    const sw = worker(version);
    const options = { userVisibleOnly: true, applicationServerKey: new Uint8Array([1, 2, 3]).buffer };
    await sw.dispatch('pushsubscriptionchange', {
      oldSubscription: { endpoint: 'https://push.example/velha', options },
      newSubscription: null,
    });
    expect(sw.registration.pushManager.subscribe).toHaveBeenCalledWith(options);
    expect(sw.reports).toEqual([
      {
        url: `${BASE}/collect`,
        body: {
          id: 'g1',
          e: [
            {
              t: 'optin',
              s: { endpoint: 'https://push.example/nova', keys: { p256dh: 'k', auth: 'a' } },
              o: 'https://push.example/velha',
              ts: expect.any(Number),
            },
          ],
        },
      },
    ]);
  });

  it('without the old options it takes the VAPID key from the domain settings', async () => {
    const sw = worker(version);
    await sw.dispatch('pushsubscriptionchange', { oldSubscription: null, newSubscription: null });
    expect(sw.fetch).toHaveBeenCalledWith(`${BASE}/t/config/g1`);
    const used = sw.registration.pushManager.subscribe.mock.calls[0]![0] as { applicationServerKey: Uint8Array };
    expect(Buffer.from(used.applicationServerKey).toString('base64url')).toBe(VAPID);
    expect(sw.reports[0]!.body.e[0]).not.toHaveProperty('o');
  });
});
