// On-site messages (SUPERARE_WEBVIEW deliveries; DESIGN.md §10–11, spec doc 2 §3.6), bundled only into releases
// with the `onsite` feature. Each message renders in an open shadow root on a host appended to <body>, looking like
// the dashboard's preview (apps/web/src/features/diagram/components/webview-modal.tsx). Message data reaches the page
// only as textContent, a checked http(s) URL or a checked colour: never as HTML.

interface Ctx {
  /** The collector's URL (`<base>/collect`); the poll asks `<url>/pending`. */
  url: string;
  id: string;
  allowed: () => boolean;
  visitor: () => string;
  report: (t: 'viewed' | 'clicked', d: string) => void;
  flush: () => void;
}
type Props = Record<string, unknown>;

const POLL_MS = 5000;
const TYPES = ['notification_box', 'topbar', 'alert_box'];
const COLOR = /^(#([\da-f]{3,4}|[\da-f]{6}|[\da-f]{8})|(rgb|hsl)a?\([\d\s.,%/]+\)|[a-z]+)$/i;
const CSS =
  ':host{all:initial}div{position:fixed;z-index:2147483647;box-sizing:border-box;font:14px/1.4 system-ui,sans-serif}' +
  '.n{right:16px;bottom:16px;width:min(320px,calc(100% - 32px));padding:12px;border-radius:10px;box-shadow:0 6px 18px rgba(0,0,0,.18)}' +
  '.t{top:0;left:0;right:0;display:flex;align-items:center;justify-content:center;flex-wrap:wrap;gap:8px 16px;padding:10px 44px 10px 16px;box-shadow:0 2px 6px rgba(0,0,0,.12)}' +
  '.a{max-width:min(320px,calc(100% - 32px));padding:10px 36px 10px 16px;border-radius:8px;box-shadow:0 4px 12px rgba(0,0,0,.18);font-size:13px}' +
  'img{display:block;width:100%;height:150px;object-fit:cover;border-radius:6px;margin-bottom:8px}b{display:block;font-size:15px}p{margin:4px 0 10px;font-size:13px}' +
  '.c{display:inline-block;box-sizing:border-box;border:0;padding:6px 12px;border-radius:6px;font:13px/1.4 system-ui,sans-serif;text-decoration:none;cursor:pointer}.n .c{display:block;width:100%;text-align:center;padding:8px}' +
  '.x{position:absolute;top:50%;right:8px;transform:translateY(-50%);border:0;padding:4px;background:none;color:inherit;opacity:.6;font:20px/1 system-ui,sans-serif;cursor:pointer}' +
  '.n .x{position:static;display:block;transform:none;margin:-8px -6px 2px auto}.a .x{top:6px;transform:none}';

let ctx: Ctx;
const seen = new Set<string>();

// Device rule for webview_mode: a handheld is a browser that says it is mobile (UA-CH `mobile`), a user agent that
// names a phone or tablet platform, or a touch "Macintosh" (iPadOS asks for desktop pages). A handheld whose shorter
// screen side is at least 600 CSS px (Android's tablet breakpoint) is a tablet, else a smartphone; the rest are
// desktops. devices_mobile = smartphone or tablet; devices_all, or a mode we do not know, = everyone.
const device = () => {
  const n = navigator as Navigator & { userAgentData?: { mobile?: boolean } };
  const ua = n.userAgent;
  const handheld =
    n.userAgentData?.mobile ||
    /Mobi|Android|iPhone|iPad|iPod|Tablet|Silk|Kindle|PlayBook|BlackBerry|Opera Mini|IEMobile/i.test(ua) ||
    (/Macintosh/.test(ua) && n.maxTouchPoints > 1);
  return !handheld ? 'desktops' : Math.min(screen.width, screen.height) >= 600 ? 'tablets' : 'smartphone';
};
const fits = (mode: unknown) => {
  const kind = device();
  return (
    mode === `devices_${kind}` ||
    (mode === 'devices_mobile' && kind !== 'desktops') ||
    !/^devices_(mobile|smartphone|tablets|desktops)$/.test(String(mode))
  );
};

const link = (s: string) => {
  try {
    const u = new URL(s);
    return /^https?:$/.test(u.protocol) ? u.href : '';
  } catch {
    return '';
  }
};

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node, text?: string, cls?: string) => {
  const e = document.createElement(tag);
  if (text) e.textContent = text;
  if (cls) e.className = cls;
  parent.appendChild(e);
  return e;
};

/**
 * Shows one message (once per id `d`); `own` reports its viewed/clicked instead of the delivery reports (GCD items,
 * src/dcm.ts). Answers the host element once it is on the page.
 */
