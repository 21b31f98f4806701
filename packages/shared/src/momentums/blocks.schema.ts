import { CHANNEL_TYPES } from '../channels/channel.schema.ts';
import { z } from '../zod.ts';
import { isValidSelector } from './css-selector.ts';

// Momentum blocks (DESIGN.md §11, spec doc 2 §3.2–3.5, §5, READINGS ).

export const filterMessages = {
  blockInvalid: 'O bloco enviado é inválido.',
  blockTypeInvalid: 'Tipo de bloco inválido: use filter, trigger, dispatcher ou finish.',
  blocksOrder: 'Os blocos devem seguir a ordem filtro, gatilho, canal e finalização, cada um no máximo uma vez.',
  filterRequired: 'Escolha um filtro.',
  filterUnknown: 'Filtro desconhecido.',
  conditionsRequired: 'Escolha ao menos uma condição de filtro.',
  tooManyConditions: 'O filtro aceita no máximo duas condições.',
  allAlone: 'O filtro "Todos" não pode ser combinado com outra condição.',
  logicalRequired: 'Escolha como combinar as duas condições: E ou OU.',
  comparationRequired: 'Escolha uma comparação.',
  comparationInvalid: 'Esta comparação não está disponível para o filtro escolhido.',
  valueRequired: 'Informe ao menos um valor.',
  valueInvalid: 'Valor inválido.',
  valueTooLong: 'Cada valor pode ter no máximo 500 caracteres.',
  tooManyValues: 'Informe no máximo 100 valores.',
  booleanInvalid: 'Escolha Sim ou Não.',
  dateInvalid: 'Informe uma data válida (dd/MM/aaaa).',
  dateSingle: 'Informe uma única data.',
  value2Required: 'Informe a data final do período.',
  dateRangeOrder: 'A data final deve ser igual ou posterior à data inicial.',
  regexNotAllowed:
    'Expressões regulares só podem ser usadas com as comparações igual, diferente, contém, não contém e exatamente.',
  regexTooLong: 'A expressão regular pode ter no máximo 200 caracteres.',
  regexInvalid: 'Expressão regular inválida.',
  regexUnsupported:
    'A expressão regular usa um recurso não suportado. Use caracteres, classes [ ], grupos ( ) e (?: ), alternativas |, âncoras ^ e $, quantificadores * + ? {n,m} e os atalhos \\d, \\w e \\s.',
  regexUnsafe:
    'A expressão regular é complexa demais: não repita grupos que já contêm quantificadores ou alternativas, e use no máximo 4 repetições ilimitadas (* + {n,}).',
  triggerRequired: 'Escolha um gatilho.',
  pageviewComparation: 'Escolha uma comparação para a página: igual, diferente, contém ou não contém.',
  urlInvalid: 'Informe uma URL válida. (Ex.: www.seusite.com.br)',
  categoryRequired: 'Escolha uma categoria de evento.',
  eventKeyRequired: 'Escolha a chave do evento para comparar os valores.',
  eventComparation: 'Escolha uma comparação para o evento: igual, diferente, contém ou não contém.',
  eventComparation2: 'Escolha uma comparação para a segunda condição: igual, diferente, contém ou não contém.',
  eventCategory2Same: 'A segunda condição precisa de uma categoria diferente da primeira.',
  abandonComparation: 'No abandono, a primeira condição é sempre "contém".',
  abandonComparation2: 'No abandono, a segunda condição deve ser "contém" ou "não contém".',
  recurrenceRequired: 'Escolha o período da recorrência: mensal, semanal ou diário.',
  monthlyInvalid: 'Informe o mês e o dia da recorrência (MM-DD).',
  weekdayInvalid: 'Escolha o dia da semana da recorrência (sunday a saturday).',
  dailyValue: 'A recorrência diária não leva valor, apenas o horário.',
  hoursInvalid: 'Informe o horário no formato HH:mm.',
  dischargeInvalid: 'O atraso do disparo deve ser um número inteiro de segundos, zero ou maior.',
  dischargeSingle: 'Informe no máximo um atraso de disparo.',
  channelRequired: 'Escolha um canal.',
  intervalsInvalid: 'Os intervalos entre envios devem ser números inteiros de segundos, maiores que zero.',
  tooManyIntervals: 'Informe no máximo 50 intervalos entre envios.',
  nameRequired: 'Informe o nome da notificação.',
  titleRequired: 'Informe o título da notificação.',
  titleTooLong: 'O título da notificação pode ter no máximo 49 caracteres.',
  messageRequired: 'Informe a mensagem da notificação.',
  messageTooLong: 'A mensagem da notificação pode ter no máximo 126 caracteres.',
  iconRequired: 'Informe a URL do ícone.',
  iconInvalid: 'O ícone deve ser uma URL válida (http ou https).',
  buttonTitleRequired: 'Informe o texto do botão (até 30 caracteres).',
  buttonUrlInvalid: 'O link do botão deve ser uma URL válida (http ou https).',
  buttonsTooMany: 'A notificação aceita no máximo 2 botões.',
  redirectInvalid: 'Informe uma URL de redirecionamento válida (http ou https).',
  imageInvalid: 'A imagem deve ser uma URL válida (http ou https).',
  smsBodyRequired: 'Informe o texto do SMS.',
  emailSubjectRequired: 'Informe o assunto do e-mail.',
  emailBodyRequired: 'Informe o conteúdo do e-mail.',
  aknaFieldRequired: 'Preencha todos os campos da Akna (o e-mail de retorno é opcional).',
  oneSignalFieldRequired: 'Informe o título e a URL da notificação OneSignal.',
  oneSignalPtRequired: 'Informe a mensagem em português da notificação OneSignal.',
  oneSignalEnRequired: 'Informe a mensagem em inglês da notificação OneSignal.',
  oneSignalImageInvalid: 'Informe uma URL válida para a imagem da notificação OneSignal.',
  webviewTypeRequired: 'Escolha o tipo da mensagem on-site.',
  webviewPropsInvalid: 'As propriedades da mensagem on-site devem ser textos.',
  dcmBehaviorInvalid: 'Escolha onde inserir o conteúdo: beforeend, afterbegin ou replace.',
  dcmNumberInvalid: 'Informe um número inteiro, zero ou maior, ou deixe em branco.',
  dcmDispatcherInvalid: 'Escolha o que exibir: tags customizadas, template ou opt-in.',
  dcmSelectorRequired: 'Informe o seletor CSS do elemento (ex.: #banner ou .produto .preco).',
  dcmSelectorInvalid:
    'Seletor CSS inválido: o navegador não o aceitaria. Confira pontos, colchetes e aspas (ex.: #banner, .produto > .preco).',
  dcmSelectorTooLong: 'O seletor CSS pode ter no máximo 500 caracteres.',
  dcmContainSelectorInvalid:
    'O seletor da condição é inválido: o navegador não o aceitaria (ex.: .carrinho, #checkout).',
  dcmContainTextTooLong: 'O texto da condição pode ter no máximo 500 caracteres.',
  dcmContentRequired: 'Informe o conteúdo a inserir: HTML, CSS ou JavaScript.',
  dcmHtmlTooLarge: 'O HTML pode ter no máximo 100 KB.',
  dcmCssTooLarge: 'O CSS pode ter no máximo 50 KB.',
  dcmJsTooLarge: 'O JavaScript pode ter no máximo 50 KB.',
  dcmTemplateRequired: 'Escolha o template: alerta, barra no topo ou imagem.',
  dcmOptinRequired: 'Escolha o modelo de opt-in: padrão ou topbox.',
  dcmMessageRequired: 'Informe a mensagem do template.',
  dcmImageRequired: 'Informe a URL da imagem do template (http ou https).',
  dcmTitleTooLong: 'O título pode ter no máximo 80 caracteres.',
  dcmMessageTooLong: 'A mensagem pode ter no máximo 300 caracteres.',
  finishType: 'O bloco de finalização deve ter o tipo "finish".',
  finishFilter: 'A finalização aceita apenas "stop_momentum".',
  finishDateInvalid: 'Informe a data de finalização (data e hora ISO, ex.: 2026-12-31T23:00:00.000Z).',
  finishGrid: 'A data de finalização deve usar horários em passos de 15 minutos (ex.: 14:00, 14:15, 14:30 ou 14:45).',
  intervalHint:
    'O numeral deve ser seguido por uma das letras a seguir: A (ano), M (mês), D (dia), h (hora), m (minuto) e s (segundo).',
  intervalError: 'Não foi possível definir um valor. Reescreva seu intervalo.',
} as const;

