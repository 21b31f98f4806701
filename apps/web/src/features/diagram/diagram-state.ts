import {
  dispatcherBlockSchema,
  filterBlockSchema,
  finishBlockSchema,
  type MomentumType,
  momentumMessages as mm,
  triggerBlockSchema,
} from '@impeto/shared';
import dayjs from 'dayjs';
import type { z } from 'zod';
import {
  type FieldErrors,
  type FilterState,
  filterBlockInput,
  filterFromBlock,
  fromZonedInput,
  notificationButtonsOf,
  type TriggerState,
  toZonedInput,
  triggerBlockInput,
  triggerFromBlock,
} from '../blocks/index.ts';
import { BLOCK_ORDER, type DiagramBlockType, type DiagramKind, type DraftBlock } from './graph.ts';
import { emptyWebview, type WebviewState, webviewFromValues, webviewInput, webviewProblems } from './webview.ts';

// ------------------------------------------------------------------ limits (READINGS A-1)

/** The diagram's own push limits; the v2 form allows 49/126 and the server accepts those. */
export const DIAGRAM_TITLE_MAX = 25;
export const DIAGRAM_MESSAGE_MAX = 80;
export const TITLE_LEVELS = { warning: 13, danger: 20 } as const;
export const MESSAGE_LEVELS = { warning: 40, danger: 70 } as const;
export type CounterLevel = 'ok' | 'warning' | 'danger';

export function counterLevel(length: number, max: number, levels: { warning: number; danger: number }): CounterLevel {
  if (length >= levels.danger || length > max) return 'danger';
  if (length >= levels.warning) return 'warning';
  return 'ok';
}

export const diagramMessages = {
  titleEmpty: (kind: DiagramKind) =>
    kind === 'campaign' ? 'O título da Campanha não pode estar vazio.' : 'O título do Momentum não pode estar vazio.',
  titleTooLong: `O título pode ter no máximo ${DIAGRAM_TITLE_MAX} caracteres no diagrama. Encurte-o para salvar.`,
  messageTooLong: `A mensagem pode ter no máximo ${DIAGRAM_MESSAGE_MAX} caracteres no diagrama. Encurte-a para salvar.`,
  channelRequired: 'Escolha um canal.',
  noChannels: 'Seu domínio não possui canais integrados. Integre um canal antes de concluir a criação do seu momentum.',
  finishRequired: 'Escolha a data de finalização.',
  blockIncomplete: 'Complete este bloco para salvar.',
} as const;

// ------------------------------------------------------------------ channel (dispatcher)

/** Extra text fields of the channel types the diagram can fill besides push and webview (spec doc 2 §3.5). */
export const TEXT_CHANNEL_FIELDS: Record<
  string,
  { key: string; label: string; required: boolean; long?: boolean; max?: number }[]
> = {
  ZENVIA: [{ key: 'body', label: 'Texto do SMS', required: true, long: true, max: 160 }],
  AWS_SES: [
    { key: 'subject', label: 'Assunto', required: true },
    { key: 'body', label: 'Conteúdo do e-mail', required: true, long: true },
  ],
  AKNA: [
    { key: 'action_id', label: 'ID da ação', required: true },
    { key: 'message_id', label: 'ID da mensagem', required: true },
    { key: 'name_sender', label: 'Nome do remetente', required: true },
    { key: 'mail_sender', label: 'E-mail do remetente', required: true },
    { key: 'subject', label: 'Assunto', required: true },
    { key: 'mail_return', label: 'E-mail de retorno', required: false },
  ],
  ONE_SIGNAL: [
    { key: 'title', label: 'Título', required: true },
    { key: 'url', label: 'URL de destino', required: true },
    { key: 'message_pt', label: 'Mensagem em português', required: true, long: true },
    { key: 'message_en', label: 'Mensagem em inglês', required: true, long: true },
    { key: 'web_image', label: 'Imagem (URL)', required: false },
  ],
};
export const PUSH_FIELDS = ['name', 'title', 'message', 'icon_uri', 'image', 'redirect_uri'] as const;
/**
 * Channel types the diagram offers; SUPERARE_NOTIFICATION is hidden. ONE_SIGNAL has no card on the channels page
 * (READINGS A-20), but a domain that integrated it through the API can use it here, with both messages required.
 */
