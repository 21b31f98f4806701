import {
  DATE_OPERATOR_LABELS,
  type FilterOperator,
  filterKeyInfo,
  formatInterval,
  OPERATOR_LABELS,
  WEEKDAYS,
  type Worktime,
} from '@impeto/shared';
import { notificationButtonsOf } from './block-state.ts';
import { abandonAudience, MONTH_LABELS, RECURRENCE_LABELS, TRIGGER_LABELS, WEEKDAY_LABELS } from './trigger-editor.tsx';
import { WEEKDAY_SHORT } from './worktime-editor.tsx';
import { formatZoned } from './zoned-time.ts';

type Values = Record<string, unknown>;
const valuesOf = (block: unknown): Values[] => (block as { values?: Values[] } | undefined)?.values ?? [];
const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const opLabel = (key: string, op: string) =>
  filterKeyInfo(key)?.mask === 'date'
    ? (DATE_OPERATOR_LABELS[op as keyof typeof DATE_OPERATOR_LABELS] ?? op)
    : (OPERATOR_LABELS[op as FilterOperator] ?? op);
const day = (iso: unknown) =>
  typeof iso === 'string' ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : '';

export const blockOf = (blocks: unknown[] | undefined, type: string) =>
  (blocks ?? []).find((b) => (b as { type?: string })?.type === type);

/** 'Navegador igual a Chrome, Firefox E País igual a BR'; 'Todos os visitantes' for 'all'. */
export function describeFilter(block: unknown): string {
  const values = valuesOf(block);
  if (values.length === 0 || values[0]?.filter === 'all') return 'Todos os visitantes';
  const regex = Boolean((block as { regex?: boolean }).regex);
  return values
    .map((c, i) => {
      const key = String(c.filter ?? '');
      const info = filterKeyInfo(key);
      const name = info?.name ?? key;
      const shown =
        info?.mask === 'date'
          ? c.comparation === 'between'
            ? `${day(list(c.value)[0])} e ${day(c.value2)}`
            : day(list(c.value)[0])
          : list(c.value)
              .map((v) => (v === true ? 'Sim' : v === false ? 'Não' : String(v)))
              .join(', ');
      const joiner = i === 0 ? '' : c.logical === 'or' ? 'OU ' : 'E ';
      return `${joiner}${name} ${opLabel(key, String(c.comparation ?? '')).toLowerCase()} ${shown}`;
    })
    .join(' ')
    .concat(regex ? ' (expressão regular)' : '');
}

export function describeTrigger(block: unknown): string {
  const t = valuesOf(block)[0];
  if (!t) return '—';
  const type = String(t.filter ?? '') as keyof typeof TRIGGER_LABELS;
  const label = TRIGGER_LABELS[type] ?? type;
  const op = (c: unknown) => (OPERATOR_LABELS[String(c) as FilterOperator] ?? String(c ?? '')).toLowerCase();
  switch (type) {
    case 'pageview':
      return `${label}: ${op(t.comparation)} ${list(t.value).join(', ')}`;
    case 'events':
      return `${label}: ${t.parentCategory ?? ''}${t.key ? ` · ${t.key} ${op(t.comparation)} ${list(t.value).join(', ')}` : ''}`;
    case 'abandon': {
      const who = abandonAudience({
        value: list(t.value),
        comparation2: t.comparation2,
        value2: list(t.value2),
        dischargeIn: list(t.dischargeIn),
      });
      return `${label}: ${who.charAt(0).toLowerCase()}${who.slice(1)}`;
    }
    case 'recurrence':
      return `${label}: ${describeRecurrence(block)}`;
    default:
      return label;
  }
}

export function describeRecurrence(block: unknown): string {
  const t = valuesOf(block)[0];
  if (t?.filter !== 'recurrence') return '—';
  const period = String(t.comparation ?? '') as keyof typeof RECURRENCE_LABELS;
  const hours = t.hours ? ` às ${t.hours}` : '';
  const first = String(list(t.value)[0] ?? '');
  if (period === 'monthly') {
    const [mm, dd] = first.split('-');
    return `${RECURRENCE_LABELS.monthly}, todo dia ${Number(dd)} a partir de ${MONTH_LABELS[Number(mm) - 1]?.toLowerCase() ?? mm}${hours}`;
  }
  if (period === 'weekly') {
    const i = WEEKDAYS.indexOf(first as (typeof WEEKDAYS)[number]);
    return `${RECURRENCE_LABELS.weekly}, ${(WEEKDAY_LABELS[i] ?? first).toLowerCase()}${hours}`;
  }
  return `${RECURRENCE_LABELS[period] ?? period}${hours}`;
}

export function describeDelay(block: unknown): string {
  const delay = list(valuesOf(block)[0]?.dischargeIn)[0];
  return typeof delay === 'number' && delay > 0 ? formatInterval(delay) : 'Imediato';
}

export function describeIntervals(block: unknown): string {
  const intervals = list(valuesOf(block)[0]?.intervalRecurrency).filter((n) => typeof n === 'number') as number[];
  return intervals.length ? intervals.map(formatInterval).join(', ') : 'Envio único';
}

export function describeWorktime(w: Worktime | null | undefined): string {
  if (!w?.weekdays?.length || !w.start_at || !w.stop_at) return 'Todos os dias, a qualquer hora';
  const days = w.weekdays.map((d) => WEEKDAY_SHORT[d] ?? String(d)).join(', ');
  return `${days}, das ${w.start_at} às ${w.stop_at}`;
}

export function describeFinish(block: unknown): string {
  const value = valuesOf(block)[0]?.value;
  return typeof value === 'string' ? formatZoned(value, 'DD/MM/YYYY - HH:mm') : 'Sem data de finalização';
}

export interface PushContent {
  name: string;
  title: string;
  message: string;
  icon_uri: string;
  image: string;
  redirect_uri: string;
  buttons: { title: string; url: string }[];
}

export function pushContentOf(block: unknown): PushContent {
  const v = valuesOf(block)[0] ?? {};
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  return {
    name: text(v.name),
    title: text(v.title),
    message: text(v.message),
    icon_uri: text(v.icon_uri ?? v.icon),
    image: text(v.image),
    redirect_uri: text(v.redirect_uri),
    buttons: notificationButtonsOf(v.notification_buttons),
  };
}
