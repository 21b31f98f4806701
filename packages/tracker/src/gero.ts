// The tracker: first-party visitor id, page views, events, identification and the web push opt-in, sent as
// text/plain beacons to the collector (DESIGN.md §11, 'The collector's wire'; packages/tracker/README.md).
// Releases with `onsite` also show on-site messages (src/onsite.ts), which the others do not bundle. Releases with
// `dcm` hand the GCD injector (src/dcm.ts, its own chunk, loaded by the loader only for domains with GCD items) what
// it needs: `__gero.t` (below), and `__gero.dcm(t)` is called once sending is allowed.
import { poll, render, show, startOnsite } from './onsite.ts';

declare const __VERSION__: string;
declare const __SPA__: boolean;
declare const __ONSITE__: boolean;
declare const __CONVERSION__: boolean;
declare const __DCM__: boolean;
declare const __TZ__: boolean;

interface Cfg {
  id: string;
  collect?: string;
  vapid_public?: string;
}
type Gero = ((...args: unknown[]) => void) & { q?: IArguments[]; v?: string };
type Ev = Record<string, unknown>;

const BATCH_EVENTS = 20;
const BATCH_WAIT_MS = 500;
const BEACON_BYTES = 60_000;
// While consent is pending the queue is held; past this many events the oldest go.
const HELD_EVENTS = 200;
// The collector's limits (packages/shared collect.schema.ts).
const PROPS = 50;
const REFUSAL_MS = 7 * 864e5;
const K_VISITOR = '_gero_vid';
const K_ENDPOINT = '_gero_push';
const K_REFUSED = '_gero_no';
const K_ZONE = '_gero_tz';