export const DIAGRAM_CHANNEL_TYPES = [
  'CELL_NOTIFICATION',
  'SUPERARE_WEBVIEW',
  'ZENVIA',
  'AWS_SES',
  'AKNA',
  'ONE_SIGNAL',
] as const;
export const CHANNEL_LABELS: Record<string, string> = {
  CELL_NOTIFICATION: 'Notificação push',
  SUPERARE_WEBVIEW: 'Mensagem on-site (Webview)',
  ZENVIA: 'SMS (Zenvia)',
  AWS_SES: 'E-mail (AWS SES)',
  AKNA: 'E-mail marketing (Akna)',
  ONE_SIGNAL: 'OneSignal',
  CELL_DCM: 'Conteúdo dinâmico',
};

export interface ChannelFormState {
  channel_uuid: string;
  channel_type: string;
  /** Push and text-channel fields by their wire names. */
  fields: Record<string, string>;
  /** Push only: the action buttons (`notification_buttons`). */
  buttons: { title: string; url: string }[];
  repeat: boolean;
  intervalRecurrency: number[];
  webview: WebviewState;
}

export const emptyChannelForm = (): ChannelFormState => ({
  channel_uuid: '',
  channel_type: '',
  fields: {},
  buttons: [],
  repeat: false,
  intervalRecurrency: [],
  webview: emptyWebview(),
});

export function channelInput(state: ChannelFormState): DraftBlock {
  const intervalRecurrency = state.repeat ? state.intervalRecurrency : [];
  const type = state.channel_type;
  if (!type) return { type: 'dispatcher', values: [{ intervalRecurrency }] };
  if (type === 'SUPERARE_WEBVIEW')
    return { type: 'dispatcher', values: [{ filter: type, ...webviewInput(state.webview), intervalRecurrency }] };
  const keys =
    type === 'CELL_NOTIFICATION' ? [...PUSH_FIELDS] : (TEXT_CHANNEL_FIELDS[type] ?? []).map((field) => field.key);
  const fields = Object.fromEntries(keys.map((key) => [key, state.fields[key] ?? '']));
  const buttons =
    type === 'CELL_NOTIFICATION' && state.buttons.length > 0 ? { notification_buttons: state.buttons } : {};
  return { type: 'dispatcher', values: [{ filter: type, ...fields, ...buttons, intervalRecurrency }] };
}

export function channelFromBlock(block: DraftBlock | undefined, channelUuid: string | null | undefined) {
  const v = block?.values?.[0] ?? {};
  const type = typeof v.filter === 'string' ? v.filter : '';
  const intervals = Array.isArray(v.intervalRecurrency) ? v.intervalRecurrency.map(Number) : [];
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(v)) if (typeof value === 'string') fields[key] = value;
  if (!fields.icon_uri && typeof v.icon === 'string') fields.icon_uri = v.icon;
  return {
    channel_uuid: channelUuid ?? '',
    channel_type: type,
    fields,
    buttons: notificationButtonsOf(v.notification_buttons),
    repeat: intervals.length > 0,
    intervalRecurrency: intervals,
    webview: type === 'SUPERARE_WEBVIEW' ? webviewFromValues(v) : emptyWebview(),
  } satisfies ChannelFormState;
}

// ------------------------------------------------------------------ finish

export interface FinishFormState {
  /** Wall-clock 'YYYY-MM-DD HH:mm:ss' in America/Sao_Paulo, as the picker gives it. */
  value: string;
}

export const finishInput = (state: FinishFormState): DraftBlock => ({
  type: 'finish',
  values: [{ type: 'finish', filter: 'stop_momentum', value: state.value ? fromZonedInput(state.value) : '' }],
});

