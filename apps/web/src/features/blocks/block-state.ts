import {
  dispatcherBlockSchema,
  type FilterOperator,
  filterBlockSchema,
  filterKeyInfo,
  finishBlockSchema,
  type RECURRENCE_PERIODS,
  type TRIGGER_TYPES,
  toFilterDay,
  triggerBlockSchema,
  type Worktime,
  worktimeSchema,
} from '@impeto/shared';
import dayjs from 'dayjs';
import type { z } from 'zod';
import { fromZonedInput, toZonedInput } from './zoned-time.ts';

/** Field errors of one editor, keyed by the field path inside the block ('0.value', 'comparation', …). */
export type FieldErrors = Record<string, string>;

// ------------------------------------------------------------------ filter

export interface FilterConditionState {
  filter: string;
  comparation: string;
  /** Strings as typed or picked; dates as 'YYYY-MM-DD'; booleans as 'Sim'/'Não'. */
  value: string[];
  /** End day of 'between', 'YYYY-MM-DD'. */
  value2: string;
  logical: 'and' | 'or';
}
export interface FilterState {
  enabled: boolean;
  regex: boolean;
  conditions: FilterConditionState[];
}

export const emptyCondition = (): FilterConditionState => ({
  filter: '',
  comparation: '',
  value: [],
  value2: '',
  logical: 'and',
});
export const emptyFilter = (): FilterState => ({ enabled: false, regex: false, conditions: [emptyCondition()] });

/** The switched-off filter means everyone: `{ filter: 'all' }` alone (DESIGN §11). */
const EVERYONE = { type: 'filter', regex: false, values: [{ filter: 'all', value: [] }] };

export function filterBlockInput(state: FilterState) {
  if (!state.enabled) return EVERYONE;
  return {
    type: 'filter',
    regex: state.regex,
    values: state.conditions.map((c, i) => {
      const isDate = filterKeyInfo(c.filter)?.mask === 'date';
      const day = (v: string) => toFilterDay(v) ?? v;
      return {
        filter: c.filter,
        ...(c.comparation ? { comparation: c.comparation } : {}),
        value: isDate ? c.value.map(day) : c.value,
        ...(isDate && c.comparation === 'between' ? { value2: c.value2 ? day(c.value2) : '' } : {}),
        ...(i === 1 ? { logical: c.logical } : {}),
      };
    }),
  };
}

export function filterFromBlock(block: unknown): FilterState {
  const b = block as { regex?: boolean; values?: Record<string, unknown>[] } | undefined;
  const values = b?.values ?? [];
  if (values.length === 0 || (values.length === 1 && values[0]?.filter === 'all')) return emptyFilter();
  return {
    enabled: true,
    regex: Boolean(b?.regex),
    conditions: values.slice(0, 2).map((v) => {
      const mask = filterKeyInfo(String(v.filter ?? ''))?.mask;
      const list = Array.isArray(v.value) ? v.value : v.value === undefined ? [] : [v.value];
      const value = list.map((x) => {
        if (typeof x === 'boolean') return x ? 'Sim' : 'Não';
        return mask === 'date' ? String(x).slice(0, 10) : String(x);
      });
      return {
        filter: String(v.filter ?? ''),
        comparation: String(v.comparation ?? ''),
        value,
        value2: typeof v.value2 === 'string' ? v.value2.slice(0, 10) : '',
        logical: v.logical === 'or' ? 'or' : 'and',
      };
    }),
  };
}

// ------------------------------------------------------------------ trigger

export type TriggerType = (typeof TRIGGER_TYPES)[number];
export type RecurrencePeriod = (typeof RECURRENCE_PERIODS)[number];
export interface TriggerState {
  filter: TriggerType | '';
  regex: boolean;
  comparation: string;
  comparation2: string;
  value: string[];
  value2: string[];
  parentCategory: string;
  /** An event trigger's second condition: another category, compared with comparation2 (spec doc 2 §3.3). */
  parentCategory2: string;
  key: string;
  hours: string;
  dischargeIn: number[];
}
export const emptyTrigger = (): TriggerState => ({
  filter: '',
  regex: false,
  comparation: '',
  comparation2: '',
  value: [],
  value2: [],
  parentCategory: '',
  parentCategory2: '',
  key: '',
  hours: '',
  dischargeIn: [],
});

export function triggerBlockInput(t: TriggerState) {
  const base = { filter: t.filter || undefined, value: t.value, dischargeIn: t.dischargeIn };
  switch (t.filter) {
    case 'pageview':
      return { type: 'trigger', regex: t.regex, values: [{ ...base, comparation: t.comparation || undefined }] };
    case 'events':
      return {
        type: 'trigger',
        regex: t.regex,
        values: [
          {
            ...base,
            parentCategory: t.parentCategory || undefined,
            key: t.key || undefined,
            comparation: t.comparation || undefined,
            ...(t.parentCategory2
              ? { parentCategory2: t.parentCategory2, comparation2: t.comparation2 || undefined }
              : {}),
          },
        ],
      };
    case 'abandon':
      return {
        type: 'trigger',
        regex: t.regex,
        values: [{ ...base, comparation: 'contain', comparation2: t.comparation2 || undefined, value2: t.value2 }],
      };
    case 'recurrence':
      return {
        type: 'trigger',
        regex: false,
        values: [{ ...base, comparation: t.comparation || undefined, hours: t.hours || undefined }],
      };
    default:
      return { type: 'trigger', regex: false, values: [{ ...base }] };
  }
}

