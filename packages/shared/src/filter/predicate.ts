// What each filter and trigger operator means, as predicates over texts: the one definition the server's filter
// compiler (its in-memory side; the SQL side is compiled to agree, compile-filter.test.ts) and the engine's
// trigger matcher use, and the tag's GCD injector bundles (packages/tracker/src/dcm.ts). No imports: the tag
// carries this file, so it must stay small and free of zod.
//
// The server turns a validated filter block into WireCondition[] (compile-filter.ts `wireFilter`): attribute key
// resolved, booleans as 'true'/'false', regex values already in the portable subset (toPortableRegex), so this
// file needs no catalogue of filter keys.

/** One filter condition as the predicates read it (also the shape the tag receives in GCD rules). */
export interface WireCondition {
  /** The key inside persons.attributes ('navigator.browser'); '' for 'all'. */
  k: string;
  /** How the attribute is stored: 'string' | 'list' | 'boolean' | 'date' | 'all'. */
  kind: string;
  op: string;
  /** Values as texts; with `re`, portable regex sources (flags 'su'). */
  v: string[];
  /** End day of a 'between' date filter. */
  v2?: string;
  re?: boolean;
  /** This (second) condition joins the first with OR; otherwise AND. */
  or?: boolean;
}

// A–Z and À–Þ without × (U+00D7); each folds to the character 0x20 above it.
const FOLD = new Map<string, string>();
for (let code = 0x41; code <= 0xde; code++)
  if (code <= 0x5a || (code >= 0xc0 && code !== 0xd7))
    FOLD.set(String.fromCharCode(code), String.fromCharCode(code + 32));
const TRIM_CHARS = ' \t\n\r\f\v';
const NUMBER_RE = /^-?[0-9]+(\.[0-9]+)?$/;
const NUMERIC_ATTR_RE = /^-?[0-9]+(\.[0-9]+)*$/;
const NUMERIC_PREFIX_RE = /^-?[0-9]+(?:\.[0-9]+)?/;
const DATE_RE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?Z)?$/;
const MIDNIGHT_RE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T00:00(:00(\.0+)?)?Z)?$/;

/** Our case folding: A–Z and Latin-1 À–Þ (without ×) only, so PostgreSQL under any locale can do the same. */
export const foldCase = (s: string) => {
  let out = '';
  for (const c of s) out += FOLD.get(c) ?? c;
  return out;
};

export const trimSpaces = (s: string) => {
  let start = 0;
  let end = s.length;
  while (start < end && TRIM_CHARS.includes(s[start]!)) start++;
  while (end > start && TRIM_CHARS.includes(s[end - 1]!)) end--;
  return s.slice(start, end);
};

/** Code-point order, which is what PostgreSQL's "C" collation (UTF-8 byte order) gives. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return Math.sign(a.length - b.length);
}

/** Exact comparison of two decimal texts ('-12.50' vs '3'), as PostgreSQL's numeric does. */
export function compareDecimals(a: string, b: string): number {
  const parse = (s: string) => {
    const negative = s.startsWith('-');
    const [int = '', frac = ''] = (negative ? s.slice(1) : s).split('.');
    const i = int.replace(/^0+/, '');
    const f = frac.replace(/0+$/, '');
    return { negative: negative && (i !== '' || f !== ''), i, f };
  };
  const x = parse(a);
  const y = parse(b);
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  let c: number;
  if (x.i.length !== y.i.length) c = x.i.length < y.i.length ? -1 : 1;
  else if (x.i !== y.i) c = x.i < y.i ? -1 : 1;
  else {
    const len = Math.max(x.f.length, y.f.length);
    const fx = x.f.padEnd(len, '0');
    const fy = y.f.padEnd(len, '0');
    c = fx === fy ? 0 : fx < fy ? -1 : 1;
  }
  return x.negative ? -c : c;
}

/** The texts an attribute holds: a JSON array gives its string/number/boolean elements, a scalar itself. */
export function attributeTexts(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const v of list)
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
  return out;
}

const ordered = (c: number, op: string) => (op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0);

/**
 * The test of one element text against one value (negation is the condition's business):
 * - boolean kinds: equal to 'true' / 'false';
 * - dates (ISO datetime in UTC or a bare day; anything else never matches) against the start of the value's
 *   day: '<' before it, '>' strictly after it, 'between' whole days from value to v2;
 * - regex: a search with the portable source (flags 'su');
 * - == / != exact; contain / notcontain folded substring; exactly: folded and trimmed equality;
 * - <, <=, >, >=: numeric on the first two dotted components when the value is a decimal and the element a number
 *   or version, else code-point order.
 */
