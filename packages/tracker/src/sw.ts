// The service worker our customers import from /cn_sw.min.js: shows pushes and opens their links.

// Only the few service-worker types used here (the DOM and WebWorker libs cannot share one program).
interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationClickEvent extends ExtendableEvent {
  action: string;
  notification: { data: unknown; close(): void };
}
interface SwScope {
  __GERO?: { base: string; id: string };
  registration: { showNotification(title: string, options: object): Promise<void> };
  clients: { openWindow(url: string): Promise<unknown> };
  addEventListener(type: 'push', fn: (e: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', fn: (e: NotificationClickEvent) => void): void;
}
const sw = self as unknown as SwScope;

interface PushData {
  title?: string;
  message?: string;
  icon?: string;
  image?: string;
  url?: string;
  delivery_id?: string;
  actions?: { action: string; title: string; url?: string }[];
}

const report = (kind: string, delivery?: string) => {
  const g = sw.__GERO;
  if (!g || !delivery) return Promise.resolve();
  return fetch(`${g.base}/collect`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ id: g.id, e: [[kind, delivery, Date.now()]] }),
  }).then(
    () => {},
    () => {},
  );
};

sw.addEventListener('push', (event) => {
  let data: PushData = {};
  try {
    data = (event.data ? event.data.json() : {}) as PushData;
  } catch {}
  const options = {
    body: data.message || '',
    icon: data.icon,
    image: data.image,
    tag: data.delivery_id,
    data,
    actions: data.actions,
  };
  event.waitUntil(
    sw.registration.showNotification(data.title || '', options).then(() => report('viewed', data.delivery_id)),
  );
});

sw.addEventListener('notificationclick', (event) => {
  const data = (event.notification.data || {}) as PushData;
  const url = data.actions?.find((a) => a.action === event.action)?.url || data.url;
  event.notification.close();
  event.waitUntil(Promise.all([url ? sw.clients.openWindow(url) : null, report('clicked', data.delivery_id)]));
});
