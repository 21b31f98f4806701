import { z } from '../../zod.ts';
import { firstItem, MAX_VALUE_LENGTH, MAX_VALUES, m, pad, regexFlag, seconds, toList } from './common.ts';
import { toPortableRegex } from './portable-regex.ts';

export const TRIGGER_TYPES = ['pageview', 'events', 'abandon', 'recurrence'] as const;
export const RECURRENCE_PERIODS = ['monthly', 'weekly', 'daily'] as const;
/** Weekly recurrence values: English weekday names; the index is the worktime weekday number (0 = Sunday). */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

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
