import {
  attributeKey,
  type FilterBlock,
  type FilterCondition,
  filterBlockSchema,
  filterKeyInfo,
  toPortableRegex,
} from '@impeto/shared';
import { type SQL, sql } from 'drizzle-orm';
import { persons } from '../../../db/schema.ts';
import { parseBody } from '../../../lib/validate.ts';

/*
 * One audience filter, two forms that must select the same persons: a SQL condition over `persons` (counts,
 * campaign fan-out) and an in-memory predicate (the engine). Every rule below is written so that PostgreSQL
 * (any locale, PGlite included) and JavaScript agree exactly; compile-filter.test.ts checks it on both databases.
 *
 * - An attribute is read as a list of texts: a JSON array gives its string/number/boolean elements, a scalar
 *   gives itself, anything else (missing, null, objects) gives nothing. Booleans read 'true'/'false'.
 * - Positive operators (==, contain, exactly, <, <=, >, >=, dates, regex match) pass when SOME element
 *   matches SOME value; negative ones (!=, notcontain) pass when NO element matches ANY value. So a missing
 *   attribute never passes a positive operator and always passes a negative one.
 * - == / != compare exactly (case and accents matter).
 * - contain / notcontain: substring, case-insensitive. exactly: equal after trimming ' \t\n\r\f\v' at both
 *   ends and ignoring case. Case folding is our own table (A–Z and Latin-1 À–Þ), not the database locale:
 *   PostgreSQL's lower() follows the collation (ASCII only under C), JavaScript's does not.
 * - <, <=, >, >=: when the value is a decimal number and the attribute a number or dotted version
 *   ('120.0.6099.109'), they compare numerically using its first two components (120.0); otherwise they
 *   compare texts by code point (COLLATE "C").
 * - Dates (createdAt, an ISO datetime in UTC 'YYYY-MM-DDTHH:mm:ss.sssZ' or a bare 'YYYY-MM-DD'; anything else
 *   never matches) against D = start of the chosen day in UTC: '<' is before D, '>' is after D (strictly),
 *   'between' covers the whole days from value to value2 inclusive.
 * - Regex flag: ==, contain and exactly pass when some element matches the pattern (a search; anchor it
 *   with ^ and $), != and notcontain when none does; case-sensitive. Patterns are the portable subset of
 *   toPortableRegex (PostgreSQL `~` and JavaScript with flags 'su').
 * - Several values: OR for positive operators, none-of for negative ones. Two conditions: and / or.
 * - 'all' (or no filter block at all) selects everyone.
 */

export interface PersonLike {
  attributes: Record<string, unknown>;
}

export interface CompiledFilter {
  /** A condition over the `persons` table (not aliased); scope it to a domain yourself. */
  where: SQL;
  matches(person: PersonLike): boolean;
  block: FilterBlock | null;
}

const ASCII_UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LATIN1_UPPER = Array.from({ length: 0xdf - 0xc0 }, (_, i) => String.fromCharCode(0xc0 + i))
  .filter((c) => c !== '\u00d7')
  .join('');
const FOLD_FROM = ASCII_UPPER + LATIN1_UPPER;
const FOLD_TO = [...FOLD_FROM].map((c) => String.fromCharCode(c.charCodeAt(0) + 0x20)).join('');
const FOLD = new Map([...FOLD_FROM].map((c, i) => [c, FOLD_TO[i]!]));
const TRIM_CHARS = ' \t\n\r\f\v';

const NUMBER_SRC = '^-?[0-9]+(\\.[0-9]+)?$';
const NUMERIC_ATTR_SRC = '^-?[0-9]+(\\.[0-9]+)*$';
const NUMERIC_PREFIX_SRC = '^-?[0-9]+(?:\\.[0-9]+)?';
const DATE_SRC = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?Z)?$';
const MIDNIGHT_SRC = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T00:00(:00(\\.0+)?)?Z)?$';
const NUMBER_RE = new RegExp(NUMBER_SRC);
const NUMERIC_ATTR_RE = new RegExp(NUMERIC_ATTR_SRC);
const NUMERIC_PREFIX_RE = new RegExp(NUMERIC_PREFIX_SRC);
const DATE_RE = new RegExp(DATE_SRC);
const MIDNIGHT_RE = new RegExp(MIDNIGHT_SRC);

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

/** The texts an attribute holds, in the same way the SQL side reads them. */
export function attributeTexts(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const v of list)
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
  return out;
}

type Ordering = '<' | '<=' | '>' | '>=';
const ORDERING_SQL: Record<Ordering, SQL> = {
  '<': sql.raw('<'),
  '<=': sql.raw('<='),
  '>': sql.raw('>'),
  '>=': sql.raw('>='),
};
const ordered = (c: number, op: Ordering) => (op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0);

/** A test on one element text: the SQL over `t` and the same test in JavaScript. */
interface ElementTest {
  sql(t: SQL): SQL;
  js(t: string): boolean;
}

