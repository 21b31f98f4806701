// The tracker: first-party visitor id, page views, events and identification, sent as text/plain beacons.
declare const __VERSION__: string;
declare const __SPA__: boolean;

interface Cfg {
  id: string;
  collect: string;
}

(() => {
  try {
    const w = window as unknown as {
      gero?: ((...a: unknown[]) => void) & { q?: IArguments[] };
      __gero?: { base: string; cfg: Cfg };
    };
    const state = w.__gero;
    if (!state) return;
    const cfg = state.cfg;
    const queue: unknown[][] = [];
    let consent = true;
    let started = false;
    let timer: ReturnType<typeof setTimeout> | undefined;

    const vid = (() => {
      try {
        let v = localStorage.getItem('_gero_vid');
        if (!v) {
          v = Math.random().toString(36).slice(2) + Date.now().toString(36);
          localStorage.setItem('_gero_vid', v);
        }
        return v;
      } catch {
        return 'anon';
      }
    })();

    const flush = () => {
      timer = undefined;
      if (!consent || !queue.length) return;
      const body = JSON.stringify({ id: cfg.id, vid, v: __VERSION__, e: queue.splice(0, queue.length) });
      try {
        if (!navigator.sendBeacon?.(cfg.collect, body)) {
          fetch(cfg.collect, {
            method: 'POST',
            body,
            keepalive: true,
            headers: { 'content-type': 'text/plain' },
          }).catch(() => {});
        }
      } catch {}
    };
    const push = (event: unknown[]) => {
      queue.push(event);
      if (!timer) timer = setTimeout(flush, 500);
    };
    const pageview = () => push(['pv', location.href, document.referrer, Date.now()]);

    const handle = (name: unknown, a?: unknown, b?: unknown) => {
      if (name === 'init') {
        if ((a as { consent?: string })?.consent === 'required') consent = false;
        if (!started) {
          started = true;
          pageview();
        }
      } else if (name === 'event') push(['ev', String(a), b || {}, Date.now()]);
      else if (name === 'identify') push(['id', a || {}, Date.now()]);
      else if (name === 'consent') {
        consent = a === true;
        if (consent) flush();
        else queue.length = 0;
      }
    };

    const pending = w.gero?.q || [];
    const api = (...args: unknown[]) => {
      try {
        handle(args[0], args[1], args[2]);
      } catch {}
    };
    w.gero = Object.assign(api, { q: [] as IArguments[] });
    for (const args of pending) api(...Array.from(args));

    if (__SPA__) {
      const wrap = (key: 'pushState' | 'replaceState') => {
        const original = history[key];
        history[key] = function (this: History, ...args: Parameters<History['pushState']>) {
          const before = location.href;
          original.apply(this, args);
          if (location.href !== before) pageview();
        };
      };
      wrap('pushState');
      addEventListener('popstate', pageview);
    }
    addEventListener('pagehide', flush);
  } catch {}
})();
