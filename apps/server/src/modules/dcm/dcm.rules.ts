import {
  type DcmRule,
  type DcmTrigger,
  type FilterBlock,
  filterBlockSchema,
  type TriggerCondition,
  toPortableRegex,
  type Worktime,
} from '@impeto/shared';
import { storedExperiment } from '../../engine/arm.ts';
import { wireFilter } from '../../lib/filter/compile-filter.ts';
import { sanitizeDcmHtml } from './dcm-html.ts';

/*
 * A GCD item (momentum of type dcm) as the tag's injector reads it (DcmRule). The item's stored blocks were
 * validated when saved; an item whose blocks no longer make a rule (a recurrence trigger, the notification
 * dispatcher, which the engine sends, a finish date in the past) gives none.
 *
 * CELL_DCM values read here (the shared CELL_DCM validation): htmlElement, tagBehavior, containHtmlElement,
 * containText, customHtml, customCss, customJs, timeout, recurrence (spec doc 2 §3.5, READINGS A-44), and what the
 * manager chose to place, dispatcher_type: 'custom' (default; the HTML/CSS/JS), 'template' (template alert | topbar
 * | image with the notification fields title, message, image, redirect_uri, drawn by the tag's on-site renderer the
 * way the manager's preview draws them), 'optin' (optin default | topbox, the Topbox with the item's title and
 * message) or 'notification' (the manager's notification dispatcher: the engine sends it as a web push).
 */

export interface DcmItemRow {
  uuid: string;
  momentums: unknown[];
  worktime: Worktime | Record<string, unknown> | null;
  time_zone: string;
  /** The item's A/B test (issue #25), as stored, and the domain's global control group (dcm.service reads it). */
  experiment?: unknown;
  control_group_percent?: number | null;
}

type Block = { type: string; regex?: boolean; values?: Record<string, unknown>[] };