export function finishFromBlock(block: DraftBlock | undefined): FinishFormState {
  const value = block?.values?.[0]?.value;
  return { value: typeof value === 'string' && dayjs(value).isValid() ? toZonedInput(value) : '' };
}

// ------------------------------------------------------------------ the whole diagram

/** The forms of the blocks present on the board; absent keys are blocks not added yet. */
export interface DiagramForms {
  filter?: FilterState;
  trigger?: TriggerState;
  dispatcher?: ChannelFormState;
  finish?: FinishFormState;
}

/** A freshly added block starts with an enabled, empty filter so its form asks for a condition. */
export function newForm<T extends DiagramBlockType>(type: T): NonNullable<DiagramForms[T]> {
  const forms: DiagramForms = {
    filter: {
      enabled: true,
      regex: false,
      conditions: [{ filter: '', comparation: '', value: [], value2: '', logical: 'and' }],
    },
    trigger: triggerFromBlock(undefined),
    dispatcher: emptyChannelForm(),
    finish: { value: '' },
  };
  return forms[type] as NonNullable<DiagramForms[T]>;
}

/** The forms → the blocks, in the canonical order. */
export function formsToBlocks(forms: DiagramForms, kind: DiagramKind): DraftBlock[] {
  const out: DraftBlock[] = [];
  for (const type of BLOCK_ORDER[kind]) {
    if (type === 'filter' && forms.filter) out.push(filterBlockInput(forms.filter) as DraftBlock);
    if (type === 'trigger' && forms.trigger) out.push(triggerBlockInput(forms.trigger) as DraftBlock);
    if (type === 'dispatcher' && forms.dispatcher) out.push(channelInput(forms.dispatcher));
    if (type === 'finish' && forms.finish) out.push(finishInput(forms.finish));
  }
  return out;
}

/** Loading an existing item: one form per block it has (spec doc 2 §4). */
export function blocksToForms(blocks: unknown[], kind: DiagramKind, channelUuid: string | null): DiagramForms {
  const forms: DiagramForms = {};
  const of = (type: string) => (blocks as DraftBlock[]).find((b) => b?.type === type);
  const order = BLOCK_ORDER[kind];
  if (order.includes('filter') && of('filter')) forms.filter = filterFromBlock(of('filter'));
  if (order.includes('trigger') && of('trigger')) forms.trigger = triggerFromBlock(of('trigger'));
  if (order.includes('dispatcher') && of('dispatcher'))
    forms.dispatcher = channelFromBlock(of('dispatcher'), channelUuid);
  if (order.includes('finish') && of('finish')) forms.finish = finishFromBlock(of('finish'));
  return forms;
}

// ------------------------------------------------------------------ validation through the shared schemas

export type BlockCheck = { ok: true; block: unknown } | { ok: false; errors: FieldErrors };

const schemas: Record<DiagramBlockType, { schema: z.ZodType; strip: number }> = {
  filter: { schema: filterBlockSchema, strip: 1 },
  trigger: { schema: triggerBlockSchema, strip: 2 },
  dispatcher: { schema: dispatcherBlockSchema, strip: 2 },
  finish: { schema: finishBlockSchema, strip: 2 },
};

/**
 * One block against its shared schema plus the diagram's own rules: the 25/80 push limits (READINGS A-1),
 * a chosen channel, the webview's required texts (spec doc 2 §5) and a finish date not in the past.
 * Errors are keyed as the block editors read them ('0.value' for filters, 'title' for the others).
 */