const m = filterMessages;

// ---------------------------------------------------------------- intervals

/** Seconds per unit (spec doc 2 §9; a month is 30 days). */
export const INTERVAL_UNITS = { A: 31536000, M: 2592000, D: 86400, h: 3600, m: 60, s: 1 } as const;
type IntervalUnit = keyof typeof INTERVAL_UNITS;

export class IntervalError extends Error {
  readonly hint = m.intervalHint;
  constructor() {
    super(m.intervalError);
  }
}

/** '1D 4h 30m' → 102600. Parts are a number followed by one unit letter (case matters: M month, m minute). */
export function parseInterval(text: string): number {
  const trimmed = text.trim();
  if (!/^(?:\d{1,9}[AMDhms]\s*)+$/.test(trimmed)) throw new IntervalError();
  let seconds = 0;
  for (const [, n, unit] of trimmed.matchAll(/(\d+)([AMDhms])/g))
    seconds += Number(n) * INTERVAL_UNITS[unit as IntervalUnit];
  if (!Number.isSafeInteger(seconds)) throw new IntervalError();
  return seconds;
}

/** 102600 → '1D 4h 30m'; greedy from the largest unit; 0 → '0s'. */
export function formatInterval(seconds: number): string {
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new IntervalError();
  if (seconds === 0) return '0s';
  const parts: string[] = [];
  let rest = seconds;
  for (const [unit, size] of Object.entries(INTERVAL_UNITS)) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join(' ');
}

/** An interval text field that yields seconds. */
export const intervalSchema = z.string({ error: m.intervalError }).transform((text, ctx) => {
  try {
    return parseInterval(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: m.intervalError });
    return z.NEVER;
  }
});

// ---------------------------------------------------------------- portable regular expressions

export const REGEX_MAX_LENGTH = 200;
const MAX_UNBOUNDED = 4;
const MAX_BOUND = 255; // PostgreSQL's RE_DUP_MAX
const PUNCTUATION = '\\^$.|?*+()[]{}/-';
const CONTROL = 'ntrfv';
const SHORTHAND_OUT: Record<string, string> = {
  d: '[0-9]',
  D: '[^0-9]',
  w: '[A-Za-z0-9_]',
  W: '[^A-Za-z0-9_]',
  s: '[\\t\\n\\v\\f\\r ]',
  S: '[^\\t\\n\\v\\f\\r ]',
};
const SHORTHAND_IN: Record<string, string> = { d: '0-9', w: 'A-Za-z0-9_', s: '\\t\\n\\v\\f\\r ' };

export type PortableRegex = { ok: true; source: string } | { ok: false; message: string };

/**
 * Checks a user pattern against the subset that means the same in JavaScript (flags 'su') and in
 * PostgreSQL's `~` (ARE), and returns it rewritten for both: \d, \w, \s become ASCII classes (PostgreSQL's
 * follow the locale, JavaScript's do not). Refused: backreferences, lookaround, \b (backspace in
 * PostgreSQL), POSIX [[:x:]], inline options, bounds over 255, and shapes that backtrack badly in
 * JavaScript (a repeated group holding a quantifier or an alternative, more than 4 unbounded repeats).
 */
