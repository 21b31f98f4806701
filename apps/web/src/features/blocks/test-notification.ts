import { DASHBOARD_WORKER_URL } from '../../lib/dashboard-worker.ts';

export const TEST_TITLE_REQUIRED = 'É necessário informar o Título da Notificação antes de testá-la.';
export const NO_DESKTOP_NOTIFICATIONS = 'Este browser não suporta notificações de Desktop';
export const PERMISSION_DENIED = 'Permita as notificações deste site no navegador para ver o teste.';

export interface TestNotification {
  title: string;
  message: string;
  icon?: string;
  image?: string;
  redirect?: string;
}

/**
 * Shows the push locally through the dashboard's own service worker (/service-worker.js, DESIGN §11).
 * Resolves to null when shown, or to the pt-BR reason it was not.
 */
export async function showTestNotification(n: TestNotification): Promise<string | null> {
  if (!n.title.trim()) return TEST_TITLE_REQUIRED;
  if (typeof window === 'undefined' || !('Notification' in window)) return NO_DESKTOP_NOTIFICATIONS;
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return PERMISSION_DENIED;
  const options: NotificationOptions & { image?: string } = {
    body: n.message,
    ...(n.icon ? { icon: n.icon } : {}),
    ...(n.image ? { image: n.image } : {}),
    data: { url: n.redirect || window.location.origin },
    tag: 'impeto-test',
  };
  if ('serviceWorker' in navigator) {
    await navigator.serviceWorker.register(DASHBOARD_WORKER_URL);
    const registration = await navigator.serviceWorker.ready;
    await registration.showNotification(n.title.trim(), options);
    return null;
  }
  new Notification(n.title.trim(), options);
  return null;
}
