import {
  DCM_ALERT_MAX_WIDTH,
  type DCM_BEHAVIORS,
  type DCM_DISPATCHER_TYPES,
  DCM_LIMITS,
  type DCM_OPTIN_MODELS,
  type DCM_TEMPLATES,
  dispatcherBlockSchema,
  filterMessages as fm,
  isValidSelector,
} from '@impeto/shared';
import { type Checked, checkTrigger, type FieldErrors, type TriggerState, type TriggerType } from '../blocks/index.ts';

// The GCD manager's own state: the Tags customizadas block and the dispatcher of 'Últimos passos' (spec doc 2
// §2.6, §3.5, READINGS A-44). Everything is checked by the shared CELL_DCM schema the server uses.

export type DcmBehavior = (typeof DCM_BEHAVIORS)[number];
export type DcmDispatcherType = (typeof DCM_DISPATCHER_TYPES)[number];
export type DcmTemplate = (typeof DCM_TEMPLATES)[number];
export type DcmOptinModel = (typeof DCM_OPTIN_MODELS)[number];

/** The trigger types the tag evaluates inside the visitor's page. */
export const DCM_TRIGGER_TYPES: readonly TriggerType[] = ['pageview', 'events'];

export const BEHAVIOR_LABELS: Record<DcmBehavior, { label: string; description: string }> = {
  beforeend: { label: 'No fim', description: 'beforeend: dentro do elemento, depois do que já existe nele' },
  afterbegin: { label: 'No início', description: 'afterbegin: dentro do elemento, antes do que já existe nele' },
  replace: { label: 'Substituir', description: 'replace: o elemento inteiro dá lugar ao conteúdo' },
};
export const DISPATCHER_LABELS: Record<DcmDispatcherType, string> = {
  custom: 'Tags customizadas',
  template: 'Template',
  optin: 'Opt-in de push',
  notification: 'Notificação push',
};
export const TEMPLATE_LABELS: Record<DcmTemplate, string> = {
  alert: 'Alerta',
  topbar: 'Barra no topo',
  image: 'Imagem',
};
export const OPTIN_LABELS: Record<DcmOptinModel, { label: string; description: string }> = {
  default: { label: 'Default', description: 'Pede a permissão do navegador direto.' },
  topbox: { label: 'Topbox', description: 'Mostra antes uma caixa no topo convidando o visitante.' },
};

export interface DcmTagsState {
  htmlElement: string;
  tagBehavior: DcmBehavior;
  containHtmlElement: string;
  containText: string;
  customHtml: string;
  customCss: string;
  customJs: string;
  /** Free text as typed; empty or a non-negative integer. */
  timeout: string;
  recurrence: string;
}
export interface DcmDispatcherState {
  dispatcher_type: DcmDispatcherType;
  template: DcmTemplate;
  optin: DcmOptinModel;
  name: string;
  title: string;
  message: string;
  image: string;
  redirect_uri: string;
}

export const emptyTags = (): DcmTagsState => ({
  htmlElement: '',
  tagBehavior: 'beforeend',
  containHtmlElement: '',
  containText: '',
  customHtml: '',
  customCss: '',
  customJs: '',
  timeout: '',
  recurrence: '',
});
export const emptyDispatcher = (): DcmDispatcherState => ({
  dispatcher_type: 'custom',
  template: 'alert',
  optin: 'topbox',
  name: '',
  title: '',
  message: '',
  image: '',
  redirect_uri: '',
});

export function dcmBlockInput(tags: DcmTagsState, d: DcmDispatcherState) {
  const base = {
    filter: 'CELL_DCM',
    dispatcher_type: d.dispatcher_type,
    htmlElement: tags.htmlElement,
    tagBehavior: tags.tagBehavior,
    containHtmlElement: tags.containHtmlElement,
    containText: tags.containText,
    timeout: tags.timeout,
    recurrence: tags.recurrence,
    intervalRecurrency: [],
  };
  const notification = { name: d.name, title: d.title, message: d.message, redirect_uri: d.redirect_uri };
  if (d.dispatcher_type === 'custom')
    return { ...base, customHtml: tags.customHtml, customCss: tags.customCss, customJs: tags.customJs };
  if (d.dispatcher_type === 'template') return { ...base, template: d.template, ...notification, image: d.image };
  return { ...base, optin: d.optin, ...notification };
}

