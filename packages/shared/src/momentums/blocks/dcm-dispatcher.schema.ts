import { z } from '../../zod.ts';
import { isValidSelector } from '../css-selector.ts';
import { m } from './common.ts';
import { intervalRecurrency } from './dispatcher-fields.ts';

/** Where the content goes relative to htmlElement (Element.insertAdjacentHTML positions, or replacing it). */
export const DCM_BEHAVIORS = ['beforeend', 'afterbegin', 'replace'] as const;
/**
 * What a GCD item shows: its own HTML/CSS/JS, a ready template, the push opt-in invitation, or (the manager's
 * notification dispatcher, spec doc 2 §3.5) a web push notification the engine sends like a momentum's.
 */
export const DCM_DISPATCHER_TYPES = ['custom', 'template', 'optin', 'notification'] as const;
export const DCM_TEMPLATES = ['alert', 'topbar', 'image'] as const;
/** The opt-in models offered to GCD: Default and Topbox (Icon exists but is not offered, spec doc 2 §2.6). */
export const DCM_OPTIN_MODELS = ['default', 'topbox'] as const;
/** Size limits of the custom code, in UTF-8 bytes (1 KB = 1024 bytes). */
export const DCM_LIMITS = { customHtml: 100 * 1024, customCss: 50 * 1024, customJs: 50 * 1024 } as const;
/** The alert template is at most this wide (spec doc 2 §2.6). */
export const DCM_ALERT_MAX_WIDTH = 320;

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;
const code = (limit: number, message: string) =>
  z
    .string({ error: message })
    .optional()
    .transform((v) => v ?? '')
    .refine((v) => utf8Bytes(v) <= limit, message);
const dcmText = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => v ?? '');
/** Empty (no limit) or a non-negative integer, given as text or number (READINGS A-44); empty is left out. */
const dcmCount = z
  .union([z.string(), z.number()], { error: m.dcmNumberInvalid })
  .nullable()
  .optional()
  .refine((v) => v === undefined || v === null || /^\d{0,9}$/.test(String(v).trim()), m.dcmNumberInvalid)
  .transform((v) => (v === undefined || v === null || String(v).trim() === '' ? undefined : Number(v)));
const optionalUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .optional()
    .transform((v) => v ?? '')
    .refine((v) => v === '' || isHttpUrl(v), message);

function isHttpUrl(v: string) {
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The GCD dispatcher (spec doc 2 §3.5, READINGS A-44). The tag inserts the content at the elements matching
 * `htmlElement` (tagBehavior), only on pages that have `containHtmlElement` (when given) and contain
 * `containText` (inside the containHtmlElement matches when given, else anywhere in the page's text); it
 * removes the content after `timeout` seconds and shows it at most `recurrence` times per visitor (empty or 0:
 * no limit). `dispatcher_type` says what is inserted: `custom` (customHtml, customCss, customJs), `template`
 * (alert at most 320 px wide, topbar or image, with title, message, image, redirect_uri) or `optin` (the push
 * invitation in the Default or Topbox model) or `notification` (a web push the engine sends). The selector is
 * required only for `custom`, the one kind placed at the element; for the others it is an optional condition (the
 * page must have it), and a push never enters the page. Fields of the other kinds are dropped on the way in.
 */
export const dcmDispatcherValuesSchema = z
  .object({
    filter: z.literal('CELL_DCM'),
    dispatcher_type: z.enum(DCM_DISPATCHER_TYPES, { error: m.dcmDispatcherInvalid }).optional().default('custom'),
    // Required where the content goes at the element (custom); elsewhere an optional page condition.
    htmlElement: z
      .string({ error: m.dcmSelectorRequired })
      .trim()
      .max(500, m.dcmSelectorTooLong)
      .optional()
      .transform((v) => v ?? '')
      .refine((v) => v === '' || isValidSelector(v), m.dcmSelectorInvalid),
    tagBehavior: z.enum(DCM_BEHAVIORS, { error: m.dcmBehaviorInvalid }),
    containHtmlElement: z
      .string({ error: m.dcmContainSelectorInvalid })
      .trim()
      .max(500, m.dcmSelectorTooLong)
      .optional()
      .transform((v) => v ?? '')
      .refine((v) => v === '' || isValidSelector(v), m.dcmContainSelectorInvalid),
    containText: dcmText(500, m.dcmContainTextTooLong),
    customHtml: code(DCM_LIMITS.customHtml, m.dcmHtmlTooLarge),
    customCss: code(DCM_LIMITS.customCss, m.dcmCssTooLarge),
    customJs: code(DCM_LIMITS.customJs, m.dcmJsTooLarge),
    timeout: dcmCount,
    recurrence: dcmCount,
    template: z.enum(DCM_TEMPLATES, { error: m.dcmTemplateRequired }).optional(),
    optin: z.enum(DCM_OPTIN_MODELS, { error: m.dcmOptinRequired }).optional(),
    name: dcmText(200, m.nameRequired),
    title: dcmText(80, m.dcmTitleTooLong),
    message: dcmText(300, m.dcmMessageTooLong),
    image: optionalUrl(m.dcmImageRequired),
    redirect_uri: optionalUrl(m.redirectInvalid),
    intervalRecurrency,
  })
  .superRefine((v, ctx) => {
    const fail = (message: string, field: string) => ctx.addIssue({ code: 'custom', message, path: [field] });
    if (v.dispatcher_type === 'custom') {
      if (!v.htmlElement) fail(m.dcmSelectorRequired, 'htmlElement');
      if (!v.customHtml.trim() && !v.customCss.trim() && !v.customJs.trim()) fail(m.dcmContentRequired, 'customHtml');
    } else if (v.dispatcher_type === 'template') {
      if (!v.template) fail(m.dcmTemplateRequired, 'template');
      else if (v.template === 'image' && !v.image) fail(m.dcmImageRequired, 'image');
      else if (v.template !== 'image' && !v.message) fail(m.dcmMessageRequired, 'message');
    } else if (v.dispatcher_type === 'notification') {
      if (!v.title) fail(m.titleRequired, 'title');
      if (!v.message) fail(m.dcmMessageRequired, 'message');
      if (!v.redirect_uri) fail(m.redirectInvalid, 'redirect_uri');
    } else if (!v.optin) fail(m.dcmOptinRequired, 'optin');
  })
  .transform((v) => {
    const { template, optin, name, title, message, image, redirect_uri, customHtml, customCss, customJs, ...rest } = v;
    if (v.dispatcher_type === 'custom') return { ...rest, customHtml, customCss, customJs };
    const notification = { name, title, message, redirect_uri };
    if (v.dispatcher_type === 'template') return { ...rest, template, ...notification, image };
    if (v.dispatcher_type === 'notification') return { ...rest, ...notification };
    return { ...rest, optin, ...notification };
  });
export type DcmDispatcherValues = z.output<typeof dcmDispatcherValuesSchema>;