export function toPortableRegex(pattern: string): PortableRegex {
  const fail = (message: string): PortableRegex => ({ ok: false, message });
  if (pattern.length === 0) return fail(m.regexInvalid);
  if (pattern.length > REGEX_MAX_LENGTH) return fail(m.regexTooLong);
  try {
    new RegExp(pattern, 'su');
  } catch {
    return fail(m.regexInvalid);
  }
  let out = '';
  const groups: { risky: boolean }[] = [{ risky: false }];
  const top = () => groups[groups.length - 1]!;
  let last: 'atom' | 'group' | null = null;
  let lastGroupRisky = false;
  let unbounded = 0;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const e = pattern[i + 1] ?? '';
      if (SHORTHAND_OUT[e]) out += SHORTHAND_OUT[e];
      else if (CONTROL.includes(e) || PUNCTUATION.includes(e)) out += `\\${e}`;
      else return fail(m.regexUnsupported);
      i += 2;
      last = 'atom';
    } else if (c === '[') {
      const cls = readClass(pattern, i);
      if (!cls) return fail(m.regexUnsupported);
      out += cls.source;
      i = cls.end;
      last = 'atom';
    } else if (c === '(') {
      if (pattern[i + 1] === '?') {
        if (pattern[i + 2] !== ':') return fail(m.regexUnsupported);
        out += '(?:';
        i += 3;
      } else {
        out += '(';
        i += 1;
      }
      if (pattern[i] === ')' || pattern[i] === '|') return fail(m.regexUnsupported);
      groups.push({ risky: false });
      last = null;
    } else if (c === ')') {
      if (pattern[i - 1] === '|') return fail(m.regexUnsupported);
      const group = groups.pop()!;
      if (group.risky) top().risky = true;
      out += ')';
      i += 1;
      last = 'group';
      lastGroupRisky = group.risky;
    } else if (c === '|') {
      const next = pattern[i + 1];
      if (i === 0 || next === undefined || next === '|' || next === ')') return fail(m.regexUnsupported);
      top().risky = true;
      out += '|';
      i += 1;
      last = null;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      let max: number;
      let text: string;
      if (c === '{') {
        const bound = /^\{(\d{1,4})(,(\d{0,4}))?\}/.exec(pattern.slice(i));
        if (!bound) return fail(m.regexUnsupported);
        const lo = Number(bound[1]);
        const hi = bound[2] === undefined ? lo : bound[3] === '' ? Number.POSITIVE_INFINITY : Number(bound[3]);
        if (lo > MAX_BOUND || (hi !== Number.POSITIVE_INFINITY && hi > MAX_BOUND)) return fail(m.regexUnsupported);
        max = hi;
        text = bound[0];
      } else {
        max = c === '?' ? 1 : Number.POSITIVE_INFINITY;
        text = c;
      }
      if (pattern[i + text.length] === '?') text += '?';
      if (max > 1 && last === 'group' && lastGroupRisky) return fail(m.regexUnsafe);
      if (max === Number.POSITIVE_INFINITY) unbounded++;
      top().risky = true;
      out += text;
      i += text.length;
      last = null;
    } else {
      out += c;
      i += 1;
      last = 'atom';
    }
  }
  if (unbounded > MAX_UNBOUNDED) return fail(m.regexUnsafe);
  try {
    new RegExp(out, 'su');
  } catch {
    return fail(m.regexInvalid);
  }
  return { ok: true, source: out };
}

/** A bracket expression from `[` at `start`; literal '-' only first or last, no nested '['. */
function readClass(pattern: string, start: number): { source: string; end: number } | null {
  let i = start + 1;
  let out = '[';
  if (pattern[i] === '^') {
    out += '^';
    i++;
  }
  if (pattern[i] === ']') return null;
  let prev: 'start' | 'single' | 'done' = 'start';
  let inRange = false;
  while (pattern[i] !== ']') {
    const c = pattern[i];
    if (c === undefined || c === '[') return null;
    if (c === '-' && !inRange) {
      const isLast = pattern[i + 1] === ']';
      if (prev === 'start' || isLast) {
        if (pattern[i + 1] === '-') return null;
        out += '-';
        i++;
        prev = 'done';
        continue;
      }
      if (prev !== 'single') return null;
      out += '-';
      i++;
      inRange = true;
      continue;
    }
    let kind: 'single' | 'class' = 'single';
    if (c === '\\') {
      const e = pattern[i + 1] ?? '';
      if (SHORTHAND_IN[e]) {
        out += SHORTHAND_IN[e];
        kind = 'class';
      } else if (CONTROL.includes(e) || PUNCTUATION.includes(e)) out += `\\${e}`;
      else return null;
      i += 2;
    } else {
      out += c;
      i += c.length;
      // A character outside the BMP is two UTF-16 units; keep them together.
      const code = c.charCodeAt(0);
      if (code >= 0xd800 && code <= 0xdbff && pattern[i] !== undefined) {
        out += pattern[i];
        i++;
      }
    }
    if (inRange) {
      if (kind === 'class') return null;
      inRange = false;
      prev = 'done';
    } else prev = kind === 'class' ? 'done' : 'single';
  }
  if (inRange) return null;
  return { source: `${out}]`, end: i + 1 };
}

// ---------------------------------------------------------------- filter keys and operators