function valueTest(condition: FilterCondition, regex: boolean, raw: string | boolean): ElementTest {
  const op = condition.comparation!;
  const v = String(raw);
  const kind = filterKeyInfo(condition.filter)!.kind;
  if (kind === 'boolean') return { sql: (t) => sql`${t} = ${v}::text`, js: (t) => t === v };
  if (kind === 'date') {
    const day = v.slice(0, 10);
    const end = condition.value2?.slice(0, 10) ?? day;
    const date = (t: SQL) => sql`substr(${t}, 1, 10) COLLATE "C"`;
    if (op === '<')
      return {
        sql: (t) => sql`(${t} ~ ${DATE_SRC}::text AND ${date(t)} < ${day}::text)`,
        js: (t) => DATE_RE.test(t) && t.slice(0, 10) < day,
      };
    if (op === '>')
      return {
        sql: (t) =>
          sql`(${t} ~ ${DATE_SRC}::text AND (${date(t)} > ${day}::text OR (${date(t)} = ${day}::text AND ${t} !~ ${MIDNIGHT_SRC}::text)))`,
        js: (t) => DATE_RE.test(t) && (t.slice(0, 10) > day || (t.slice(0, 10) === day && !MIDNIGHT_RE.test(t))),
      };
    return {
      sql: (t) => sql`(${t} ~ ${DATE_SRC}::text AND ${date(t)} BETWEEN ${day}::text AND ${end}::text)`,
      js: (t) => DATE_RE.test(t) && t.slice(0, 10) >= day && t.slice(0, 10) <= end,
    };
  }
  if (regex) {
    const portable = toPortableRegex(v);
    if (!portable.ok) throw new Error(portable.message);
    const re = new RegExp(portable.source, 'su');
    return { sql: (t) => sql`${t} ~ ${portable.source}::text`, js: (t) => re.test(t) };
  }
  switch (op) {
    case '==':
    case '!=':
      return { sql: (t) => sql`${t} = ${v}::text`, js: (t) => t === v };
    case 'contain':
    case 'notcontain': {
      const needle = foldCase(v);
      return {
        sql: (t) => sql`strpos(translate(${t}, ${FOLD_FROM}::text, ${FOLD_TO}::text), ${needle}::text) > 0`,
        js: (t) => foldCase(t).includes(needle),
      };
    }
    case 'exactly': {
      const wanted = foldCase(trimSpaces(v));
      return {
        sql: (t) =>
          sql`translate(btrim(${t}, ${TRIM_CHARS}::text), ${FOLD_FROM}::text, ${FOLD_TO}::text) = ${wanted}::text`,
        js: (t) => foldCase(trimSpaces(t)) === wanted,
      };
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const cmp = ORDERING_SQL[op];
      const asText = (t: SQL) => sql`${t} COLLATE "C" ${cmp} ${v}::text`;
      if (!NUMBER_RE.test(v)) return { sql: asText, js: (t) => ordered(compareCodePoints(t, v), op) };
      return {
        sql: (t) =>
          sql`(CASE WHEN ${t} ~ ${NUMERIC_ATTR_SRC}::text THEN substring(${t} from ${NUMERIC_PREFIX_SRC}::text)::numeric ${cmp} ${v}::numeric ELSE ${asText(t)} END)`,
        js: (t) =>
          NUMERIC_ATTR_RE.test(t)
            ? ordered(compareDecimals(NUMERIC_PREFIX_RE.exec(t)![0], v), op)
            : ordered(compareCodePoints(t, v), op),
      };
    }
    default:
      throw new Error(`operador sem compilação: ${op}`);
  }
}

interface CompiledCondition {
  sql: SQL;
  js(person: PersonLike): boolean;
}

function compileCondition(condition: FilterCondition, regex: boolean): CompiledCondition {
  const info = filterKeyInfo(condition.filter)!;
  if (info.kind === 'all') return { sql: sql`true`, js: () => true };
  const key = attributeKey(info.key);
  const negative = condition.comparation === '!=' || condition.comparation === 'notcontain';
  const usesRegex = regex && (info.kind === 'string' || info.kind === 'list');
  const tests = condition.value.map((v) => valueTest(condition, usesRegex, v));

  const attr = sql`${persons.attributes} -> ${key}::text`;
  const text = sql`(e.v #>> '{}')`;
  const scalar = sql`(${attr} #>> '{}')`;
  // A scalar attribute is tested directly; only arrays pay for the element subquery (the same semantics:
  // a scalar is a one-element list). coalesce: a missing attribute matches no element.
  const any = sql`coalesce(CASE jsonb_typeof(${attr})
    WHEN 'array' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(${attr}) AS e(v) WHERE jsonb_typeof(e.v) IN ('string', 'number', 'boolean') AND (${sql.join(
      tests.map((t) => t.sql(text)),
      sql` OR `,
    )}))
    WHEN 'string' THEN (${sql.join(
      tests.map((t) => t.sql(scalar)),
      sql` OR `,
    )})
    WHEN 'number' THEN (${sql.join(
      tests.map((t) => t.sql(scalar)),
      sql` OR `,
    )})
    WHEN 'boolean' THEN (${sql.join(
      tests.map((t) => t.sql(scalar)),
      sql` OR `,
    )})
    ELSE false END, false)`;
  const anyJs = (person: PersonLike) => {
    const attrs = person.attributes;
    const value = attrs && typeof attrs === 'object' && Object.hasOwn(attrs, key) ? attrs[key] : undefined;
    return attributeTexts(value).some((t) => tests.some((test) => test.js(t)));
  };
  return negative ? { sql: sql`(NOT ${any})`, js: (p) => !anyJs(p) } : { sql: any, js: anyJs };
}

/**
 * Compiles an audience filter block (validated here with filterBlockSchema: an invalid one throws the
 * usual 400 AppError). `null`/`undefined` (no filter block) selects everyone.
 */
export function compileFilter(input: unknown): CompiledFilter {
  if (input === null || input === undefined) return { where: sql`true`, matches: () => true, block: null };
  const block = parseBody(filterBlockSchema, input);
  const [first, second] = block.values.map((c) => compileCondition(c, block.regex));
  if (!first) return { where: sql`true`, matches: () => true, block };
  if (!second) return { where: first.sql, matches: first.js, block };
  const or = block.values[1]!.logical === 'or';
  return {
    where: or ? sql`(${first.sql} OR ${second.sql})` : sql`(${first.sql} AND ${second.sql})`,
    matches: or ? (p) => first.js(p) || second.js(p) : (p) => first.js(p) && second.js(p),
    block,
  };
}
