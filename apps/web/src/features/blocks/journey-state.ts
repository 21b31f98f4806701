import {
  CONDITION_LABELS,
  type ConditionKind,
  DEFAULT_JOURNEY_EXIT,
  type JourneyExitInput,
  type JourneyStepInput,
  MAX_JOURNEY_STEPS,
  OPERATOR_LABELS,
  stepConditionSchema,
  stepWaitSchema,
  VARIANT_NAMES,
  type WaitUnit,
} from '@impeto/shared';
import {
  checkFilter,
  emptyCondition,
  type FieldErrors,
  type FilterState,
  filterBlockInput,
  filterFromBlock,
} from './block-state.ts';
import { describeFilter } from './block-summary.ts';
import { type ExperimentState, emptyExperiment, experimentFromItem } from './experiment-editor.tsx';

/*
 * Journeys (issue #26), shared by the v2 form and the diagram: a step's wait and condition as the editors hold them,
 * and their wire shapes (packages/shared/src/journeys). The message of a step is the page's own channel state `M`
 * (the diagram's channel form, the v2 form's push editor), read and written by the functions the caller passes.
 */

export { MAX_JOURNEY_STEPS };

export interface WaitState {
  /** As typed (NumberInput gives '' when emptied). */
  amount: number | string;
  unit: WaitUnit;
  worktime: boolean;
}

export interface ConditionState {
  kind: ConditionKind;
  /** Pages, or the event property's comparison. */
  comparation: string;
  /** Pages, or the event property's values. */
  value: string[];
  category: string;
  key: string;
  filter: FilterState;
}

export interface StepState<M> {
  wait: WaitState;
  condition: ConditionState;
  message: M;
  /** The split's 'Não' branch; null: those whose condition fails leave the journey. */
  otherwise: M | null;
  /**
   * 'Teste A/B' of the step's message (A is `message`, `others` are B, C, …); absent or off: one message. Steps have
   * no control group (`control` stays 0).
   */
  experiment?: ExperimentState<M>;
}

export interface ExitState {
  on_conversion: boolean;
  on_opt_out: boolean;
  /** 'Atende a um filtro': `filter.enabled` says whether the rule is on. */
  filter: FilterState;
}

const filterOn = (): FilterState => ({ enabled: true, regex: false, conditions: [emptyCondition()] });

export const emptyStepCondition = (kind: ConditionKind = 'not_converted'): ConditionState => ({
  kind,
  comparation: 'contain',
  value: [],
  category: '',
  key: '',
  filter: filterOn(),
});

export const newStep = <M>(message: M): StepState<M> => ({
  wait: { amount: 1, unit: 'days', worktime: false },
  condition: emptyStepCondition(),
  message,
  otherwise: null,
  experiment: emptyExperiment(),
});

export const emptyExit = (): ExitState => ({
  on_conversion: DEFAULT_JOURNEY_EXIT.on_conversion,
  on_opt_out: DEFAULT_JOURNEY_EXIT.on_opt_out,
  filter: { enabled: false, regex: false, conditions: [emptyCondition()] },
});

export const waitInput = (w: WaitState) => ({
  amount: w.amount === '' ? Number.NaN : Number(w.amount),
  unit: w.unit,
  ...(w.worktime ? { worktime: true } : {}),
});

const isPageKind = (kind: ConditionKind) => kind === 'viewed_page' || kind === 'not_viewed_page';
const isEventKind = (kind: ConditionKind) => kind === 'event' || kind === 'no_event';

export function conditionInput(c: ConditionState): JourneyStepInput['condition'] {
  if (isPageKind(c.kind))
    return { kind: c.kind, comparation: (c.comparation || 'contain') as 'contain', value: c.value } as never;
  if (isEventKind(c.kind)) {
    const property = c.key.trim()
      ? { key: c.key.trim(), comparation: (c.comparation || '==') as '==', value: c.value }
      : {};
    return { kind: c.kind, category: c.category, ...property } as never;
  }
  if (c.kind === 'filter') return { kind: 'filter', filter: filterBlockInput({ ...c.filter, enabled: true }) } as never;
  return { kind: c.kind } as never;
}

export function conditionFromWire(raw: unknown): ConditionState {
  const c = (raw ?? {}) as Record<string, unknown>;
  const kind = (typeof c.kind === 'string' ? c.kind : 'not_converted') as ConditionKind;
  const list = Array.isArray(c.value) ? c.value.map(String) : [];
  const base = emptyStepCondition(kind);
  if (isPageKind(kind)) return { ...base, comparation: String(c.comparation ?? 'contain'), value: list };
  if (isEventKind(kind))
    return {
      ...base,
      category: String(c.category ?? ''),
      key: String(c.key ?? ''),
      comparation: String(c.comparation ?? '=='),
      value: list,
    };
  if (kind === 'filter') {
    const filter = filterFromBlock(c.filter);
    return { ...base, filter: filter.enabled ? filter : filterOn() };
  }
  return base;
}

