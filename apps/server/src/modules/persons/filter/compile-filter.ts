import {
  attributeKey,
  type FilterBlock,
  type FilterCondition,
  filterBlockSchema,
  filterKeyInfo,
  filterTest,
  foldCase,
  toPortableRegex,
  trimSpaces,
  type WireCondition,
} from '@impeto/shared';
import { type SQL, sql } from 'drizzle-orm';
import { persons } from '../../../db/schema.ts';
import { parseBody } from '../../../lib/validate.ts';

/*
 * One audience filter, two forms that must select the same persons: a SQL condition over `persons` (counts,
 * campaign fan-out) and an in-memory predicate (the engine, and the tag's GCD injector: the predicates are
 * packages/shared filter/predicate.ts, fed with `wireFilter`). Every rule below is written so that PostgreSQL
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
const TRIM_CHARS = ' \t\n\r\f\v';

const NUMBER_SRC = '^-?[0-9]+(\\.[0-9]+)?$';
const NUMERIC_ATTR_SRC = '^-?[0-9]+(\\.[0-9]+)*$';
const NUMERIC_PREFIX_SRC = '^-?[0-9]+(?:\\.[0-9]+)?';
const DATE_SRC = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?Z)?$';
const MIDNIGHT_SRC = '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T00:00(:00(\\.0+)?)?Z)?$';
const NUMBER_RE = new RegExp(NUMBER_SRC);

export { attributeTexts, compareCodePoints, compareDecimals, foldCase, trimSpaces } from '@impeto/shared';

type Ordering = '<' | '<=' | '>' | '>=';
const ORDERING_SQL: Record<Ordering, SQL> = {
  '<': sql.raw('<'),
  '<=': sql.raw('<='),
  '>': sql.raw('>'),
  '>=': sql.raw('>='),
};

/**
 * A test on one element text, in SQL over `t` (its JavaScript twin is the shared elementTest). For list attributes the SQL
 * side avoids a per-row subquery (a SubPlan rules out a parallel scan and costs microseconds per person):
 * `path` is the same test on a JSON string element as a jsonpath filter (`@`; values bound as `vars`),
 * `numbers` the same test over the texts of the list's number elements (`nums`, a text[]). A test without
 * them falls back to the element subquery.
 */
interface ElementTest {
  sql(t: SQL): SQL;
  path?(bind: (value: string) => string): string;
  numbers?(nums: SQL): SQL;
}

const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/;
/** A jsonpath regex (flag "s": `.` matches newlines as with `~`) that matches the texts whose fold contains `folded`. */
function foldedPattern(folded: string): string {
  let out = '';
  for (const c of folded) {
    const upper = FOLD_FROM[FOLD_TO.indexOf(c)];
    if (FOLD_TO.includes(c) && upper) out += `[${c}${upper}]`;
    else out += REGEX_SPECIAL.test(c) ? `\\${c}` : c;
  }
  return out;
}
const isAscii = (s: string) => [...s].every((c) => c.charCodeAt(0) < 0x80);
/**
 * Our fold of `t`, as far as a comparison with the folded ASCII text `against` can tell: then only ASCII
 * characters of `t` can take part in a match, and those fold as lower() under "C" folds them (A–Z only), which
 * costs far less than translate() with the Latin-1 table.
 */
const fold = (t: SQL, against: string) =>
  isAscii(against) ? sql`lower(${t} COLLATE "C")` : sql`translate(${t}, ${FOLD_FROM}::text, ${FOLD_TO}::text)`;
const jsonpathString = (s: string) => JSON.stringify(s);
const likeRegex = (pattern: string) => `@ like_regex ${jsonpathString(pattern)} flag "s"`;
const ISO_DAY_RE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
/** The next 10-character day text in code-point order ('2024-03-19' → '2024-03-1:'): prefix <= day ⇔ text < next. */
const nextDay = (day: string) => day.slice(0, 9) + String.fromCharCode(day.charCodeAt(9) + 1);