export function checkBlock(block: DraftBlock, extra: { channelUuid?: string; now?: Date } = {}): BlockCheck {
  const { schema, strip } = schemas[block.type];
  const parsed = schema.safeParse(block);
  const errors: FieldErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[issue.path.slice(strip).join('.') || '_'] ??= issue.message;
  }
  if (block.type === 'dispatcher') {
    const v = block.values[0] ?? {};
    if (!extra.channelUuid) errors.channel_uuid ??= diagramMessages.channelRequired;
    if (v.filter === 'CELL_NOTIFICATION') {
      if (String(v.title ?? '').length > DIAGRAM_TITLE_MAX) errors.title ??= diagramMessages.titleTooLong;
      if (String(v.message ?? '').length > DIAGRAM_MESSAGE_MAX) errors.message ??= diagramMessages.messageTooLong;
    }
    if (v.filter === 'SUPERARE_WEBVIEW') {
      const problems = webviewProblems(v);
      for (const [key, message] of Object.entries(problems)) errors[key] ??= message;
    }
    if (!v.filter) errors.channel_uuid ??= diagramMessages.channelRequired;
  }
  if (block.type === 'finish') {
    const value = block.values[0]?.value;
    if (!value) errors.value = diagramMessages.finishRequired;
    else if (typeof value === 'string' && dayjs(value).isBefore(extra.now ?? new Date()))
      errors.value ??= mm.finishPast;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, block: parsed.success ? parsed.data : block };
}

export const REQUIRED_BLOCKS: Record<DiagramKind, readonly DiagramBlockType[]> = {
  momentum: ['filter', 'trigger', 'dispatcher'],
  campaign: ['filter', 'dispatcher'],
};

export const BLOCK_LABELS: Record<DiagramBlockType, string> = {
  filter: 'Filtro',
  trigger: 'Gatilho',
  dispatcher: 'Canal',
  finish: 'Final',
};

export const toMomentumType = (kind: DiagramKind): MomentumType => kind;

// ------------------------------------------------------------------ incomplete blocks, by name

const PUSH_FIELD_LABELS: Record<string, string> = {
  channel_uuid: 'Canal',
  filter: 'Canal',
  name: 'Nome da notificação',
  title: 'Título',
  message: 'Mensagem',
  icon_uri: 'URL do ícone',
  image: 'URL da imagem',
  redirect_uri: 'URL de redirecionamento',
  intervalRecurrency: 'Intervalos entre envios',
};

/** The labels of a dispatcher's failing fields, in the order the form shows them. */
export function missingFieldLabels(errors: FieldErrors): string[] {
  const labels: Record<string, string> = { ...PUSH_FIELD_LABELS };
  for (const fields of Object.values(TEXT_CHANNEL_FIELDS)) for (const f of fields) labels[f.key] ??= f.label;
  const out: string[] = [];
  for (const key of Object.keys(errors)) {
    const label = key.startsWith('webview') ? 'a mensagem on-site' : (labels[key.split('.')[0] ?? ''] ?? null);
    if (label && !out.includes(label)) out.push(label);
  }
  const order = [...Object.values(PUSH_FIELD_LABELS)];
  return out.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
}

/**
 * A draft is saved only with whole blocks (the server checks every block, drafts too): an incomplete one stops the
 * save with its name and, for the channel, the fields it lacks.
 */
export function incompleteDraftMessage(type: DiagramBlockType, errors: FieldErrors): string {
  const fields = type === 'dispatcher' ? missingFieldLabels(errors) : [];
  const lacking = fields.length ? `: falta ${fields.join(', ')}` : '';
  return `O bloco ${BLOCK_LABELS[type]} está incompleto${lacking}. Complete-o ou remova-o para salvar o rascunho.`;
}

/**
 * Items created through the API carry no channel_uuid (spec doc 2 §7: only the update sends it) and the engine
 * sends by the block's channel type; the editor takes the domain's channel of that type.
 */
export function withResolvedChannel(
  forms: DiagramForms,
  channels: readonly { uuid: string; channel_type: string; active?: boolean }[] | undefined,
): DiagramForms {
  const d = forms.dispatcher;
  if (!d || d.channel_uuid || !d.channel_type || !channels) return forms;
  const match = channels.find((c) => c.channel_type === d.channel_type && c.active !== false);
  return match ? { ...forms, dispatcher: { ...d, channel_uuid: match.uuid } } : forms;
}