export const TEXT_OPERATORS = ['==', '!=', '<', '<=', '>', '>=', 'contain', 'notcontain', 'exactly'] as const;
export const SELECT_OPERATORS = ['==', '!=', 'contain', 'notcontain'] as const;
export const DATE_OPERATORS = ['<', '>', 'between'] as const;
export type FilterOperator = (typeof TEXT_OPERATORS)[number] | (typeof DATE_OPERATORS)[number];
/** Operators that select by absence: a person without the attribute always passes them. */
export const NEGATIVE_OPERATORS = ['!=', 'notcontain'] as const;
/** Operators the regex flag may turn into a pattern match (positive: any value matches; negative: none). */
export const REGEX_OPERATORS = ['==', '!=', 'contain', 'notcontain', 'exactly'] as const;

export const OPERATOR_LABELS: Record<FilterOperator, string> = {
  '==': 'Igual a',
  '!=': 'Diferente de',
  '<': 'Menor que',
  '<=': 'Menor ou igual a',
  '>': 'Maior que',
  '>=': 'Maior ou igual a',
  contain: 'Contém',
  notcontain: 'Não contém',
  exactly: 'Exatamente',
  between: 'Entre',
};
export const DATE_OPERATOR_LABELS = { '<': 'Antes de', '>': 'Depois de', between: 'Entre' } as const;

export type FilterMask = 'text' | 'select' | 'date' | 'boolean' | 'none';
/** How the attribute is stored: one string, a JSON array of strings, a boolean, an ISO datetime, or nothing ('all'). */
export type FilterKind = 'string' | 'list' | 'boolean' | 'date' | 'all';

const key = <K extends string>(key: K, name: string, mask: FilterMask, kind: FilterKind) =>
  ({ key, name, mask, kind }) as const;

/** The filters of spec doc 2 §3.2, keys prefixed `user_stored_data.` (READINGS A-36); 'all' is unprefixed. */
export const FILTER_KEYS = [
  key('all', 'Todos', 'none', 'all'),
  key('user_stored_data.navigator.browser', 'Navegador', 'select', 'string'),
  key('user_stored_data.navigator.version', 'Versão do navegador', 'text', 'string'),
  key('user_stored_data.navigator.language', 'Idioma', 'select', 'string'),
  key('user_stored_data.navigator.mobile', 'Mobile', 'boolean', 'boolean'),
  key('user_stored_data.client.device.os', 'Sistema operacional', 'select', 'string'),
  key('user_stored_data.client.device.name', 'Dispositivo', 'select', 'string'),
  key('user_stored_data.client.location.country', 'País', 'select', 'string'),
  key('user_stored_data.client.location.region', 'Estado', 'select', 'string'),
  key('user_stored_data.client.location.city', 'Cidade', 'select', 'string'),
  key('user_stored_data.asn.autonomous_system_organization', 'Operadora (ASN)', 'select', 'string'),
  key('user_stored_data.visited.url', 'Páginas visitadas', 'text', 'list'),
  key('user_stored_data.origin', 'Origem', 'text', 'string'),
  key('user_stored_data.createdAt', 'Data de cadastro', 'date', 'date'),
  key('user_stored_data.notified.clicked', 'Clicou em notificação', 'boolean', 'boolean'),
  key('user_stored_data.notified.viewed', 'Visualizou notificação', 'boolean', 'boolean'),
  key('user_stored_data.notified.momentum_uuid', 'Momentum notificado', 'select', 'list'),
] as const;
export type FilterKeyInfo = (typeof FILTER_KEYS)[number];
export type FilterKey = FilterKeyInfo['key'];

export const STORED_DATA_PREFIX = 'user_stored_data.';
/** 'user_stored_data.navigator.browser' → 'navigator.browser', the key inside persons.attributes. */
export const attributeKey = (filterKey: string) =>
  filterKey.startsWith(STORED_DATA_PREFIX) ? filterKey.slice(STORED_DATA_PREFIX.length) : filterKey;

export const filterKeyInfo = (filterKey: string): FilterKeyInfo | undefined =>
  FILTER_KEYS.find((k) => k.key === filterKey);

export function operatorsFor(filterKey: string): readonly FilterOperator[] {
  switch (filterKeyInfo(filterKey)?.mask) {
    case 'text':
      return TEXT_OPERATORS;
    case 'select':
    case 'boolean':
      return SELECT_OPERATORS;
    case 'date':
      return DATE_OPERATORS;
    default:
      return [];
  }
}

// ---------------------------------------------------------------- filter block

export interface FilterCondition {
  filter: FilterKey;
  comparation?: FilterOperator;
  /** Strings for text and select filters, booleans for boolean ones, one 'YYYY-MM-DDT00:00:00.000Z' for dates. */
  value: (string | boolean)[];
  /** End day of a 'between' date filter, 'YYYY-MM-DDT00:00:00.000Z'. */
  value2?: string;
  logical?: 'and' | 'or';
}
export interface FilterBlock {
  type: 'filter';
  regex: boolean;
  values: FilterCondition[];
}

const MAX_VALUES = 100;
const MAX_VALUE_LENGTH = 500;
const scalar = z.union([z.string(), z.number(), z.boolean()], { error: m.valueInvalid });
const toList = (v: unknown) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
const regexFlag = z
  .preprocess((v) => (v === 'on' ? true : v === 'off' || v === '' || v === null ? false : v), z.boolean())
  .optional();

const conditionInput = z.object(
  {
    filter: z.string({ error: m.filterRequired }).trim().min(1, m.filterRequired),
    comparation: z.string({ error: m.comparationRequired }).trim().optional(),
    value: z.preprocess(toList, z.array(scalar, { error: m.valueInvalid })),
    value2: z.preprocess((v) => (Array.isArray(v) && v.length === 1 ? v[0] : v), z.string().optional()),
    logical: z.string().optional(),
  },
  { error: m.filterRequired },
);
type ConditionInput = z.output<typeof conditionInput>;

const pad = (n: number) => String(n).padStart(2, '0');
const isCalendarDate = (y: number, mo: number, d: number) => {
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
};