export function elementTest(kind: string, op: string, value: string, value2?: string, regex?: boolean) {
  const v = value;
  if (kind === 'boolean') return (t: string) => t === v;
  if (kind === 'date') {
    const day = v.slice(0, 10);
    const end = value2?.slice(0, 10) ?? day;
    if (op === '<') return (t: string) => DATE_RE.test(t) && t.slice(0, 10) < day;
    if (op === '>')
      return (t: string) =>
        DATE_RE.test(t) && (t.slice(0, 10) > day || (t.slice(0, 10) === day && !MIDNIGHT_RE.test(t)));
    return (t: string) => DATE_RE.test(t) && t.slice(0, 10) >= day && t.slice(0, 10) <= end;
  }
  if (regex) {
    const re = new RegExp(v, 'su');
    return (t: string) => re.test(t);
  }
  if (op === '==' || op === '!=') return (t: string) => t === v;
  if (op === 'contain' || op === 'notcontain') {
    const needle = foldCase(v);
    return (t: string) => foldCase(t).includes(needle);
  }
  if (op === 'exactly') {
    const wanted = foldCase(trimSpaces(v));
    return (t: string) => foldCase(trimSpaces(t)) === wanted;
  }
  if (!NUMBER_RE.test(v)) return (t: string) => ordered(compareCodePoints(t, v), op);
  return (t: string) =>
    NUMERIC_ATTR_RE.test(t)
      ? ordered(compareDecimals(NUMERIC_PREFIX_RE.exec(t)![0], v), op)
      : ordered(compareCodePoints(t, v), op);
}

export const isNegative = (op: string | undefined) => op === '!=' || op === 'notcontain';

/**
 * One condition over a person's attributes: positive operators pass when SOME element matches SOME value,
 * negative ones when NO element matches ANY value (a missing attribute fails the first, passes the second).
 */
export function conditionTest(c: WireCondition): (attributes: Record<string, unknown>) => boolean {
  if (c.kind === 'all') return () => true;
  const tests = c.v.map((v) => elementTest(c.kind, c.op, v, c.v2, c.re));
  const any = (attributes: Record<string, unknown>) => {
    const value =
      attributes && typeof attributes === 'object' && Object.hasOwn(attributes, c.k) ? attributes[c.k] : undefined;
    return attributeTexts(value).some((t) => tests.some((test) => test(t)));
  };
  return isNegative(c.op) ? (a) => !any(a) : any;
}

/** A filter: no condition selects everyone; a second one joins the first with AND, or OR when it says so. */
export function filterTest(conditions: WireCondition[]): (attributes: Record<string, unknown>) => boolean {
  const [first, second] = conditions.map(conditionTest);
  if (!first) return () => true;
  if (!second) return first;
  return conditions[1]!.or ? (a) => first(a) || second(a) : (a) => first(a) && second(a);
}

/** A page address without scheme, fragment and trailing slash, the host in lower case (== / != URL rules). */
export const normalizeUrl = (text: string) => {
  try {
    const u = new URL(text);
    const path = u.pathname.length > 1 ? u.pathname.replace(/\/+$/, '') : '';
    return `${u.host.toLowerCase()}${path}${u.search}`;
  } catch {
    return text.trim();
  }
};

/**
 * A trigger's value list under one operator, as a test of a text (a page address or an event value):
 * with `regex`, each value is a portable source searched in the text; contain / notcontain fold case;
 * == / != compare normalized addresses when `urls`, else exact texts. == and contain pass when one value
 * matches; != and notcontain when none does.
 */
export function textRule(comparation: string, values: string[], regex: boolean, urls: boolean) {
  const negative = isNegative(comparation);
  let hit: (subject: string) => boolean;
  if (regex) {
    const patterns = values.map((v) => {
      try {
        return new RegExp(v, 'su');
      } catch {
        return null;
      }
    });
    hit = (s) => patterns.some((p) => p?.test(s));
  } else if (comparation === 'contain' || comparation === 'notcontain') {
    const folded = values.map(foldCase);
    hit = (s) => {
      const f = foldCase(s);
      return folded.some((v) => f.includes(v));
    };
  } else if (urls) {
    const wanted = values.map(normalizeUrl);
    hit = (s) => wanted.includes(normalizeUrl(s));
  } else hit = (s) => values.includes(s);
  return (subject: string) => hit(subject) !== negative;
}

/**
 * Worktime (Cronograma) at a local weekday (0–6 from Sunday) and minute of the day: open inside [start, stop)
 * on a listed weekday; a window whose stop is not after its start runs overnight (opens on the listed day, closes
 * the next morning); equal times mean the whole day.
 */
export function worktimeOpen(weekdays: number[], start: number, stop: number, today: number, minute: number) {
  const yesterday = (today + 6) % 7;
  if (start === stop) return weekdays.includes(today);
  if (start < stop) return weekdays.includes(today) && minute >= start && minute < stop;
  return (weekdays.includes(today) && minute >= start) || (weekdays.includes(yesterday) && minute < stop);
}