function valueTest(condition: FilterCondition, regex: boolean, raw: string | boolean): ElementTest {
  const op = condition.comparation!;
  const v = String(raw);
  const kind = filterKeyInfo(condition.filter)!.kind;
  if (kind === 'boolean')
    return {
      sql: (t) => sql`${t} = ${v}::text`,
      path: (bind) => `@ == ${bind(v)}`,
      numbers: (nums) => sql`${v}::text = ANY(${nums})`,
    };
  if (kind === 'date') {
    const day = v.slice(0, 10);
    const end = condition.value2?.slice(0, 10) ?? day;
    const date = (t: SQL) => sql`substr(${t}, 1, 10) COLLATE "C"`;
    // A number's text never looks like a date. On 10-character days, code-point order (jsonpath's and
    // COLLATE "C") compares the day prefix: for a date text t, t[0..10] < D ⇔ t < D, and t[0..10] <= D ⇔ t < next(D).
    const indexable = ISO_DAY_RE.test(day) && ISO_DAY_RE.test(end);
    const isDate = likeRegex(DATE_SRC);
    if (op === '<')
      return {
        sql: (t) =>
          indexable
            ? sql`(${t} COLLATE "C" < ${day}::text AND ${t} ~ ${DATE_SRC}::text)`
            : sql`(${t} ~ ${DATE_SRC}::text AND ${date(t)} < ${day}::text)`,
        ...(indexable && { path: (bind) => `(${isDate} && @ < ${bind(day)})`, numbers: () => sql`false` }),
      };
    if (op === '>')
      return {
        sql: (t) =>
          sql`(${t} ~ ${DATE_SRC}::text AND (${date(t)} > ${day}::text OR (${date(t)} = ${day}::text AND ${t} !~ ${MIDNIGHT_SRC}::text)))`,
        ...(indexable && {
          path: (bind) =>
            `(${isDate} && (@ >= ${bind(nextDay(day))} || (@ starts with ${bind(day)} && !(${likeRegex(MIDNIGHT_SRC)}))))`,
          numbers: () => sql`false`,
        }),
      };
    return {
      // The cheap range test first: most persons fail it before the regex runs.
      sql: (t) =>
        indexable
          ? sql`(${t} COLLATE "C" >= ${day}::text AND ${t} COLLATE "C" < ${nextDay(end)}::text AND ${t} ~ ${DATE_SRC}::text)`
          : sql`(${t} ~ ${DATE_SRC}::text AND ${date(t)} BETWEEN ${day}::text AND ${end}::text)`,
      ...(indexable && {
        path: (bind) => `(${isDate} && @ >= ${bind(day)} && @ < ${bind(nextDay(end))})`,
        numbers: () => sql`false`,
      }),
    };
  }
  if (regex) {
    const portable = toPortableRegex(v);
    if (!portable.ok) throw new Error(portable.message);
    return {
      sql: (t) => sql`${t} ~ ${portable.source}::text`,
      path: () => likeRegex(portable.source),
    };
  }
  switch (op) {
    case '==':
    case '!=':
      return {
        sql: (t) => sql`${t} = ${v}::text`,
        path: (bind) => `@ == ${bind(v)}`,
        numbers: (nums) => sql`${v}::text = ANY(${nums})`,
      };
    case 'contain':
    case 'notcontain': {
      const needle = foldCase(v);
      return {
        sql: (t) => sql`strpos(${fold(t, needle)}, ${needle}::text) > 0`,
        path: () => likeRegex(foldedPattern(needle)),
        // Number texts hold no space (nor letters to fold): joined by spaces, a needle without one matches
        // the joined text exactly when it matches one of them.
        numbers: (nums) =>
          needle.includes(' ') ? sql`false` : sql`strpos(array_to_string(${nums}, ' '), ${needle}::text) > 0`,
      };
    }
    case 'exactly': {
      const wanted = foldCase(trimSpaces(v));
      return {
        sql: (t) => sql`${fold(sql`btrim(${t}, ${TRIM_CHARS}::text)`, wanted)} = ${wanted}::text`,
        path: () => likeRegex(`^[${TRIM_CHARS}]*${foldedPattern(wanted)}[${TRIM_CHARS}]*$`),
        numbers: (nums) => sql`${wanted}::text = ANY(${nums})`,
      };
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const cmp = ORDERING_SQL[op];
      const asText = (t: SQL) => sql`${t} COLLATE "C" ${cmp} ${v}::text`;
      if (!NUMBER_RE.test(v)) return { sql: asText };
      return {
        sql: (t) =>
          sql`(CASE WHEN ${t} ~ ${NUMERIC_ATTR_SRC}::text THEN substring(${t} from ${NUMERIC_PREFIX_SRC}::text)::numeric ${cmp} ${v}::numeric ELSE ${asText(t)} END)`,
      };
    }
    default:
      throw new Error(`operador sem compilação: ${op}`);
  }
}

const STRING_PATH = (filter: string) => `$[*] ? (${filter})`;
const HAS_NUMBER = '$[*] ? (@.type() == "number")';

