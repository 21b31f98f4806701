// The GCD injector (spec doc 2 §2.6, §3.5; READINGS A-44): a chunk of its own (gero/<v>/dcm.min.js), loaded by
// the loader only on domains with active GCD items, beside a tracker release with the `dcm` feature, whose hook
// (`__gero.t`) gives it the visitor, the event queue and the on-site and opt-in renderers.
//
// It reads the domain's rules (GET /t/dcm/<gero_id>?r=<revision>, cached by the browser) and what the rules'
// filters need of the visitor (GET /collect/dcm), and for each rule whose filter (the engine's own predicates,
// packages/shared filter/predicate.ts) and trigger pass: waits for the selector (a MutationObserver, 10 s at most),
// inserts the content where tagBehavior says, adds the CSS, runs the JS once, removes it all after `timeout`
// seconds, and counts showings per visitor in localStorage for `recurrence`. Reports: { t: 'dcm', m, k } with k
// viewed, clicked or missing (the selector matched nothing for 10 s where the rule applies; `u` the page).
// An item with an A/B test (`x`, issue #25, release 1.7.0): the visitor's arm is drawn with the engine's own shared
// function (assignArm) over the visitor id, the arm's variant is shown, and every report carries the arm as `a`; a
// held-out visitor (control, or the domain's global group, which /collect/dcm answers as g: 1 from the person's
// uuid as the engine draws it) is shown nothing and reported once per would-be showing as k 'held'.
import type { DcmRule } from '../../shared/src/dcm/dcm-rule.ts';
import { assignArm, CONTROL_ARM, GLOBAL_CONTROL_ARM } from '../../shared/src/experiments/assign-arm.ts';
import { filterTest, foldCase, textRule, worktimeOpen } from '../../shared/src/filter/predicate.ts';

type Ev = Record<string, unknown>;
interface Hook {
  base: string;
  cfg: { id: string; dcm?: string };
  /** The collector's URL. */
  url: string;
  visitor(): string;
  allowed(): boolean;
  report(event: Ev, now?: boolean): void;
  listen(fn: (event: Ev) => void): void;
  show(m: object, own: (t: 'viewed' | 'clicked') => void): HTMLElement | undefined;
  optin(model: string, texts?: { title?: string; message?: string }): void;
}
type Gero = { t?: Hook; dcm?: (t: Hook) => void };
/** A rule as placed: with the visitor's arm (`a`) of its A/B test. */
type Placed = DcmRule & { a?: string };

const WAIT_MS = 10_000;
const K_SHOWN = '_gero_dcm';
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

let hook: Hook;
let attrs: Record<string, unknown> = {};
/** The visitor's person is in the domain's global control group. */
let global = false;
const armed = new Set<string>();

const shownCounts = (): Record<string, number> => {
  try {
    return JSON.parse(localStorage.getItem(K_SHOWN) || '{}') || {};
  } catch {
    return {};
  }
};
const countShown = (id: string) => {
  try {
    const all = shownCounts();
    all[id] = (all[id] || 0) + 1;
    localStorage.setItem(K_SHOWN, JSON.stringify(all));
  } catch {}
};

const report = (rule: Placed, k: 'viewed' | 'clicked' | 'missing' | 'held') =>
  hook.report(
    {
      t: 'dcm',
      m: rule.id,
      k,
      ...(rule.a && { a: rule.a }),
      ...(k === 'missing' && { u: location.href.slice(0, 2048) }),
    },
    k !== 'viewed',
  );

/** The visitor's arm of the rule's A/B test and the rule with that variant's content (nothing changes without one). */
const pick = (rule: DcmRule): Placed => {
  const x = rule.x;
  if (!x) return rule;
  const id = hook.visitor();
  const a = global
    ? GLOBAL_CONTROL_ARM
    : assignArm(id, rule.id, { control_percent: x.c, variants: x.v.map((v) => ({ name: v.n, weight: v.w })) })!;
  return { ...rule, ...x.v.find((v) => v.n === a)?.r, a };
};

