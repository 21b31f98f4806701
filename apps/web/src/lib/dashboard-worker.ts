/** The dashboard's own service worker (DESIGN.md §11): the form's push test shows its notifications through it. */
export const DASHBOARD_WORKER_URL = '/service-worker.js';

/**
 * Registers it once the dashboard has loaded, so it is in place before any page needs it. A browser without
 * service workers, or one that refuses (private mode, an insecure origin), keeps the dashboard working.
 */
export function registerDashboardWorker(win: Window = window) {
  if (!('serviceWorker' in win.navigator)) return;
  const register = () => {
    win.navigator.serviceWorker.register(DASHBOARD_WORKER_URL).catch(() => {});
  };
  if (win.document.readyState === 'complete') register();
  else win.addEventListener('load', register, { once: true });
}