/** A template as the on-site renderer's message, drawn as the manager's preview draws it. */
function templateMessage(x: Record<string, unknown>): DcmRule['tpl'] | null {
  const title = text(x.title);
  const message = text(x.message);
  const link = text(x.redirect_uri);
  const cta = link ? 'Saiba mais' : '';
  const both = [title, message].filter(Boolean).join(' — ');
  if (x.template === 'alert') return { type: 'alert_box', props: { alertContent: both, alertPosition: 'topRight' } };
  if (x.template === 'topbar')
    return { type: 'topbar', props: { topbarContent: both, topbarBtnText: cta, topbarBtnUrl: link } };
  if (x.template === 'image' && text(x.image))
    return {
      type: 'notification_box',
      props: {
        notificationImage: text(x.image),
        notificationTitle: title,
        notificationContent: message,
        notificationButtonText: cta,
        notificationButtonUrl: link,
      },
    };
  return null;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
/** timeout / recurrence: empty or a non-negative integer (READINGS A-44); 0 and empty mean "no limit". */
const count = (v: unknown) => {
  const n = Number(text(typeof v === 'number' ? String(v) : v));
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};
const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function trigger(block: Block | undefined): DcmTrigger | null {
  const t = block?.values?.[0] as TriggerCondition | undefined;
  if (!t) return { k: 'always', op: '', v: [], d: 0 };
  const regex = block?.regex === true;
  const values = (list: string[]) =>
    regex
      ? list.map((v) => {
          const p = toPortableRegex(v);
          return p.ok ? p.source : '(?!)';
        })
      : list;
  const d = t.dischargeIn?.[0] ?? 0;
  const re = regex ? { re: true } : {};
  if (t.filter === 'pageview') return { k: 'pageview', op: t.comparation ?? 'contain', v: values(t.value), ...re, d };
  // An abandon's first condition (the page that starts it) is where the content goes; its goal has no meaning here.
  if (t.filter === 'abandon') return { k: 'pageview', op: 'contain', v: values(t.value), ...re, d };
  if (t.filter === 'events') {
    const c = [t.parentCategory, t.parentCategory2].filter((x): x is string => Boolean(x));
    return t.key && t.value.length
      ? { k: 'events', c, key: t.key, op: t.comparation ?? '==', v: values(t.value), ...re, d }
      : { k: 'events', c, op: '', v: [], d };
  }
  return null;
}

/** What of a rule a variant may change: its content and where it goes, not its audience, trigger or limits. */
const VARIANT_KEYS = [
  'kind',
  'sel',
  'at',
  'ce',
  'ct',
  'html',
  'css',
  'js',
  'safe',
  'to',
  'optin',
  'texts',
  'tpl',
] as const;

/**
 * The rule with its experiment (issue #25): each variant's CELL_DCM values made into a rule as the item's own
 * (so an unverified domain's HTML is sanitised, and its JS dropped, for every variant), of which the injector takes
 * the content. A variant that makes no rule (no selector for custom code, say) gives the item none: a visitor in
 * its arm would be shown nothing while counted as shown. Without an experiment, the item's rule as before.
 */
export function toDcmRule(row: DcmItemRow, verified: boolean, now: Date): DcmRule | null {
  const rule = baseRule(row, verified, now);
  const experiment = storedExperiment(row.experiment);
  if (!rule || !experiment || (experiment.control_percent <= 0 && experiment.variants.length === 0)) return rule;
  const blocks = row.momentums as Block[];
  const v: NonNullable<DcmRule['x']>['v'] = [];
  for (const variant of experiment.variants) {
    const values = variant.values[0] as Record<string, unknown> | undefined;
    if (!values) return null;
    const own = baseRule(
      { ...row, momentums: blocks.map((b) => (b.type === 'dispatcher' ? { ...b, values: [values] } : b)) },
      verified,
      now,
    );
    if (!own) return null;
    const r: Partial<DcmRule> = {};
    for (const k of VARIANT_KEYS) if (own[k] !== undefined) (r as Record<string, unknown>)[k] = own[k];
    // Keys the base has and the variant does not are cleared so the injector's merge does not keep them.
    for (const k of VARIANT_KEYS)
      if (rule[k] !== undefined && own[k] === undefined) (r as Record<string, unknown>)[k] = null;
    v.push({ n: variant.name, w: variant.weight, r });
  }
  rule.x = { c: experiment.control_percent, v };
  return rule;
}

function baseRule(row: DcmItemRow, verified: boolean, now: Date): DcmRule | null {
  const blocks = row.momentums as Block[];
  const find = (type: string) => blocks.find((b) => b.type === type);
  const finish = find('finish')?.values?.[0]?.value;
  if (typeof finish === 'string' && new Date(finish) <= now) return null;
  const x = find('dispatcher')?.values?.[0];
  if (x?.filter !== 'CELL_DCM') return null;
  const chosen = text(x.dispatcher_type) || 'custom';
  if (chosen === 'notification') return null;
  const g = trigger(find('trigger'));
  if (!g) return null;

  const filter = find('filter');
  let f: DcmRule['f'] = [];
  if (filter) {
    const parsed = filterBlockSchema.safeParse(filter);
    if (!parsed.success) return null;
    f = wireFilter(parsed.data as FilterBlock);
  }
  const rule: DcmRule = { id: row.uuid, f, g, kind: 'html' };
  const w = row.worktime as Worktime | null;
  if (w?.weekdays?.length && w.start_at && w.stop_at)
    rule.w = { d: w.weekdays, s: minutes(w.start_at), e: minutes(w.stop_at), tz: row.time_zone };
  const sel = text(x.htmlElement);
  if (sel) rule.sel = sel;
  if (text(x.containHtmlElement)) rule.ce = text(x.containHtmlElement);
  if (text(x.containText)) rule.ct = text(x.containText);
  const to = count(x.timeout);
  const n = count(x.recurrence);
  if (to) rule.to = to;
  if (n) rule.n = n;

  if (chosen === 'optin') {
    rule.kind = 'optin';
    rule.optin = x.optin === 'topbox' ? 'topbox' : 'default';
    if (text(x.title) || text(x.message)) rule.texts = { title: text(x.title), message: text(x.message) };
    return rule;
  }
  if (chosen === 'template') {
    const tpl = templateMessage(x);
    if (!tpl) return null;
    rule.kind = 'template';
    rule.tpl = tpl;
    return rule;
  }
  if (chosen !== 'custom' && chosen !== 'html') return null;
  if (!sel) return null;
  rule.at = ['beforeend', 'afterbegin', 'replace'].includes(text(x.tagBehavior))
    ? (text(x.tagBehavior) as DcmRule['at'])
    : 'beforeend';
  // customJs runs only on the company's own, verified domain (the page carries our snippet), and only there;
  // elsewhere the HTML is cleaned under the shared allow-list, so nothing in it can run script either.
  const html = !text(x.customHtml) ? '' : verified ? (x.customHtml as string) : sanitizeDcmHtml(x.customHtml as string);
  if (text(html)) rule.html = html;
  if (text(x.customCss)) rule.css = x.customCss as string;
  if (verified) {
    if (text(x.customJs)) rule.js = x.customJs as string;
  } else rule.safe = true;
  return rule;
}

/** The filter keys (inside persons.attributes) the rules read: all the tag needs to know of its visitor. */
export const attributeKeysOf = (rules: DcmRule[]) => [
  ...new Set(rules.flatMap((r) => r.f.map((c) => c.k)).filter(Boolean)),
];