/** Worktime in the company's time zone (the engine's rule, shared). */
const open = (w: NonNullable<DcmRule['w']>) => {
  try {
    const parts: Record<string, string> = {};
    for (const p of new Intl.DateTimeFormat('en-US', {
      timeZone: w.tz,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(new Date()))
      parts[p.type] = p.value;
    return worktimeOpen(
      w.d,
      w.s,
      w.e,
      DAYS.indexOf(parts.weekday!),
      (Number(parts.hour) % 24) * 60 + Number(parts.minute),
    );
  } catch {
    return true;
  }
};

const query = (selector: string) => {
  try {
    return document.querySelector(selector);
  } catch {
    // A selector the browser refuses matches nothing.
    return null;
  }
};

/** An unverified domain's HTML loses scripts, frames and event-handler attributes; the rest is the owner's markup. */
const fragment = (html: string, safe?: boolean) => {
  const t = document.createElement('template');
  t.innerHTML = html;
  if (safe)
    for (const el of t.content.querySelectorAll('*')) {
      if (/^(script|iframe|frame|object|embed|base|meta|link)$/i.test(el.tagName)) el.remove();
      else
        for (const a of [...el.attributes])
          if (/^on/i.test(a.name) || /^\s*(javascript|data):/i.test(a.value)) el.removeAttribute(a.name);
    }
  return t.content;
};

const insert = (rule: Placed, target: Element) => {
  countShown(rule.id);
  if (rule.a === CONTROL_ARM || rule.a === GLOBAL_CONTROL_ARM) return report(rule, 'held');
  let remove = () => {};
  if (rule.kind === 'html') {
    const box = document.createElement('gero-dcm');
    box.setAttribute('data-id', rule.id);
    box.style.display = 'contents';
    box.append(fragment(rule.html || '', rule.safe));
    let style: HTMLStyleElement | undefined;
    if (rule.css) {
      style = document.createElement('style');
      style.setAttribute('data-gero-dcm', rule.id);
      style.textContent = rule.css;
      document.head.appendChild(style);
    }
    // replace: the whole element gives way to the content (the manager promises it), and comes back on removal.
    if (rule.at === 'afterbegin') target.prepend(box);
    else if (rule.at === 'replace') target.replaceWith(box);
    else target.append(box);
    let clicked = false;
    box.addEventListener('click', () => {
      if (!clicked) {
        clicked = true;
        report(rule, 'clicked');
      }
    });
    remove = () => {
      if (rule.at === 'replace' && box.isConnected) box.replaceWith(target);
      else box.remove();
      style?.remove();
    };
    report(rule, 'viewed');
    // The owner's script, once per insertion, with the inserted element as `this` and `el`; its errors stay its own.
    if (rule.js)
      try {
        new Function('el', rule.js).call(box, box);
      } catch {}
  } else if (rule.kind === 'template' && rule.tpl) {
    const host = hook.show({ d: `dcm-${rule.id}`, ...rule.tpl }, (t) => report(rule, t));
    remove = () => host?.remove();
  } else if (rule.kind === 'optin') {
    hook.optin(rule.optin || 'default', rule.texts);
    report(rule, 'viewed');
  }
  if (rule.to) setTimeout(remove, rule.to * 1000);
};

/** Waits (10 s at most) until the page has the selector and passes containHtmlElement / containText. */
const place = (rule: Placed) => {
  const conditions = () => {
    const scope = rule.ce ? query(rule.ce) : document.body;
    return Boolean(scope) && (!rule.ct || foldCase(scope!.textContent || '').includes(foldCase(rule.ct)));
  };
  const ready = () => {
    const target = rule.sel ? query(rule.sel) : document.body;
    return target && conditions() ? target : null;
  };
  const found = ready();
  if (found) return insert(rule, found);
  let done = false;
  const observer = new MutationObserver(() => {
    const target = ready();
    if (target && !done) {
      done = true;
      stop();
      insert(rule, target);
    }
  });
  const timer = setTimeout(() => {
    if (done) return;
    done = true;
    stop();
    // Reported only where the rule applies: the page has what containHtmlElement / containText ask for.
    if (rule.sel && !query(rule.sel) && conditions()) report(rule, 'missing');
  }, WAIT_MS);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  observer.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
};

const arm = (rule: DcmRule) => {
  if (armed.has(rule.id)) return;
  if (rule.w && !open(rule.w)) return;
  if (rule.n && (shownCounts()[rule.id] || 0) >= rule.n) return;
  armed.add(rule.id);
  setTimeout(() => place(pick(rule)), rule.g.d * 1000);
};

/** A first-time visitor's origin, read as the collector will store it. */
const origin = () => {
  try {
    const host = new URL(document.referrer).hostname;
    return host && host !== location.hostname ? host : 'direct';
  } catch {
    return 'direct';
  }
};

const run = (rules: DcmRule[]) => {
  const visited = (u: string) => {
    const list = Array.isArray(attrs['visited.url']) ? (attrs['visited.url'] as unknown[]) : [];
    if (!list.includes(u)) attrs['visited.url'] = [...list, u];
  };
  visited(location.href);
  if (attrs.origin === undefined) attrs.origin = origin();
  const eligible = rules.filter((r) => {
    try {
      return filterTest(r.f)(attrs);
    } catch {
      return false;
    }
  });
  const pageRule = (r: DcmRule) => textRule(r.g.op, r.g.v, r.g.re === true, true);
  for (const r of eligible) if (r.g.k === 'always' || (r.g.k === 'pageview' && pageRule(r)(location.href))) arm(r);
  hook.listen((e) => {
    if (e.t === 'pv' && typeof e.u === 'string') {
      visited(e.u);
      for (const r of eligible) if (r.g.k === 'pageview' && pageRule(r)(e.u)) arm(r);
    } else if (e.t === 'ev')
      for (const r of eligible) {
        if (r.g.k !== 'events' || !r.g.c?.includes(String(e.c))) continue;
        const value = (e.p as Record<string, unknown> | undefined)?.[r.g.key || ''];
        if (!r.g.key || textRule(r.g.op, r.g.v, r.g.re === true, false)(value == null ? '' : String(value))) arm(r);
      }
  });
};

let started = false;
const start = (t: Hook) => {
  try {
    if (started || !t?.allowed()) return;
    started = true;
    hook = t;
    const get = (u: string) => fetch(u).then((r) => (r.ok ? r.json() : null));
    const id = encodeURIComponent(t.cfg.id);
    Promise.all([
      get(`${t.base}/t/dcm/${id}?r=${encodeURIComponent(t.cfg.dcm || '')}`),
      get(`${t.url}/dcm?id=${id}&vid=${encodeURIComponent(t.visitor())}&l=${encodeURIComponent(navigator.language)}`),
    ])
      .then(([rules, profile]) => {
        attrs = (profile?.a as Record<string, unknown>) || {};
        global = profile?.g === 1;
        if (Array.isArray(rules?.rules)) run(rules.rules);
      })
      .catch(() => {});
  } catch {}
};

(() => {
  try {
    const g = (window as unknown as { __gero?: Gero }).__gero;
    if (!g) return;
    g.dcm = start;
    if (g.t) start(g.t);
  } catch {}
})();