/**
 * A filter day as the start of that day in UTC (READINGS A-37). Accepts 'YYYY-MM-DD…' (ISO; its UTC date
 * part is used) and 'dd/MM/yyyy' with an optional ' HH:mm' that is ignored.
 */
export function toFilterDay(text: string): string | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text.trim());
  const br = /^(\d{2})\/(\d{2})\/(\d{4})(?: \d{2}:\d{2})?$/.exec(text.trim());
  let y: number;
  let mo: number;
  let d: number;
  if (iso) {
    if (iso[0].length > 10) {
      const instant = new Date(iso[0]);
      if (Number.isNaN(instant.getTime()) || !isCalendarDate(+iso[1]!, +iso[2]!, +iso[3]!)) return null;
      return `${instant.toISOString().slice(0, 10)}T00:00:00.000Z`;
    }
    [y, mo, d] = [+iso[1]!, +iso[2]!, +iso[3]!];
  } else if (br) [d, mo, y] = [+br[1]!, +br[2]!, +br[3]!];
  else return null;
  if (!isCalendarDate(y, mo, d)) return null;
  return `${String(y).padStart(4, '0')}-${pad(mo)}-${pad(d)}T00:00:00.000Z`;
}

const TRUE_WORDS = new Set(['sim', 'true']);
const FALSE_WORDS = new Set(['não', 'nao', 'false']);

type Issue = { message: string; path: (string | number)[] };

function normalizeCondition(
  input: ConditionInput,
  index: number,
  regex: boolean,
  issues: Issue[],
): FilterCondition | undefined {
  const at = (...path: (string | number)[]) => ['values', index, ...path];
  const info = filterKeyInfo(input.filter);
  if (!info) {
    issues.push({ message: m.filterUnknown, path: at('filter') });
    return;
  }
  const logical = index === 1 ? input.logical : undefined;
  if (index === 1 && logical !== 'and' && logical !== 'or') {
    issues.push({ message: m.logicalRequired, path: at('logical') });
    return;
  }
  const base = { filter: info.key, ...(logical ? { logical: logical as 'and' | 'or' } : {}) };
  if (info.kind === 'all') return { ...base, value: [] };

  if (!input.comparation) {
    issues.push({ message: m.comparationRequired, path: at('comparation') });
    return;
  }
  const comparation = input.comparation as FilterOperator;
  if (!operatorsFor(info.key).includes(comparation)) {
    issues.push({ message: m.comparationInvalid, path: at('comparation') });
    return;
  }
  const raw = input.value.map((v) => (typeof v === 'string' ? v.trim() : v)).filter((v) => v !== '');
  if (raw.length === 0) {
    issues.push({ message: m.valueRequired, path: at('value') });
    return;
  }
  if (raw.length > MAX_VALUES) {
    issues.push({ message: m.tooManyValues, path: at('value') });
    return;
  }

  if (info.kind === 'boolean') {
    const value: boolean[] = [];
    for (const v of raw) {
      const word = String(v).toLowerCase();
      if (TRUE_WORDS.has(word)) value.push(true);
      else if (FALSE_WORDS.has(word)) value.push(false);
      else {
        issues.push({ message: m.booleanInvalid, path: at('value') });
        return;
      }
    }
    return { ...base, comparation, value };
  }

  if (info.kind === 'date') {
    if (raw.length !== 1) {
      issues.push({ message: m.dateSingle, path: at('value') });
      return;
    }
    const day = toFilterDay(String(raw[0]));
    if (!day) {
      issues.push({ message: m.dateInvalid, path: at('value') });
      return;
    }
    if (comparation !== 'between') return { ...base, comparation, value: [day] };
    if (!input.value2?.trim()) {
      issues.push({ message: m.value2Required, path: at('value2') });
      return;
    }
    const end = toFilterDay(input.value2);
    if (!end) {
      issues.push({ message: m.dateInvalid, path: at('value2') });
      return;
    }
    if (end < day) {
      issues.push({ message: m.dateRangeOrder, path: at('value2') });
      return;
    }
    return { ...base, comparation, value: [day], value2: end };
  }

  const value = raw.map(String);
  if (value.some((v) => v.length > MAX_VALUE_LENGTH)) {
    issues.push({ message: m.valueTooLong, path: at('value') });
    return;
  }
  if (regex) {
    if (!(REGEX_OPERATORS as readonly string[]).includes(comparation)) {
      issues.push({ message: m.regexNotAllowed, path: at('comparation') });
      return;
    }
    for (const v of value) {
      const checked = toPortableRegex(v);
      if (!checked.ok) {
        issues.push({ message: checked.message, path: at('value') });
        return;
      }
    }
  }
  return { ...base, comparation, value };
}

/**
 * The audience filter block. Output is normalised: booleans for boolean filters ('Sim'/'Não'), dates as
 * the start of the day in UTC, trimmed non-empty strings otherwise. The regex flag applies to the text and
 * select conditions of the block; boolean and date conditions ignore it.
 */
export const filterBlockSchema = z
  .object(
    {
      type: z.literal('filter', { error: m.blockInvalid }),
      regex: regexFlag,
      values: z.array(conditionInput, { error: m.conditionsRequired }),
    },
    { error: m.blockInvalid },
  )
  .transform((block, ctx): FilterBlock => {
    const issues: Issue[] = [];
    let values: FilterCondition[] = [];
    if (block.values.length === 0) issues.push({ message: m.conditionsRequired, path: ['values'] });
    else if (block.values.length > 2) issues.push({ message: m.tooManyConditions, path: ['values'] });
    else if (block.values.length === 2 && block.values.some((c) => c.filter === 'all'))
      issues.push({ message: m.allAlone, path: ['values'] });
    else {
      const regex = block.regex ?? false;
      const normalized = block.values.map((c, i) => normalizeCondition(c, i, regex, issues));
      values = normalized.filter((c): c is FilterCondition => c !== undefined);
    }
    if (issues.length) {
      for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
      return z.NEVER;
    }
    return { type: 'filter', regex: block.regex ?? false, values };
  });
