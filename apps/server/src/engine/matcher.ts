import {
  type FilterBlock,
  type MomentumTiming,
  type MomentumType,
  textRule as sharedTextRule,
  type TriggerCondition,
  toPortableRegex,
  type Worktime,
} from '@impeto/shared';
import { type CompiledFilter, compileFilter } from '../lib/filter/compile-filter.ts';
import type { DispatchMomentum } from './deliveries.queries.ts';
import { DEFAULT_TIME_ZONE, type RecurrenceRule } from './schedule.ts';

/*
 * A momentum compiled for the engine: what starts a delivery (pageview, events, abandon triggers), what
 * cancels one (an abandon's goal page), the audience filter, the timing. Pure: unit-tested without a database.
 *
 * URL rules: == / != compare the page address without scheme, fragment and trailing slash, the host
 * case-insensitively; contain / notcontain look for the text case-insensitively (the filter module's folding);
 * with the regex flag every value is a pattern searched in the address (portable subset, flags 'su').
 * Several values: == and contain pass when one matches; != and notcontain when none does.
 */

export interface StoredEvent {
  id: number;
  domainUuid: string;
  personUuid: string | null;
  kind: string;
  url: string | null;
  category: string | null;
  props: Record<string, unknown> | null;
  ts: Date;
}

export interface MomentumRow {
  uuid: string;
  domainUuid: string;
  type: MomentumType;
  status: string;
  version: number;
  blocks: unknown[];
  worktime: Worktime | null;
  activatedAt: Date | null;
  /** Timing options (issue #27); absent or null: the spec's momentum. */
  timing?: MomentumTiming | null;
  /** The domain's zone (domains.timezone); absent: São Paulo's. */
  timeZone?: string;
}

export interface CompiledMomentum {
  uuid: string;
  domainUuid: string;
  type: MomentumType;
  version: number;
  channelType: string | null;
  content: (Record<string, unknown> & { filter: string }) | null;
  triggerKind: TriggerCondition['filter'] | null;
  /** Seconds between the trigger and the first send. */
  delaySeconds: number;
  /** Gaps (seconds) between repeated sends, when 'Permitir mais de um envio' is on. */
  repeats: number[];
  finishAt: Date | null;
  worktime: Worktime | null;
  recurrence: RecurrenceRule | null;
  /** 'Limite de envios por minuto' (issue #27), null without a limit. */
  throttlePerMinute: number | null;
  /** A recurrence read on each visitor's clock ('no horário do visitante', worktime_zone 'visitor'; issue #27). */
  recurrenceOnVisitorClock: boolean;
  /** The zone the worktime reads: the domain's; null when it is read on each visitor's clock (issue #27). */
  worktimeZone: string | null;
  filter: CompiledFilter;
  /** Does this event start a delivery for its person? */
  starts(event: StoredEvent): boolean;
  /** Does this event cancel the person's waiting deliveries (an abandon's goal reached)? */
  cancels(event: StoredEvent): boolean;
  /** The goal test of an abandon trigger on a page address (send-time check). */
  reachesGoal(url: string): boolean;
}

type Block = { type: string; regex?: boolean; values?: Record<string, unknown>[] };

/**
 * One value list under one operator, as a test of a text (a page address or an event value): the shared trigger
 * predicate (packages/shared filter/predicate.ts, which the tag's GCD injector bundles too), regex values turned
 * into their portable source first (an invalid one never matches).
 */
export function textRule(comparation: string, values: string[], regex: boolean, urls: boolean) {
  const sources = regex
    ? values.map((v) => {
        const p = toPortableRegex(v);
        return p.ok ? p.source : '(?!)';
      })
    : values;
  return sharedTextRule(comparation, sources, regex, urls);
}

const never = () => false;

/**
 * What a dispatcher sends through a channel. A GCD item (CELL_DCM) is placed in the page by the tag, except the
 * manager's notification dispatcher (spec doc 2 §3.5: title, message, redirect_uri, name, dispatcher_type
 * 'notification'), which goes out as a web push like a momentum's; other GCD items have no channel here.
 */
const sendable = (
  d: (Record<string, unknown> & { filter: string }) | undefined,
): (Record<string, unknown> & { filter: string }) | undefined => {
  if (d?.filter !== 'CELL_DCM') return d;
  return d.dispatcher_type === 'notification' ? { ...d, filter: 'CELL_NOTIFICATION' } : undefined;
};

