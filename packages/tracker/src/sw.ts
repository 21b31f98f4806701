// The service worker our customers import from /cn_sw.min.js (the server prepends `self.__GERO={base,id};`):
// shows pushes, opens their links, reports viewed and clicked, and follows a subscription change.
export {};

// Only the few service-worker types used here (the DOM and WebWorker libs cannot share one program).
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null;
}
interface NotificationClickEvent extends ExtendableEvent {
  action: string;
  notification: { data: unknown; close(): void };
}
interface SubscriptionChangeEvent extends ExtendableEvent {
  oldSubscription: PushSubscription | null;
  newSubscription: PushSubscription | null;
}
interface SwScope {
  __GERO?: { base: string; id: string };
  registration: {
    showNotification(title: string, options: object): Promise<void>;
    pushManager: PushManager;
  };
  clients: { openWindow(url: string): Promise<unknown> };
  addEventListener(type: 'push', fn: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', fn: (e: NotificationClickEvent) => void): void;
  addEventListener(type: 'pushsubscriptionchange', fn: (e: SubscriptionChangeEvent) => void): void;
}
const sw = self as unknown as SwScope;

interface Button {
  action?: string;
  title: string;
  url?: string;
}
// The push payload the engine sends (field names kept from the spec).
interface PushData {
  title?: string;
  message?: string;
  icon_uri?: string;
  icon?: string;
  image?: string;
  redirect_uri?: string;
  url?: string;
  delivery_id?: string;
  buttons?: Button[];
}
interface ShownData {
  url?: string;
  delivery_id?: string;
  buttons?: Button[];
}

const noop = () => {};
const actionOf = (b: Button, i: number) => b.action || String(i);

const report = (event: object) => {
  const g = sw.__GERO;
  if (!g) return Promise.resolve();
  return fetch(`${g.base}/collect`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ id: g.id, e: [{ ...event, ts: Date.now() }] }),
  }).then(noop, noop);
};

sw.addEventListener('push', (event) => {
  let d: PushData = {};
  try {
    d = (event.data?.json() || {}) as PushData;
  } catch {
    d = { message: event.data?.text() };
  }
  const buttons = d.buttons || [];
  const shown: ShownData = { url: d.redirect_uri || d.url, delivery_id: d.delivery_id, buttons };
  event.waitUntil(
    sw.registration
      .showNotification(d.title || '', {
        body: d.message || '',
        icon: d.icon_uri || d.icon,
        image: d.image,
        tag: d.delivery_id,
        data: shown,
        actions: buttons.map((b, i) => ({ action: actionOf(b, i), title: b.title })),
      })
      .then(() => (d.delivery_id ? report({ t: 'viewed', d: d.delivery_id }) : undefined)),
  );
});

sw.addEventListener('notificationclick', (event) => {
  const d = (event.notification.data || {}) as ShownData;
  const url = d.buttons?.find((b, i) => actionOf(b, i) === event.action)?.url || d.url;
  event.notification.close();
  event.waitUntil(
    Promise.all([
      url ? sw.clients.openWindow(url).catch(noop) : null,
      d.delivery_id ? report({ t: 'clicked', d: d.delivery_id }) : null,
    ]),
  );
});

const serverKey = (s: string) => {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
};

// The worker has no visitor id: `o` (the old endpoint) lets the collector find the visitor's subscription.
sw.addEventListener('pushsubscriptionchange', (event) => {
  const g = sw.__GERO;
  const old = event.oldSubscription;
  const renew = async () => {
    let sub = event.newSubscription;
    if (!sub && g) {
      let key: BufferSource | null | undefined = old?.options?.applicationServerKey;
      if (!key) {
        const cfg = (await (await fetch(`${g.base}/t/config/${encodeURIComponent(g.id)}`)).json()) as {
          vapid_public: string;
        };
        key = serverKey(cfg.vapid_public);
      }
      sub = await sw.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    }
    const j = sub?.toJSON();
    if (!j?.endpoint) return;
    await report({
      t: 'optin',
      s: { endpoint: j.endpoint, expirationTime: j.expirationTime ?? undefined, keys: j.keys },
      o: old?.endpoint,
    });
  };
  event.waitUntil(renew().catch(noop));
});