(() => {
  try {
    const w = window as unknown as {
      gero?: Gero;
      __gero?: { base: string; cfg: Cfg; t?: unknown; dcm?: (t: unknown) => void };
    };
    const state = w.__gero;
    if (!state || w.gero?.v) return;
    const cfg = state.cfg;
    const url = cfg.collect || `${state.base}/collect`;
    const noop = () => {};
    const safe =
      <A extends unknown[]>(fn: (...a: A) => unknown) =>
      (...a: A) => {
        try {
          fn(...a);
        } catch {}
      };

    const get = (k: string) => {
      try {
        return localStorage.getItem(k);
      } catch {
        return null;
      }
    };
    const set = (k: string, v?: string) => {
      try {
        v == null ? localStorage.removeItem(k) : localStorage.setItem(k, v);
      } catch {}
    };

    const queue: Ev[] = [];
    let started = false;
    let required = false;
    let granted: boolean | undefined;
    let timer = 0;
    let vid = '';
    let model = '';
    let optinStarted = false;
    // A GCD opt-in item may give the Topbox its own title and message.
    let topboxTexts: { title?: string; message?: string } | undefined;
    const allowed = () => started && (granted === true || (granted === undefined && !required));

    // Created on the first send, so a visitor who never consents gets no stored id.
    const visitor = () => {
      if (!vid) {
        vid = get(K_VISITOR) || '';
        if (!vid) {
          vid =
            typeof crypto !== 'undefined' && crypto.randomUUID
              ? crypto.randomUUID()
              : Math.random().toString(36).slice(2) + Date.now().toString(36);
          set(K_VISITOR, vid);
        }
      }
      return vid;
    };

    // A beacon never sees the answer; the fetch fallback hands its on-site messages here.
    const renderOnsite = __ONSITE__ ? render : (_list: unknown[]) => {};

    const post = (body: string) => {
      try {
        if (navigator.sendBeacon(url, body)) return;
      } catch {}
      try {
        fetch(url, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain' } })
          .then((r) => r.json())
          .then((a) => renderOnsite(a?.onsite || []))
          .catch(noop);
      } catch {}
    };

    const bytes = (s: string) =>
      typeof TextEncoder === 'function' ? new TextEncoder().encode(s).length : s.length * 3;

    const flush = safe(() => {
      clearTimeout(timer);
      timer = 0;
      if (!allowed() || !queue.length) return;
      // The browser's time zone, once per session (1.6.0, issue #27): the first flush of a tab's session carries it.
      let tz: string | undefined;
      if (__TZ__)
        try {
          if (!sessionStorage.getItem(K_ZONE)) {
            tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
            sessionStorage.setItem(K_ZONE, '1');
          }
        } catch {}
      const head = JSON.stringify({ id: cfg.id, vid: visitor(), v: __VERSION__, l: navigator.language, tz, e: [] });
      const open = head.slice(0, -2);
      let part: string[] = [];
      let size = bytes(head);
      const send = () => {
        if (part.length) post(`${open}${part.join(',')}]}`);
        part = [];
        size = bytes(head);
      };
      for (const event of queue.splice(0)) {
        const s = JSON.stringify(event);
        const n = bytes(s) + 1;
        if (size + n > BEACON_BYTES) send();
        // An event that cannot fit in any beacon alone is dropped.
        if (size + n <= BEACON_BYTES) {
          part.push(s);
          size += n;
        }
      }
      send();
    });

    const listeners: ((event: Ev) => void)[] = [];
    const push = (event: Ev) => {
      if (granted === false) return false;
      event.ts = Date.now();
      if (__DCM__) for (const fn of listeners) safe(fn)(event);
      queue.push(event);
      if (queue.length > HELD_EVENTS) queue.shift();
      if (allowed()) {
        if (queue.length >= BATCH_EVENTS) flush();
        else if (!timer) timer = setTimeout(flush, BATCH_WAIT_MS) as unknown as number;
      }
      return true;
    };

    let referrer = document.referrer;
    // Cut to the collector's limits, so that a long title or value never costs the whole event.
    const pageview = () =>
      push({
        t: 'pv',
        u: location.href.slice(0, 2048),
        r: referrer.slice(0, 2048) || undefined,
        ti: document.title.slice(0, 300),
      });

    const props = (o: unknown, asText: boolean) => {
      const p: Record<string, string | number | boolean> = {};
      let n = 0;
      if (o && typeof o === 'object')
        for (const [k, v] of Object.entries(o)) {
          if (
            n < PROPS &&
            k.length <= 100 &&
            (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))
          ) {
            p[k] = asText || typeof v === 'string' ? String(v).slice(0, 500) : v;
            n++;
          }
        }
      return p;
    };

    // --- Web push opt-in (models Default and Topbox) ---
    const serverKey = (s = '') => {
      const b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4));
      return Uint8Array.from(b, (c) => c.charCodeAt(0));
    };
    const remember = (sub: PushSubscription | null) => {
      const j = sub?.toJSON();
      if (!j?.endpoint || j.endpoint === get(K_ENDPOINT)) return;
      const s = { endpoint: j.endpoint, expirationTime: j.expirationTime ?? undefined, keys: j.keys };
      if (push({ t: 'optin', s })) set(K_ENDPOINT, j.endpoint);
    };
    // Safari once answered requestPermission only through a callback.
    const ask = () =>
      new Promise<NotificationPermission>((resolve) => {
        const p = Notification.requestPermission(resolve);
        if (p) p.then(resolve, () => resolve('default'));
      });

    const topbox = (allow: () => void) => {
      const show = safe(() => {
        const host = document.createElement('gero-optin');
        const root = host.attachShadow({ mode: 'open' });
        root.innerHTML =
          '<style>:host{all:initial}div{position:fixed;top:16px;left:50%;transform:translateX(-50%);z-index:2147483647;box-sizing:border-box;width:min(380px,calc(100% - 32px));padding:16px;background:#fff;color:#222;border-radius:10px;box-shadow:0 6px 28px rgba(0,0,0,.22);font:14px/1.4 system-ui,sans-serif}b{display:block;font-size:16px}p{margin:6px 0 14px}nav{text-align:right}button{font:inherit;padding:8px 14px;margin-left:8px;border:0;border-radius:6px;cursor:pointer;background:none;color:#444}button+button{background:#1a73e8;color:#fff}</style>' +
          '<div role="dialog" aria-labelledby="t"><b id="t">Receba nossas novidades</b><p>Quer ser avisado sobre ofertas e novidades deste site?</p><nav><button>Agora não</button><button>Permitir</button></nav></div>';
        if (__DCM__ && topboxTexts) {
          const [title, message] = [root.querySelector('b'), root.querySelector('p')];
          if (title && topboxTexts.title) title.textContent = topboxTexts.title;
          if (message && topboxTexts.message) message.textContent = topboxTexts.message;
        }
        const [later, yes] = root.querySelectorAll('button');
        if (!later || !yes) return;
        later.onclick = safe(() => {
          host.remove();
          set(K_REFUSED, String(Date.now()));
        });
        // requestPermission must run inside the click itself (user activation).
        yes.onclick = safe(() => {
          host.remove();
          allow();
        });
        document.body.appendChild(host);
      });
      document.body ? show() : addEventListener('DOMContentLoaded', show);
    };

    const optin = async (chosen: string) => {
      const sw = navigator.serviceWorker;
      if (!sw || !('PushManager' in window) || !('Notification' in window)) return;
      const reg = await sw.register('/cn_sw.min.js', { scope: '/' });
      await sw.ready;
      const permission = Notification.permission;
      const current = permission === 'granted' ? await reg.pushManager.getSubscription() : null;
      if (current) return remember(current);
      if (get(K_ENDPOINT) && push({ t: 'optout' })) set(K_ENDPOINT);
      if (permission === 'denied') return;
      const subscribe = () =>
        ask()
          .then((p) =>
            p === 'granted'
              ? reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey(cfg.vapid_public) })
              : null,
          )
          .then(remember)
          .catch(noop);
      if (permission === 'granted' || chosen !== 'topbox') return subscribe();
      if (Date.now() - Number(get(K_REFUSED)) >= REFUSAL_MS) topbox(subscribe);
    };

    // Sending (and the opt-in, whose service worker registration is a request too) waits for init and consent.
    const startOptin = () => {
      if (allowed() && model && !optinStarted) {
        optinStarted = true;
        optin(model).catch(noop);
      }
    };

    // The GCD injector starts once sending is allowed (init, consent), like the on-site poll.
    const startDcm = () => {
      if (__DCM__ && allowed()) safe(() => state.dcm?.(state.t))();
    };
    if (__DCM__)
      state.t = {
        base: state.base,
        cfg,
        url,
        visitor,
        allowed,
        report: (event: Ev, now?: boolean) => {
          push(event);
          if (now) flush();
        },
        listen: (fn: (event: Ev) => void) => listeners.push(fn),
        show,
        optin: (chosen: string, texts?: { title?: string; message?: string }) => {
          topboxTexts = texts;
          model = chosen === 'topbox' ? 'topbox' : 'default';
          startOptin();
        },
      };

    const handle = (name: unknown, a?: unknown, b?: unknown) => {
      if (name === 'init') {
        if (started) return;
        started = true;
        required = (a as { consent?: unknown } | undefined)?.consent === 'required';
        pageview();
        startOptin();
        if (__ONSITE__) poll();
        startDcm();
      } else if (name === 'event') push({ t: 'ev', c: String(a).slice(0, 100), p: props(b, false) });
      else if (name === 'identify') push({ t: 'id', p: props(a, true) });
      else if (__CONVERSION__ && name === 'conversion') {
        // { value: 349.90, order_id: 'PED-123' }: value in BRL; the collector counts a repeated order_id once.
        const c = (a || {}) as { value?: unknown; order_id?: unknown };
        const v = typeof c.value === 'string' ? Number(c.value.replace(',', '.')) : Number(c.value);
        if (Number.isFinite(v) && v >= 0 && v <= 1e9) {
          const o = c.order_id == null ? '' : String(c.order_id).trim().slice(0, 100);
          push(o ? { t: 'cv', v: Math.round(v * 100) / 100, o } : { t: 'cv', v: Math.round(v * 100) / 100 });
        }
      } else if (name === 'consent') {
        granted = a === true;
        if (granted) {
          flush();
          startOptin();
          if (__ONSITE__) poll();
          startDcm();
        } else {
          queue.length = 0;
          clearTimeout(timer);
          timer = 0;
        }
      } else if (name === 'optin') {
        model = a === 'topbox' ? 'topbox' : 'default';
        startOptin();
      }
    };

    if (__ONSITE__)
      startOnsite({
        url,
        id: cfg.id,
        allowed,
        visitor,
        report: (t, d) => push({ t, d }),
        flush: () => flush(),
      });
    const pending = w.gero?.q || [];
    const api: Gero = safe((...args: unknown[]) => handle(args[0], args[1], args[2]));
    api.q = [];
    api.v = __VERSION__;
    w.gero = api;
    for (const args of pending) api(...Array.from(args));

    if (__SPA__) {
      // A hash-only change is an in-page jump, unless the hash is a route ('#/…', '#!…').
      const route = (u: string) => u.replace(/#(?![/!]).*$/, '');
      let wait = 0;
      let last = location.href;
      const navigated = safe(() => {
        const now = location.href;
        if (route(now) !== route(last)) {
          referrer = last;
          last = now;
          pageview();
        } else last = now;
      });
      // A little later, so that the new route's document.title is in place.
      const soon = () => {
        clearTimeout(wait);
        wait = setTimeout(navigated, 100) as unknown as number;
      };
      for (const key of ['pushState', 'replaceState'] as const) {
        const original = history[key];
        history[key] = function (this: History, ...args: Parameters<History['pushState']>) {
          const result = original.apply(this, args);
          soon();
          return result;
        };
      }
      addEventListener('popstate', soon);
    }
    addEventListener('pagehide', flush);
    document.addEventListener(
      'visibilitychange',
      safe(() => {
        if (document.visibilityState === 'hidden') flush();
        else if (__ONSITE__) poll();
      }),
    );
  } catch {}
})();
