import { type MomentumItem, type MomentumStatus, type MomentumType, STATUS_LABELS } from '@impeto/shared';
import dayjs from 'dayjs';
import { blockOf, inAppZone } from '../../blocks/index.ts';

export type DisplayStatus = MomentumStatus | 'Scheduled';

/** Paused with scheduled_at is counted and shown as Agendado (spec doc 2 §4). */
export const displayStatus = (item: Pick<MomentumItem, 'status' | 'scheduled_at'>): DisplayStatus =>
  item.status === 'Paused' && item.scheduled_at ? 'Scheduled' : item.status;

export const statusLabel = (item: Pick<MomentumItem, 'status' | 'scheduled_at'>) => STATUS_LABELS[displayStatus(item)];

export const STATUS_COLORS: Record<DisplayStatus, string> = {
  Active: 'green',
  Scheduled: 'blue',
  Paused: 'yellow',
  Draft: 'gray',
  Deleted: 'red',
  Done: 'teal',
};

/** The v2 tabs, their URL values and what each lists (READINGS ). */
export const TABS = [
  { value: 'todos', label: 'Todos', matches: (s: DisplayStatus) => s !== 'Deleted' },
  { value: 'ativos', label: 'Ativos', matches: (s: DisplayStatus) => s === 'Active' },
  { value: 'agendados', label: 'Agendados', matches: (s: DisplayStatus) => s === 'Scheduled' },
  { value: 'pausados', label: 'Pausados', matches: (s: DisplayStatus) => s === 'Paused' },
  { value: 'rascunhos', label: 'Rascunhos', matches: (s: DisplayStatus) => s === 'Draft' },
  { value: 'removidos', label: 'Removidos', matches: (s: DisplayStatus) => s === 'Deleted' },
  { value: 'concluidos', label: 'Concluídos', matches: (s: DisplayStatus) => s === 'Done' },
] as const;
export type TabValue = (typeof TABS)[number]['value'];

export const tabOf = (value: string | null): (typeof TABS)[number] => TABS.find((t) => t.value === value) ?? TABS[0];

export const itemsOfTab = (items: MomentumItem[], tab: TabValue) => {
  const { matches } = tabOf(tab);
  return items.filter((item) => matches(displayStatus(item)));
};

export const tabCounts = (items: MomentumItem[]) =>
  Object.fromEntries(TABS.map((t) => [t.value, itemsOfTab(items, t.value).length])) as Record<TabValue, number>;

/** 'CELL_NOTIFICATION' → 'CELL' (READINGS A-28). */
export const channelLabel = (item: Pick<MomentumItem, 'channels'>) =>
  item.channels?.channel_type ? (item.channels.channel_type.split('_')[0] ?? '—') : '—';

/**
 * The schedule column's marker, by calendar days in America/Sao_Paulo: HOJE! on the same day, 'Nd' for
 * days ahead, ✓ when past (spec doc 2 §2.2).
 */
export function scheduleMarker(scheduledAt: string, now: Date = new Date()): string {
  const days = inAppZone(scheduledAt).startOf('day').diff(inAppZone(now).startOf('day'), 'day');
  if (days === 0) return 'HOJE!';
  return days > 0 ? `${days}d` : '✓';
}

export const isValidDate = (value: string | null | undefined): value is string =>
  Boolean(value && dayjs(value).isValid());

/** The finish block's date, when the item has one. */
export const finishDateOf = (item: Pick<MomentumItem, 'momentums'>): string | null => {
  const value = (blockOf(item.momentums, 'finish') as { values?: { value?: unknown }[] } | undefined)?.values?.[0]
    ?.value;
  return typeof value === 'string' && isValidDate(value) ? value : null;
};

/**
 * Which row actions each status offers (spec doc 2 §2.2, READINGS ). A Done item whose finish date has
 * passed is not offered Iniciar: the server refuses to start it, so the button could only fail.
 */
export function rowActions(item: Pick<MomentumItem, 'status' | 'scheduled_at' | 'momentums'>, now = new Date()) {
  const s = displayStatus(item);
  if (s === 'Deleted') return { pause: false, start: false, view: false, edit: false, remove: false };
  const finish = finishDateOf(item);
  const finished = finish !== null && dayjs(finish).valueOf() <= now.getTime();
  return {
    pause: s === 'Active',
    start: s === 'Paused' || s === 'Scheduled' || (s === 'Done' && !finished),
    view: true,
    edit: true,
    remove: true,
  };
}

export const NOUN: Record<MomentumType, { one: string; many: string; title: string }> = {
  momentum: { one: 'momentum', many: 'momentums', title: 'Momentums' },
  campaign: { one: 'campanha', many: 'campanhas', title: 'Campanhas' },
  dcm: { one: 'conteúdo', many: 'conteúdos', title: 'GCD' },
};

export const listPath = (type: MomentumType) =>
  type === 'campaign' ? '/v2/campaigns' : type === 'dcm' ? '/dcm' : '/v2/momentums';
export const formPath = (type: MomentumType) =>
  type === 'campaign' ? '/v2/campaign/create' : type === 'dcm' ? '/dcm/manager' : '/v2/momentum/create';
/** The GCD manager reads ?uuid= and &viewonly (spec doc 2 §2.1); the v2 forms ?id= and &view=1. */
/** Spec doc 2 §2.1: ?uuid= edits, ?ref={uuid}&viewonly views (the form still reads the older ?id= and view=1). */
export const editPath = (type: MomentumType, uuid: string) => `${formPath(type)}?uuid=${uuid}`;
export const viewPath = (type: MomentumType, uuid: string) =>
  type === 'dcm' ? `${editPath(type, uuid)}&viewonly` : `${formPath(type)}?ref=${uuid}&viewonly`;

/** The list's columns: the v2 lists (spec doc 2 §2.2) and the GCD listing (§2.6). */
export const listColumns = (type: MomentumType) =>
  type === 'dcm'
    ? ['#', 'Título', 'Status', 'Data de Agendamento', 'Criado em', 'Atualizado em', 'Opções']
    : ['#', 'Título', 'Status', 'Canal', 'Agendado para', 'Criado em', 'Atualizado em', 'Ações'];

/** What the tag reported about a GCD item (added to each list item by the server; absent until it reports). */
export interface DcmStats {
  shown: number;
  clicked: number;
  missing: { page: string; last_seen: string } | null;
}
export const dcmStatsOf = (item: MomentumItem): DcmStats | undefined =>
  (item as MomentumItem & { dcm_stats?: DcmStats }).dcm_stats;