export function dcmFromBlock(block: unknown): { tags: DcmTagsState; dispatcher: DcmDispatcherState } {
  const v = (block as { values?: Record<string, unknown>[] } | undefined)?.values?.[0] ?? {};
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  const count = (x: unknown) => (typeof x === 'number' || typeof x === 'string' ? String(x) : '');
  const tags = emptyTags();
  const dispatcher = emptyDispatcher();
  const behavior = text(v.tagBehavior);
  const kind = text(v.dispatcher_type);
  return {
    tags: {
      ...tags,
      htmlElement: text(v.htmlElement),
      tagBehavior: behavior in BEHAVIOR_LABELS ? (behavior as DcmBehavior) : tags.tagBehavior,
      containHtmlElement: text(v.containHtmlElement),
      containText: text(v.containText),
      customHtml: text(v.customHtml),
      customCss: text(v.customCss),
      customJs: text(v.customJs),
      timeout: count(v.timeout),
      recurrence: count(v.recurrence),
    },
    dispatcher: {
      ...dispatcher,
      dispatcher_type: kind in DISPATCHER_LABELS ? (kind as DcmDispatcherType) : dispatcher.dispatcher_type,
      template: text(v.template) in TEMPLATE_LABELS ? (text(v.template) as DcmTemplate) : dispatcher.template,
      optin: text(v.optin) in OPTIN_LABELS ? (text(v.optin) as DcmOptinModel) : dispatcher.optin,
      name: text(v.name),
      title: text(v.title),
      message: text(v.message),
      image: text(v.image),
      redirect_uri: text(v.redirect_uri),
    },
  };
}

const errorsOf = (issues: { path: PropertyKey[]; message: string }[]): FieldErrors => {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.slice(2).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return errors;
};

/** The whole CELL_DCM block through the shared schema; errors keyed by field (htmlElement, customHtml, …). */
export function checkDcm(tags: DcmTagsState, d: DcmDispatcherState): Checked<unknown> {
  const parsed = dispatcherBlockSchema.safeParse({ type: 'dispatcher', values: [dcmBlockInput(tags, d)] });
  return parsed.success ? { ok: true, block: parsed.data } : { ok: false, errors: errorsOf(parsed.error.issues) };
}

const TAG_FIELDS = [
  'htmlElement',
  'tagBehavior',
  'containHtmlElement',
  'containText',
  'customHtml',
  'customCss',
  'customJs',
  'timeout',
  'recurrence',
];

/**
 * The Tags customizadas block alone (Salvar checks it before 'Últimos passos'): the shared schema's field
 * messages, plus the browser's own `querySelector` verdict on both selectors. Whether code and a selector are
 * needed at all depends on what 'Últimos passos' chooses to show (only custom code goes at the element), so an
 * empty editor and an empty selector are judged there (`chosen`).
 */
export function checkTags(tags: DcmTagsState, kind: DcmDispatcherType, chosen = true): FieldErrors {
  const checked = checkDcm(tags, { ...emptyDispatcher(), dispatcher_type: 'custom' });
  const errors: FieldErrors = {};
  if (!checked.ok)
    for (const [key, message] of Object.entries(checked.errors))
      if (
        TAG_FIELDS.includes(key) &&
        message !== fm.dcmContentRequired &&
        !(message === fm.dcmSelectorRequired && (!chosen || kind !== 'custom')) &&
        (kind === 'custom' || !key.startsWith('custom'))
      )
        errors[key] = message;
  if (!errors.htmlElement && tags.htmlElement.trim() && !browserAccepts(tags.htmlElement))
    errors.htmlElement = fm.dcmSelectorInvalid;
  if (!errors.containHtmlElement && tags.containHtmlElement.trim() && !browserAccepts(tags.containHtmlElement))
    errors.containHtmlElement = fm.dcmContainSelectorInvalid;
  return errors;
}

/** The dashboard's browser has the real querySelector: its verdict is checked too (a fragment, never the page). */
export function browserAccepts(selector: string): boolean {
  if (!isValidSelector(selector)) return false;
  try {
    document.createDocumentFragment().querySelector(selector);
    return true;
  } catch {
    return false;
  }
}

/** The GCD rule the tag evaluates needs the trigger's comparison and at least one value (spec doc 2 §5). */
export function checkDcmTrigger(t: TriggerState): Checked<unknown> {
  const checked = checkTrigger(t);
  const errors: FieldErrors = checked.ok ? {} : { ...checked.errors };
  if (!t.filter) errors.filter ??= fm.triggerRequired;
  else {
    if (!t.comparation) errors.comparation ??= fm.comparationRequired;
    if (t.value.length === 0) errors.value ??= fm.valueRequired;
    if (t.filter === 'events' && !t.key) errors.key ??= fm.eventKeyRequired;
  }
  return Object.keys(errors).length || !checked.ok ? { ok: false, errors } : checked;
}

export const bytes = (text: string) => new TextEncoder().encode(text).length;
export const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : `${(n / 1024).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} KB`;
export { DCM_ALERT_MAX_WIDTH, DCM_LIMITS };