/** Some element of the JSON array `list` passes one of the tests (the array branch of a condition). */
function listTest(list: SQL, tests: ElementTest[]): SQL {
  const text = sql`(e.v #>> '{}')`;
  if (!tests.every((t) => t.path && t.numbers))
    return sql`EXISTS (SELECT 1 FROM jsonb_array_elements(${list}) AS e(v) WHERE jsonb_typeof(e.v) IN ('string', 'number', 'boolean') AND (${sql.join(
      tests.map((t) => t.sql(text)),
      sql` OR `,
    )}))`;
  const vars: Record<string, string> = {};
  const bind = (value: string) => {
    const name = `v${Object.keys(vars).length}`;
    vars[name] = value;
    return `$${name}`;
  };
  const filter = tests.map((t) => t.path!(bind)).join(' || ');
  const strings = sql`jsonb_path_exists(${list}, ${STRING_PATH(filter)}::jsonpath, ${JSON.stringify(vars)}::jsonb)`;
  // Booleans read 'true' / 'false': the element test applied to that constant text.
  const booleans = sql`(${list} @> '[true]'::jsonb AND (${sql.join(
    tests.map((t) => t.sql(sql`'true'::text`)),
    sql` OR `,
  )})) OR (${list} @> '[false]'::jsonb AND (${sql.join(
    tests.map((t) => t.sql(sql`'false'::text`)),
    sql` OR `,
  )}))`;
  // A jsonb number prints as its numeric text, the same as `#>> '{}'`; the array of them prints as
  // '[1, 2.5]', and number texts hold neither ',' nor ' '.
  const nums = sql`string_to_array(btrim(jsonb_path_query_array(${list}, ${HAS_NUMBER}::jsonpath)::text, '[]'), ', ')`;
  const numbers = sql`CASE WHEN jsonb_path_exists(${list}, ${HAS_NUMBER}::jsonpath) THEN (${sql.join(
    tests.map((t) => t.numbers!(nums)),
    sql` OR `,
  )}) ELSE false END`;
  return sql`(${strings} OR ${booleans} OR ${numbers})`;
}

function compileCondition(condition: FilterCondition, regex: boolean): SQL {
  const info = filterKeyInfo(condition.filter)!;
  if (info.kind === 'all') return sql`true`;
  const key = attributeKey(info.key);
  const negative = condition.comparation === '!=' || condition.comparation === 'notcontain';
  const usesRegex = regex && (info.kind === 'string' || info.kind === 'list');
  const tests = condition.value.map((v) => valueTest(condition, usesRegex, v));

  const attr = sql`(${persons.attributes} -> ${key}::text)`;
  const scalar = sql`(${persons.attributes} ->> ${key}::text)`;
  const anyOf = (parts: SQL[]) => sql`(${sql.join(parts, sql` OR `)})`;
  // coalesce: a missing attribute (and JSON null) matches no element.
  const any = sql`coalesce(CASE jsonb_typeof(${attr}) WHEN 'array' THEN ${listTest(attr, tests)}
    WHEN 'object' THEN false ELSE ${anyOf(tests.map((t) => t.sql(scalar)))} END, false)`;
  return negative ? sql`(NOT ${any})` : any;
}

/**
 * A validated filter block in the predicates' form (packages/shared filter/predicate.ts): attribute keys resolved,
 * values as texts, regex values in their portable source. What the engine tests in memory and the tag receives.
 */
export function wireFilter(block: FilterBlock): WireCondition[] {
  return block.values.map((c, i) => {
    const info = filterKeyInfo(c.filter)!;
    const re = block.regex && (info.kind === 'string' || info.kind === 'list');
    const v = c.value.map((raw) => {
      if (!re) return String(raw);
      const portable = toPortableRegex(String(raw));
      if (!portable.ok) throw new Error(portable.message);
      return portable.source;
    });
    return {
      k: info.kind === 'all' ? '' : attributeKey(info.key),
      kind: info.kind,
      op: c.comparation ?? '',
      v,
      ...(c.value2 !== undefined && { v2: c.value2 }),
      ...(re && { re: true }),
      ...(i > 0 && c.logical === 'or' && { or: true }),
    };
  });
}

/**
 * Compiles an audience filter block (validated here with filterBlockSchema: an invalid one throws the
 * usual 400 AppError). `null`/`undefined` (no filter block) selects everyone.
 */
export function compileFilter(input: unknown): CompiledFilter {
  if (input === null || input === undefined) return { where: sql`true`, matches: () => true, block: null };
  const block = parseBody(filterBlockSchema, input);
  const [first, second] = block.values.map((c) => compileCondition(c, block.regex));
  const test = filterTest(wireFilter(block));
  const matches = (p: PersonLike) => test(p.attributes);
  if (!first) return { where: sql`true`, matches: () => true, block };
  if (!second) return { where: first, matches, block };
  const or = block.values[1]!.logical === 'or';
  return { where: or ? sql`(${first} OR ${second})` : sql`(${first} AND ${second})`, matches, block };
}