export type FilterBlockInput = z.input<typeof filterBlockSchema>;

// ---------------------------------------------------------------- trigger block

export const TRIGGER_TYPES = ['pageview', 'events', 'abandon', 'recurrence'] as const;
export const RECURRENCE_PERIODS = ['monthly', 'weekly', 'daily'] as const;
/** Weekly recurrence values: English weekday names; the index is the worktime weekday number (0 = Sunday). */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const seconds = (message: string, min: number) =>
  z.number({ error: message }).int(message).min(min, message).max(Number.MAX_SAFE_INTEGER, message);

const dischargeIn = z
  .preprocess(toList, z.array(seconds(m.dischargeInvalid, 0), { error: m.dischargeInvalid }))
  .pipe(z.array(z.number()).max(1, m.dischargeSingle));

/** Adds https:// when a pageview URL has no scheme (spec doc 2 §5), and checks it is an http(s) URL. */
export function toPageUrl(text: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  try {
    const url = new URL(withScheme);
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !isSiteHost(url.hostname)) return null;
    return withScheme;
  } catch {
    return null;
  }
}

/**
 * A host a page can live on: a name with a top-level domain (loja.com.br), an IP address or localhost. A bare word
 * such as 'carrinho' is a path the user meant to match, not a site, so 'Igual a' refuses it.
 */
function isSiteHost(host: string): boolean {
  if (host === 'localhost' || host.startsWith('[')) return true;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return true;
  const labels = host.split('.');
  return labels.length >= 2 && labels.every(Boolean) && /^([a-z]{2,63}|xn--[a-z0-9-]+)$/i.test(labels.at(-1)!);
}

/** Page and event values typed as 'a, b' are separate values (spec doc 2 §3.1); a regex keeps its commas ({n,m}). */
const splitOnCommas = (list: string[]) =>
  list
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** Blocks hold a one-element values list; when more arrive, the first item is used (spec doc 2 §3.1). */
const firstItem = (v: unknown) => (Array.isArray(v) && v.length > 1 ? v.slice(0, 1) : v);

export interface TriggerCondition {
  filter: (typeof TRIGGER_TYPES)[number];
  comparation?: string;
  comparation2?: string;
  value: string[];
  /** Second list of an abandon trigger (the goal pages), read with comparation2. */
  value2?: string[];
  parentCategory?: string;
  parentCategory2?: string;
  key?: string;
  hours?: string;
  dischargeIn: number[];
}
export interface TriggerBlock {
  type: 'trigger';
  regex: boolean;
  values: [TriggerCondition];
}

const strings = z.preprocess(
  toList,
  z
    .array(z.union([z.string(), z.number()]), { error: m.valueInvalid })
    .transform((list) => list.map((v) => String(v).trim()).filter((v) => v !== '')),
);
const optionalText = z.string({ error: m.valueInvalid }).trim().optional();

const triggerInput = z.object(
  {
    filter: z.enum(TRIGGER_TYPES, { error: m.triggerRequired }),
    comparation: optionalText,
    comparation2: optionalText,
    value: strings,
    value2: strings.optional(),
    parentCategory: optionalText,
    parentCategory2: optionalText,
    key: optionalText,
    hours: optionalText,
    dischargeIn: dischargeIn.optional(),
  },
  { error: m.triggerRequired },
);

const URL_OPERATORS = ['==', '!=', 'contain', 'notcontain'];