export function triggerFromBlock(block: unknown): TriggerState {
  const b = block as { regex?: boolean; values?: Record<string, unknown>[] } | undefined;
  const v = b?.values?.[0];
  if (!v) return emptyTrigger();
  const list = (x: unknown) => (Array.isArray(x) ? x.map(String) : []);
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  return {
    filter: (text(v.filter) as TriggerType) || '',
    regex: Boolean(b?.regex),
    comparation: text(v.comparation),
    comparation2: text(v.comparation2),
    value: list(v.value),
    value2: list(v.value2),
    parentCategory: text(v.parentCategory),
    parentCategory2: text(v.parentCategory2),
    key: text(v.key),
    hours: text(v.hours),
    dischargeIn: Array.isArray(v.dischargeIn) ? v.dischargeIn.map(Number) : [],
  };
}

// ------------------------------------------------------------------ worktime

export interface WorktimeState {
  weekdays: number[];
  start_at: string;
  stop_at: string;
}
export const emptyWorktime = (): WorktimeState => ({ weekdays: [], start_at: '', stop_at: '' });
export const worktimeFromItem = (w: Worktime | null | undefined): WorktimeState => ({
  weekdays: w?.weekdays ?? [],
  start_at: w?.start_at ?? '',
  stop_at: w?.stop_at ?? '',
});
export const isWorktimeSet = (w: WorktimeState) => Boolean(w.weekdays.length || w.start_at || w.stop_at);

/** Every ten minutes of the day: 00:00 … 23:50 (spec doc 2 §9). */
export const WORKTIME_OPTIONS = Array.from({ length: 144 }, (_, i) => {
  const minutes = i * 10;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

// ------------------------------------------------------------------ channel (push)

export interface ChannelState {
  channel_uuid: string;
  name: string;
  title: string;
  message: string;
  icon_uri: string;
  image: string;
  redirect_uri: string;
  /** Up to two action buttons (`notification_buttons`). */
  buttons: { title: string; url: string }[];
  repeat: boolean;
  intervalRecurrency: number[];
}
export const emptyChannel = (): ChannelState => ({
  channel_uuid: '',
  name: '',
  title: '',
  message: '',
  icon_uri: '',
  image: '',
  redirect_uri: '',
  buttons: [],
  repeat: false,
  intervalRecurrency: [],
});

export function dispatcherBlockInput(c: ChannelState) {
  return {
    type: 'dispatcher',
    values: [
      {
        filter: 'CELL_NOTIFICATION',
        name: c.name,
        title: c.title,
        message: c.message,
        icon_uri: c.icon_uri,
        image: c.image,
        redirect_uri: c.redirect_uri,
        ...(c.buttons.length ? { notification_buttons: c.buttons } : {}),
        intervalRecurrency: c.repeat ? c.intervalRecurrency : [],
      },
    ],
  };
}

/** The stored `notification_buttons` as the forms edit them (at most two, text fields). */
export function notificationButtonsOf(value: unknown): { title: string; url: string }[] {
  if (!Array.isArray(value)) return [];
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  return (value as Record<string, unknown>[]).slice(0, 2).map((b) => ({ title: text(b?.title), url: text(b?.url) }));
}

export function channelFromBlock(block: unknown, channelUuid: string | null | undefined): ChannelState {
  const v = (block as { values?: Record<string, unknown>[] } | undefined)?.values?.[0] ?? {};
  const text = (x: unknown) => (typeof x === 'string' ? x : '');
  const intervals = Array.isArray(v.intervalRecurrency) ? v.intervalRecurrency.map(Number) : [];
  return {
    channel_uuid: channelUuid ?? '',
    name: text(v.name),
    title: text(v.title),
    message: text(v.message),
    icon_uri: text(v.icon_uri ?? v.icon),
    image: text(v.image),
    redirect_uri: text(v.redirect_uri),
    buttons: notificationButtonsOf(v.notification_buttons),
    repeat: intervals.length > 0,
    intervalRecurrency: intervals,
  };
}

// ------------------------------------------------------------------ finish

export interface FinishState {
  enabled: boolean;
  /** The picker's wall-clock value in America/Sao_Paulo, 'YYYY-MM-DD HH:mm:ss'. */
  value: string;
}
export const emptyFinish = (): FinishState => ({ enabled: false, value: '' });

export const finishBlockInput = (f: FinishState) => ({
  type: 'finish',
  values: [{ type: 'finish', filter: 'stop_momentum', value: f.value ? fromZonedInput(f.value) : '' }],
});

export function finishFromBlock(block: unknown): FinishState {
  const value = (block as { values?: { value?: unknown }[] } | undefined)?.values?.[0]?.value;
  return typeof value === 'string' && dayjs(value).isValid()
    ? { enabled: true, value: toZonedInput(value) }
    : emptyFinish();
}

// ------------------------------------------------------------------ validation through the shared schemas

function issuesToErrors(error: z.ZodError, strip: number): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.slice(strip).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return errors;
}

export type Checked<T> = { ok: true; block: T } | { ok: false; errors: FieldErrors };

function check<S extends z.ZodType>(schema: S, input: unknown, strip: number): Checked<z.output<S>> {
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, block: parsed.data } : { ok: false, errors: issuesToErrors(parsed.error, strip) };
}

/** Filter errors are keyed '<condition index>.<field>', or '_' for the whole block. */
export const checkFilter = (state: FilterState) => check(filterBlockSchema, filterBlockInput(state), 1);
/** Trigger errors are keyed by field ('comparation', 'value', …). */
export const checkTrigger = (state: TriggerState) => check(triggerBlockSchema, triggerBlockInput(state), 2);
export const checkDispatcher = (state: ChannelState) => check(dispatcherBlockSchema, dispatcherBlockInput(state), 2);
export const checkFinish = (state: FinishState) => check(finishBlockSchema, finishBlockInput(state), 2);
export const checkWorktime = (state: WorktimeState) => check(worktimeSchema, state, 0);

export type { FilterOperator };