/** One step as the body's `steps[i]`; `toValues` gives the message's dispatcher value (`values[0]`). */
export function stepInput<M>(s: StepState<M>, toValues: (m: M) => unknown): JourneyStepInput {
  return {
    wait: waitInput(s.wait),
    condition: conditionInput(s.condition),
    values: [toValues(s.message)],
    ...(s.otherwise ? { otherwise: [toValues(s.otherwise)] } : {}),
    ...(s.experiment?.ab ? { variants: stepVariantsInput(s.experiment, s.message, toValues) } : {}),
  } as JourneyStepInput;
}

/** A step's `variants` (A is the step's message); a share emptied in its input is NaN (the schema refuses it). */
export function stepVariantsInput<M>(e: ExperimentState<M>, message: M, toValues: (m: M) => unknown) {
  return [message, ...e.others].map((m, i) => ({
    name: VARIANT_NAMES[i] as 'A',
    weight: e.weights[i] === '' || e.weights[i] === undefined ? Number.NaN : Number(e.weights[i]),
    values: [toValues(m)],
  })) as NonNullable<JourneyStepInput['variants']>;
}

/** A stored step as the editors' state; `fromValue` reads one dispatcher value (`values[0]`). */
export function stepFromWire<M>(raw: unknown, fromValue: (value: unknown) => M): StepState<M> {
  const s = (raw ?? {}) as Record<string, unknown>;
  const w = (s.wait ?? {}) as Record<string, unknown>;
  const first = (v: unknown) => (Array.isArray(v) ? v[0] : undefined);
  return {
    wait: {
      amount: typeof w.amount === 'number' ? w.amount : 1,
      unit: (w.unit === 'minutes' || w.unit === 'hours' ? w.unit : 'days') as WaitUnit,
      worktime: w.worktime === true,
    },
    condition: conditionFromWire(s.condition),
    message: fromValue(first(s.values)),
    otherwise: Array.isArray(s.otherwise) && s.otherwise.length ? fromValue(first(s.otherwise)) : null,
    experiment:
      Array.isArray(s.variants) && s.variants.length >= 2
        ? experimentFromItem({ control_percent: 0, variants: s.variants }, fromValue)
        : emptyExperiment(),
  };
}

export function exitInput(e: ExitState): JourneyExitInput {
  return {
    on_conversion: e.on_conversion,
    on_opt_out: e.on_opt_out,
    filter: e.filter.enabled ? (filterBlockInput(e.filter) as JourneyExitInput['filter']) : null,
  };
}

export function exitFromWire(raw: unknown): ExitState {
  if (!raw || typeof raw !== 'object') return emptyExit();
  const e = raw as Record<string, unknown>;
  const filter = e.filter ? filterFromBlock(e.filter) : emptyExit().filter;
  return { on_conversion: e.on_conversion !== false, on_opt_out: e.on_opt_out === true, filter };
}

function issues(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const errors: FieldErrors = {};
  if (!result.success)
    for (const issue of result.error?.issues ?? []) errors[issue.path.map(String).join('.') || '_'] ??= issue.message;
  return errors;
}

/** The wait's errors keyed 'amount' / 'unit'. */
export const checkWait = (w: WaitState): FieldErrors => issues(stepWaitSchema.safeParse(waitInput(w)));

/** The condition's errors keyed by field ('value', 'category'); a person filter's as the filter editor reads them. */
export function checkCondition(c: ConditionState): FieldErrors {
  if (c.kind === 'filter') {
    const f = checkFilter({ ...c.filter, enabled: true });
    return f.ok ? {} : f.errors;
  }
  return issues(stepConditionSchema.safeParse(conditionInput(c)));
}

/** The exit filter's errors (the filter editor's keys), none when the rule is off. */
export function checkExit(e: ExitState): FieldErrors {
  if (!e.filter.enabled) return {};
  const f = checkFilter(e.filter);
  return f.ok ? {} : f.errors;
}

const quoted = (v: unknown) => (Array.isArray(v) ? v.map((x) => `“${String(x)}”`).join(', ') : '');

/** One line for a condition: its label and, for pages and events, what it compares. */
export function describeCondition(c: Record<string, unknown> | undefined): string {
  const kind = c?.kind as ConditionKind | undefined;
  if (!kind || !CONDITION_LABELS[kind]) return 'Escolha a condição';
  const label = CONDITION_LABELS[kind];
  if (kind === 'viewed_page' || kind === 'not_viewed_page') {
    const op = OPERATOR_LABELS[(c?.comparation as 'contain') ?? 'contain'] ?? '';
    const pages = quoted(c?.value);
    return pages ? `${label} que ${op.toLowerCase()} ${pages}` : `${label}: escolha as páginas`;
  }
  if (kind === 'event' || kind === 'no_event') {
    const category = String(c?.category ?? '').trim();
    if (!category) return `${label}: escolha o evento`;
    const key = String(c?.key ?? '').trim();
    return key ? `${label} “${category}” com ${key} ${quoted(c?.value)}` : `${label} “${category}”`;
  }
  if (kind === 'filter') {
    const f = c?.filter as { values?: Record<string, unknown>[] } | undefined;
    return f?.values?.[0]?.filter ? `${label}: ${describeFilter(f)}` : label;
  }
  return label;
}
