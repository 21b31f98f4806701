import { z } from '../../zod.ts';
import { MAX_VALUE_LENGTH, MAX_VALUES, m, pad, regexFlag, toList } from './common.ts';
import { type FilterKey, type FilterOperator, filterKeyInfo, operatorsFor, REGEX_OPERATORS } from './filter-keys.ts';
import { toPortableRegex } from './portable-regex.ts';

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

const scalar = z.union([z.string(), z.number(), z.boolean()], { error: m.valueInvalid });

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