export const show = (
  m: { d?: unknown; type?: unknown; mode?: unknown; props?: unknown },
  own?: (t: 'viewed' | 'clicked') => void,
): HTMLElement | undefined => {
  const d = m?.d;
  const type = String(m?.type);
  if (typeof d !== 'string' || !d || seen.has(d) || !TYPES.includes(type)) return;
  seen.add(d);
  if (!fits(m.mode)) return;
  const report = (t: 'viewed' | 'clicked') => (own ? own(t) : ctx.report(t, d));
  const props = (m.props && typeof m.props === 'object' ? m.props : {}) as Props;
  const p = (k: string) => {
    const v = props[k];
    return typeof v === 'string' ? v.trim() : '';
  };
  const paint = (e: HTMLElement, key: string, fallback: string, prop: 'color' | 'backgroundColor' = 'color') => {
    // The page's CSSOM ignores what it cannot parse (a made-up name), which keeps the default.
    e.style[prop] = fallback;
    if (COLOR.test(p(key))) e.style[prop] = p(key);
  };

  const mount = () => {
    try {
      const host = document.createElement('gero-onsite');
      const root = host.attachShadow({ mode: 'open' });
      el('style', root, CSS);
      const box = el('div', root, '', type[0]);
      const close = () => host.remove();
      const cta = (text: string, url: string, color: string, background: string) => {
        if (!p(text)) return;
        const href = link(p(url));
        const a = el(href ? 'a' : 'button', box, p(text), 'c');
        if (href) {
          (a as HTMLAnchorElement).href = href;
          // Same tab, even on a site whose <base target> says otherwise.
          (a as HTMLAnchorElement).target = '_self';
        }
        paint(a, color, '#FFFFFF');
        paint(a, background, '#000000', 'backgroundColor');
        a.onclick = () => {
          try {
            report('clicked');
            // Out before the navigation the link starts (sendBeacon survives it). A link removed during its own
            // click is not followed, so only a button without a link closes the message.
            ctx.flush();
            if (!href) close();
          } catch {}
        };
      };
      if (type === 'notification_box') {
        box.setAttribute('role', 'dialog');
        box.setAttribute('aria-label', p('notificationTitle'));
        paint(box, 'boxColor', '#FFFFFF', 'backgroundColor');
        const src = link(p('notificationImage'));
        if (src) {
          const img = el('img', box);
          img.alt = '';
          img.onerror = () => img.remove();
          img.src = src;
        }
        if (p('notificationTitle')) paint(el('b', box, p('notificationTitle')), 'titleColor', '#000000');
        if (p('notificationContent')) paint(el('p', box, p('notificationContent')), 'descriptionColor', '#000000');
        cta('notificationButtonText', 'notificationButtonUrl', 'btnColor', 'btnBackground');
      } else if (type === 'topbar') {
        paint(box, 'topbarBackgroundColor', '#FFFFFF', 'backgroundColor');
        paint(box, 'topbarContentColor', '#000000');
        el('span', box, p('topbarContent'));
        cta('topbarBtnText', 'topbarBtnUrl', 'topbarBtnColor', 'topbarBtnBackground');
      } else {
        box.setAttribute('role', 'alert');
        paint(box, 'alertBackgroundColor', '#C04848', 'backgroundColor');
        paint(box, 'alertContentColor', '#FFFFFF');
        el('span', box, p('alertContent'));
        // Nine positions, topRight by default: top|center|bottom + Left|Center|Right.
        const [, v = 'top', h = 'Right'] = /^(top|center|bottom)(Left|Center|Right)$/.exec(p('alertPosition')) || [];
        const s = box.style;
        let tx = '0';
        let ty = '0';
        if (v === 'center') {
          s.top = '50%';
          ty = '-50%';
        } else s[v as 'top'] = '16px';
        if (h === 'Center') {
          s.left = '50%';
          tx = '-50%';
        } else s[h.toLowerCase() as 'left'] = '16px';
        s.transform = `translate(${tx},${ty})`;
      }
      const x = el('button', box, '×', 'x');
      x.setAttribute('aria-label', 'Fechar');
      x.onclick = close;
      if (type === 'notification_box') box.prepend(x);
      document.body.appendChild(host);
      report('viewed');
      return host;
    } catch {}
  };
  if (document.body) return mount();
  addEventListener('DOMContentLoaded', mount);
};

/** The `onsite` list of a collector answer (POST /collect through fetch, or GET /collect/pending). */
export const render = (list: unknown) => {
  if (ctx?.allowed() && Array.isArray(list))
    for (const m of list)
      try {
        show(m);
      } catch {}
};

let polling = false;
/** Asks for waiting messages, while the page is visible and sending is allowed (init, consent). */
export const poll = () => {
  try {
    if (polling || !ctx.allowed() || document.visibilityState !== 'visible') return;
    polling = true;
    Promise.resolve()
      .then(() => fetch(`${ctx.url}/pending?id=${encodeURIComponent(ctx.id)}&vid=${encodeURIComponent(ctx.visitor())}`))
      .then((r) => (r.ok ? r.json() : null))
      .then((a) => render(a?.onsite))
      .catch(() => {})
      .then(() => {
        polling = false;
      });
  } catch {}
};

export const startOnsite = (c: Ctx) => {
  ctx = c;
  setInterval(poll, POLL_MS);
};