export const triggerBlockSchema = z
  .object(
    {
      type: z.literal('trigger', { error: m.blockInvalid }),
      regex: regexFlag,
      values: z.preprocess(
        firstItem,
        z.array(triggerInput, { error: m.triggerRequired }).min(1, m.triggerRequired).max(1, m.triggerRequired),
      ),
    },
    { error: m.blockInvalid },
  )
  .transform((block, ctx): TriggerBlock => {
    const regex = block.regex ?? false;
    const first = block.values[0]!;
    const t =
      !regex && (first.filter === 'pageview' || first.filter === 'events')
        ? { ...first, value: splitOnCommas(first.value) }
        : first;
    const fail = (message: string, field: string) => {
      ctx.addIssue({ code: 'custom', message, path: ['values', 0, field] });
      return z.NEVER;
    };
    if (t.value.length > MAX_VALUES) return fail(m.tooManyValues, 'value');
    if (t.value.some((v) => v.length > MAX_VALUE_LENGTH)) return fail(m.valueTooLong, 'value');
    const checkUrls = (list: string[], comparation: string, field: string): string[] | null => {
      const refuse = (message: string) => {
        ctx.addIssue({ code: 'custom', message, path: ['values', 0, field] });
        return null;
      };
      if (regex) {
        for (const v of list) {
          const checked = toPortableRegex(v);
          if (!checked.ok) return refuse(checked.message);
        }
        return list;
      }
      if (comparation !== '==' && comparation !== '!=') return list;
      const urls = list.map(toPageUrl);
      if (urls.some((u) => u === null)) return refuse(m.urlInvalid);
      return urls as string[];
    };
    const out: TriggerCondition = { filter: t.filter, value: t.value, dischargeIn: t.dischargeIn ?? [] };
    switch (t.filter) {
      case 'pageview': {
        if (!t.comparation || !URL_OPERATORS.includes(t.comparation)) return fail(m.pageviewComparation, 'comparation');
        if (t.value.length === 0) return fail(m.valueRequired, 'value');
        const value = checkUrls(t.value, t.comparation, 'value');
        if (!value) return z.NEVER;
        return { type: 'trigger', regex, values: [{ ...out, comparation: t.comparation, value }] };
      }
      case 'events': {
        if (!t.parentCategory) return fail(m.categoryRequired, 'parentCategory');
        const withValues = t.value.length > 0;
        if (withValues && !t.key) return fail(m.eventKeyRequired, 'key');
        if (withValues && (!t.comparation || !URL_OPERATORS.includes(t.comparation)))
          return fail(m.eventComparation, 'comparation');
        if (withValues && regex && !checkUrls(t.value, 'contain', 'value')) return z.NEVER;
        // The second condition: events of another category, compared with comparation2 on the same key and values.
        const second = t.parentCategory2;
        if (second && second === t.parentCategory) return fail(m.eventCategory2Same, 'parentCategory2');
        const comparation2 = second && withValues ? (t.comparation2 ?? '') : '';
        if (second && withValues && !URL_OPERATORS.includes(comparation2))
          return fail(m.eventComparation2, 'comparation2');
        return {
          type: 'trigger',
          regex,
          values: [
            {
              ...out,
              parentCategory: t.parentCategory,
              ...(second ? { parentCategory2: second } : {}),
              ...(withValues ? { key: t.key, comparation: t.comparation } : {}),
              ...(comparation2 ? { comparation2 } : {}),
            },
          ],
        };
      }
      case 'abandon': {
        if (t.comparation !== 'contain') return fail(m.abandonComparation, 'comparation');
        if (t.comparation2 !== 'contain' && t.comparation2 !== 'notcontain')
          return fail(m.abandonComparation2, 'comparation2');
        if (t.value.length === 0) return fail(m.valueRequired, 'value');
        const value = checkUrls(t.value, 'contain', 'value');
        const value2 = checkUrls(t.value2 ?? [], 'contain', 'value2');
        if (!value || !value2) return z.NEVER;
        return {
          type: 'trigger',
          regex,
          values: [
            {
              ...out,
              comparation: 'contain',
              comparation2: t.comparation2,
              value,
              ...(value2.length ? { value2 } : {}),
              ...(t.parentCategory ? { parentCategory: t.parentCategory } : {}),
              ...(t.parentCategory2 ? { parentCategory2: t.parentCategory2 } : {}),
            },
          ],
        };
      }
      case 'recurrence': {
        if (!t.comparation || !(RECURRENCE_PERIODS as readonly string[]).includes(t.comparation))
          return fail(m.recurrenceRequired, 'comparation');
        if (!t.hours || !/^([01]\d|2[0-3]):[0-5]\d$/.test(t.hours)) return fail(m.hoursInvalid, 'hours');
        let value: string[] = [];
        if (t.comparation === 'monthly') {
          const md = t.value.length === 1 ? /^(\d{1,2})-(\d{1,2})$/.exec(t.value[0]!) : null;
          const [mo, d] = md ? [Number(md[1]), Number(md[2])] : [0, 0];
          if (!md || mo < 1 || mo > 12 || d < 1 || d > 31) return fail(m.monthlyInvalid, 'value');
          value = [`${pad(mo)}-${pad(d)}`];
        } else if (t.comparation === 'weekly') {
          const day = t.value.length === 1 ? t.value[0]!.toLowerCase() : '';
          if (!(WEEKDAYS as readonly string[]).includes(day)) return fail(m.weekdayInvalid, 'value');
          value = [day];
        } else if (t.value.length > 0) return fail(m.dailyValue, 'value');
        return {
          type: 'trigger',
          regex: false,
          values: [{ ...out, comparation: t.comparation, value, hours: t.hours }],
        };
      }
    }
  });
export type TriggerBlockInput = z.input<typeof triggerBlockSchema>;

// ---------------------------------------------------------------- dispatcher block

const httpUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, message);
const text = (message: string, max = 5000) => z.string({ error: message }).trim().min(1, message).max(max, message);
const intervalRecurrency = z
  .preprocess(toList, z.array(seconds(m.intervalsInvalid, 1), { error: m.intervalsInvalid }))
  .pipe(z.array(z.number()).max(50, m.tooManyIntervals))
  .optional()
  .transform((v) => v ?? []);

// ---------------------------------------------------------------- GCD (CELL_DCM) dispatcher

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
const dcmDispatcherValues = z
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
export type DcmDispatcherValues = z.output<typeof dcmDispatcherValues>;

const dispatcherVariant = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ filter: z.literal(type), ...shape, intervalRecurrency });
const looseDispatcher = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.looseObject({ filter: z.literal(type), ...shape, intervalRecurrency });

/** Accepts `icon` as another name of `icon_uri` (the spec's field, 2 §3.5). */
const iconAlias = (v: unknown) => {
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (o.icon_uri !== undefined || o.icon === undefined) return o;
  const { icon, ...rest } = o;
  return { ...rest, icon_uri: icon };
};

export const DISPATCHER_TYPES = [...CHANNEL_TYPES, 'CELL_DCM'] as const;

