// The custom on-site message of a SUPERARE_WEBVIEW dispatcher (spec doc 2 §2.5, §3.6, §5).
import { ONSITE_MODES, ONSITE_TYPES } from '@impeto/shared';

/** The types and device targets the tag renders (one list, in packages/shared). */
export const WEBVIEW_TYPES = ONSITE_TYPES;
export type WebviewType = (typeof WEBVIEW_TYPES)[number];
export const WEBVIEW_TYPE_LABELS: Record<WebviewType, string> = {
  notification_box: 'Caixa de notificação',
  topbar: 'Barra no topo',
  alert_box: 'Alerta',
};

export const WEBVIEW_MODES = ONSITE_MODES;
export const WEBVIEW_MODE_LABELS: Record<(typeof WEBVIEW_MODES)[number], string> = {
  devices_all: 'Todos os dispositivos',
  devices_mobile: 'Dispositivos móveis',
  devices_smartphone: 'Smartphones',
  devices_tablets: 'Tablets',
  devices_desktops: 'Desktops',
};

export const ALERT_POSITIONS = [
  'topLeft',
  'topCenter',
  'topRight',
  'centerLeft',
  'centerCenter',
  'centerRight',
  'bottomLeft',
  'bottomCenter',
  'bottomRight',
] as const;
export type AlertPosition = (typeof ALERT_POSITIONS)[number];

/** Each type's props with the spec's defaults (colours) and empty texts. */
export const WEBVIEW_DEFAULTS: Record<WebviewType, Record<string, string>> = {
  notification_box: {
    notificationImage: '',
    notificationTitle: '',
    notificationContent: '',
    notificationButtonText: '',
    notificationButtonUrl: '',
    titleColor: '#000000',
    descriptionColor: '#000000',
    btnBackground: '#000000',
    btnColor: '#FFFFFF',
    boxColor: '#FFFFFF',
  },
  alert_box: {
    alertContent: '',
    alertContentColor: '#FFFFFF',
    alertBackgroundColor: '#C04848',
    alertPosition: 'topRight',
  },
  topbar: {
    topbarContent: '',
    topbarBtnText: '',
    topbarBtnUrl: '',
    topbarContentColor: '#000000',
    topbarBtnColor: '#FFFFFF',
    topbarBtnBackground: '#000000',
    topbarBackgroundColor: '#FFFFFF',
  },
};

/** The texts each type requires (spec doc 2 §5), with their labels. */
export const WEBVIEW_REQUIRED: Record<WebviewType, { key: string; message: string }[]> = {
  notification_box: [
    { key: 'notificationTitle', message: 'Informe o título da mensagem.' },
    { key: 'notificationContent', message: 'Informe o conteúdo da mensagem.' },
    { key: 'notificationButtonText', message: 'Informe o texto do botão.' },
  ],
  alert_box: [{ key: 'alertContent', message: 'Informe o conteúdo do alerta.' }],
  topbar: [
    { key: 'topbarContent', message: 'Informe o conteúdo da barra.' },
    { key: 'topbarBtnText', message: 'Informe o texto do botão.' },
  ],
};

export interface WebviewState {
  webview_type: WebviewType;
  webview_mode: string;
  /** Props of every type touched so far; only the chosen type's are sent. */
  props: Record<WebviewType, Record<string, string>>;
}

export const emptyWebview = (): WebviewState => ({
  webview_type: 'notification_box',
  webview_mode: 'devices_all',
  props: {
    notification_box: { ...WEBVIEW_DEFAULTS.notification_box },
    alert_box: { ...WEBVIEW_DEFAULTS.alert_box },
    topbar: { ...WEBVIEW_DEFAULTS.topbar },
  },
});

export const webviewInput = (state: WebviewState) => ({
  webview_type: state.webview_type,
  webview_mode: state.webview_mode || 'devices_all',
  webview_props: { ...WEBVIEW_DEFAULTS[state.webview_type], ...state.props[state.webview_type] },
});

const isWebviewType = (v: unknown): v is WebviewType => WEBVIEW_TYPES.includes(v as WebviewType);

/** The older v2 draft names (devices, webview_box_*) still load (READINGS A-38). */
const LEGACY_TYPES: Record<string, WebviewType> = {
  box_title: 'notification_box',
  box_no_title: 'notification_box',
  box_image: 'notification_box',
  bar: 'topbar',
  notification_bar: 'topbar',
};

export function webviewFromValues(values: Record<string, unknown>): WebviewState {
  const state = emptyWebview();
  const rawType = values.webview_type;
  const type: WebviewType = isWebviewType(rawType)
    ? rawType
    : (LEGACY_TYPES[String(rawType ?? '')] ?? 'notification_box');
  state.webview_type = type;
  const mode = values.webview_mode ?? values.devices;
  if (typeof mode === 'string' && mode) state.webview_mode = mode.startsWith('devices_') ? mode : `devices_${mode}`;
  const props = values.webview_props;
  if (props && typeof props === 'object') {
    for (const [key, value] of Object.entries(props)) if (typeof value === 'string') state.props[type][key] = value;
  } else {
    const title = values.webview_box_title;
    const content = values.webview_box_content;
    const position = values.webview_box_position;
    if (type === 'notification_box') {
      if (typeof title === 'string') state.props.notification_box.notificationTitle = title;
      if (typeof content === 'string') state.props.notification_box.notificationContent = content;
    } else if (type === 'topbar' && typeof content === 'string') state.props.topbar.topbarContent = content;
    if (typeof position === 'string') state.props.alert_box.alertPosition = position;
  }
  return state;
}

/** Missing required texts of a dispatcher's values, keyed 'webview_props.<key>'. */
export function webviewProblems(values: Record<string, unknown>): Record<string, string> {
  const type = values.webview_type;
  if (!isWebviewType(type)) return { webview_type: 'Escolha o tipo da mensagem on-site.' };
  const props = (values.webview_props ?? {}) as Record<string, unknown>;
  const problems: Record<string, string> = {};
  for (const { key, message } of WEBVIEW_REQUIRED[type]) {
    if (typeof props[key] !== 'string' || !(props[key] as string).trim()) problems[`webview_props.${key}`] = message;
  }
  return problems;
}
