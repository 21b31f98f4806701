import { m } from './common.ts';

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