const dispatcherValues = z.discriminatedUnion(
  'filter',
  [
    dispatcherVariant('CELL_NOTIFICATION', {
      name: text(m.nameRequired, 200),
      title: z.string({ error: m.titleRequired }).trim().min(1, m.titleRequired).max(49, m.titleTooLong),
      message: z.string({ error: m.messageRequired }).trim().min(1, m.messageRequired).max(126, m.messageTooLong),
      icon_uri: z.string({ error: m.iconRequired }).trim().min(1, m.iconRequired).pipe(httpUrl(m.iconInvalid)),
      redirect_uri: httpUrl(m.redirectInvalid),
      image: z
        .string({ error: m.imageInvalid })
        .trim()
        .optional()
        .pipe(z.union([z.literal(''), httpUrl(m.imageInvalid)]).optional()),
      /** Action buttons (doc 2 §3 `notification_buttons`): the service worker shows them and opens each one's URL. */
      notification_buttons: z
        .array(
          z.object({
            title: z
              .string({ error: m.buttonTitleRequired })
              .trim()
              .min(1, m.buttonTitleRequired)
              .max(30, m.buttonTitleRequired),
            url: httpUrl(m.buttonUrlInvalid),
          }),
        )
        .max(2, m.buttonsTooMany)
        .optional(),
    }),
    dispatcherVariant('ZENVIA', { body: text(m.smsBodyRequired, 1600) }),
    dispatcherVariant('AWS_SES', {
      subject: text(m.emailSubjectRequired, 500),
      body: text(m.emailBodyRequired, 500_000),
    }),
    dispatcherVariant('AKNA', {
      action_id: text(m.aknaFieldRequired, 500),
      message_id: text(m.aknaFieldRequired, 500),
      name_sender: text(m.aknaFieldRequired, 500),
      mail_sender: text(m.aknaFieldRequired, 500),
      subject: text(m.aknaFieldRequired, 500),
      mail_return: z.string().trim().max(500).optional(),
    }),
    looseDispatcher('ONE_SIGNAL', {
      title: text(m.oneSignalFieldRequired, 500),
      url: httpUrl(m.oneSignalFieldRequired),
      message_pt: text(m.oneSignalPtRequired, 2000),
      message_en: text(m.oneSignalEnRequired, 2000),
      web_image: z
        .string({ error: m.oneSignalImageInvalid })
        .trim()
        .optional()
        .pipe(z.union([z.literal(''), httpUrl(m.oneSignalImageInvalid)]).optional()),
    }),
    looseDispatcher('SUPERARE_WEBVIEW', {
      webview_type: text(m.webviewTypeRequired, 100),
      webview_mode: z.string().trim().max(100).optional(),
      webview_props: z.record(z.string(), z.string({ error: m.webviewPropsInvalid })).optional(),
    }),
    looseDispatcher('SUPERARE_NOTIFICATION', {}),
    dcmDispatcherValues,
  ],
  { error: m.channelRequired },
);

export const dispatcherBlockSchema = z.object(
  {
    type: z.literal('dispatcher', { error: m.blockInvalid }),
    values: z.preprocess(
      firstItem,
      z
        .array(z.preprocess(iconAlias, dispatcherValues), { error: m.channelRequired })
        .min(1, m.channelRequired)
        .max(1, m.channelRequired),
    ),
  },
  { error: m.blockInvalid },
);
export type DispatcherBlockInput = z.input<typeof dispatcherBlockSchema>;
export type DispatcherBlock = z.output<typeof dispatcherBlockSchema>;

// ---------------------------------------------------------------- finish block

/**
 * The schedule and finish pickers run on a 15-minute grid (spec doc 2 §5, §9): HH:00, :15, :30 or :45, no seconds.
 * Brazil's offsets are whole hours, so the grid is the same in UTC.
 */
export function isOnQuarterHour(iso: string): boolean {
  const at = new Date(iso);
  return (
    !Number.isNaN(at.getTime()) &&
    at.getUTCMinutes() % 15 === 0 &&
    at.getUTCSeconds() === 0 &&
    at.getUTCMilliseconds() === 0
  );
}

export const finishBlockSchema = z.object(
  {
    type: z.literal('finish', { error: m.blockInvalid }),
    values: z.preprocess(
      firstItem,
      z
        .array(
          z.object(
            {
              type: z.literal('finish', { error: m.finishType }),
              filter: z.literal('stop_momentum', { error: m.finishFilter }),
              value: z.iso.datetime({ offset: true, error: m.finishDateInvalid }).refine(isOnQuarterHour, m.finishGrid),
            },
            { error: m.finishDateInvalid },
          ),
          { error: m.finishDateInvalid },
        )
        .min(1, m.finishDateInvalid)
        .max(1, m.finishDateInvalid),
    ),
  },
  { error: m.blockInvalid },
);
export type FinishBlockInput = z.input<typeof finishBlockSchema>;
export type FinishBlock = z.output<typeof finishBlockSchema>;

// ---------------------------------------------------------------- the ordered list

export const BLOCK_TYPES = ['filter', 'trigger', 'dispatcher', 'finish'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export type MomentumBlock = FilterBlock | TriggerBlock | DispatcherBlock | FinishBlock;

const blockSchemas = {
  filter: filterBlockSchema,
  trigger: triggerBlockSchema,
  dispatcher: dispatcherBlockSchema,
  finish: finishBlockSchema,
} as const;

/**
 * A momentum's `momentums` list: filter, trigger, dispatcher, finish, in that order, each at most once and
 * each optional (drafts, campaigns without trigger and finish). Whether a status needs them all is the
 * service's rule, not this schema's.
 */
export const momentumBlocksSchema = z
  .array(z.looseObject({ type: z.enum(BLOCK_TYPES, { error: m.blockTypeInvalid }) }), { error: m.blockInvalid })
  .max(4, m.blocksOrder)
  .transform((blocks, ctx): MomentumBlock[] => {
    const out: MomentumBlock[] = [];
    let rank = -1;
    for (const [i, block] of blocks.entries()) {
      const r = BLOCK_TYPES.indexOf(block.type);
      if (r <= rank) {
        ctx.addIssue({ code: 'custom', message: m.blocksOrder, path: [i, 'type'] });
        return z.NEVER;
      }
      rank = r;
      const parsed = blockSchemas[block.type].safeParse(block);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: [i, ...issue.path] as (string | number)[] });
        return z.NEVER;
      }
      out.push(parsed.data as MomentumBlock);
    }
    return out;
  });
export type MomentumBlocksInput = z.input<typeof momentumBlocksSchema>;