export function compileMomentum(row: MomentumRow): CompiledMomentum {
  const blocks = row.blocks as Block[];
  const find = (type: string) => blocks.find((b) => b.type === type);
  const filterBlock = find('filter') as FilterBlock | undefined;
  const trigger = find('trigger');
  const t = trigger?.values?.[0] as TriggerCondition | undefined;
  const dispatcher = sendable(
    find('dispatcher')?.values?.[0] as (Record<string, unknown> & { filter: string }) | undefined,
  );
  const finish = find('finish')?.values?.[0]?.value;
  const regex = trigger?.regex === true;

  let starts: (e: StoredEvent) => boolean = never;
  let cancels: (e: StoredEvent) => boolean = never;
  let reachesGoal: (url: string) => boolean = never;
  if (t?.filter === 'pageview') {
    const rule = textRule(t.comparation ?? 'contain', t.value, regex, true);
    starts = (e) => e.kind === 'pageview' && e.url !== null && rule(e.url);
  } else if (t?.filter === 'events') {
    const withValues = Boolean(t.key && t.value.length);
    // parentCategory with comparation, or the second condition: parentCategory2 with comparation2.
    const rules = new Map<string, ((text: string) => boolean) | null>();
    if (t.parentCategory2)
      rules.set(
        t.parentCategory2,
        withValues ? textRule(t.comparation2 ?? t.comparation ?? '==', t.value, regex, false) : null,
      );
    if (t.parentCategory)
      rules.set(t.parentCategory, withValues ? textRule(t.comparation ?? '==', t.value, regex, false) : null);
    starts = (e) => {
      if (e.kind !== 'event' || !e.category || !rules.has(e.category)) return false;
      const rule = rules.get(e.category);
      if (!rule) return true;
      const v = e.props?.[t.key!];
      return rule(v === undefined || v === null ? '' : String(v));
    };
  } else if (t?.filter === 'abandon') {
    const start = textRule('contain', t.value, regex, true);
    const goalValues = t.value2 ?? [];
    if (goalValues.length) {
      const goal = textRule(t.comparation2 ?? 'contain', goalValues, regex, true);
      reachesGoal = goal;
      cancels = (e) => e.kind === 'pageview' && e.url !== null && goal(e.url);
    }
    starts = (e) => e.kind === 'pageview' && e.url !== null && start(e.url);
  }

  return {
    uuid: row.uuid,
    domainUuid: row.domainUuid,
    type: row.type,
    version: row.version,
    channelType: dispatcher?.filter ?? null,
    content: dispatcher ?? null,
    triggerKind: t?.filter ?? null,
    delaySeconds: t?.dischargeIn?.[0] ?? 0,
    repeats: Array.isArray(dispatcher?.intervalRecurrency) ? (dispatcher.intervalRecurrency as number[]) : [],
    finishAt: typeof finish === 'string' ? new Date(finish) : null,
    worktime: row.worktime,
    recurrence:
      t?.filter === 'recurrence'
        ? { period: t.comparation as RecurrenceRule['period'], value: t.value[0], hours: t.hours ?? '00:00' }
        : null,
    throttlePerMinute: row.timing?.throttle_per_minute ?? null,
    recurrenceOnVisitorClock: t?.filter === 'recurrence' && row.timing?.worktime_zone === 'visitor',
    worktimeZone: row.timing?.worktime_zone === 'visitor' ? null : (row.timeZone ?? DEFAULT_TIME_ZONE),
    filter: compileFilter(filterBlock ?? null),
    starts,
    cancels,
    reachesGoal,
  };
}

/** A momentum as the engine's queries read it (deliveries.queries.ts), compiled. */
export const compileStored = (m: DispatchMomentum) =>
  compileMomentum({
    uuid: m.uuid,
    domainUuid: m.domain_uuid,
    type: m.type,
    status: m.status,
    version: m.version,
    blocks: m.momentums,
    worktime: m.worktime as Worktime | null,
    activatedAt: m.activated_at,
    timing: m.timing ?? null,
    timeZone: m.time_zone,
  });

/** compileStored, or undefined with a warning: one momentum whose stored blocks no longer compile must not stop the others. */
export function tryCompileStored(
  m: DispatchMomentum,
  log: { warn(obj: object, msg: string): void },
): CompiledMomentum | undefined {
  try {
    return compileStored(m);
  } catch (err) {
    log.warn({ err, momentum: m.uuid }, 'momentum ignorado: blocos inválidos');
    return undefined;
  }
}
