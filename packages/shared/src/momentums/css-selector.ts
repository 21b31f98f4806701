import { parse, type Selector } from 'css-what';

// Whether `document.querySelector(selector)` would accept a selector, decided without a DOM (the server has
// none). css-what parses the grammar; it is more lenient than browsers, so the tree is checked against what
// Chromium's querySelector accepts: known pseudo-classes and pseudo-elements, valid nth formulas, no leading or
// trailing combinator, no undeclared namespace, identifiers that do not start with a digit. The table in
// css-selector.test.ts is also run in real Chromium by e2e/specs/gcd.spec.ts, so both stay in agreement.

/** Pseudo-classes without an argument that Chromium's querySelector knows. */
const PLAIN_PSEUDO_CLASSES = new Set([
  'active',
  'any-link',
  'autofill',
  'checked',
  'default',
  'defined',
  'disabled',
  'empty',
  'enabled',
  'first-child',
  'first-of-type',
  'focus',
  'focus-visible',
  'focus-within',
  'fullscreen',
  'hover',
  'in-range',
  'indeterminate',
  'invalid',
  'last-child',
  'last-of-type',
  'link',
  'modal',
  'only-child',
  'only-of-type',
  'optional',
  'out-of-range',
  'paused',
  'placeholder-shown',
  'playing',
  'popover-open',
  'read-only',
  'read-write',
  'required',
  'root',
  'scope',
  'target',
  'user-invalid',
  'user-valid',
  'valid',
  'visited',
  'host',
]);
/** Pseudo-classes whose argument is a selector list (css-what parses them). */
const SELECTOR_PSEUDO_CLASSES = new Set(['not', 'is', 'where', 'has', 'host', 'host-context']);
/** :is() and :where() take a forgiving list in browsers: an unknown part inside them is dropped, not refused. */
const FORGIVING = new Set(['is', 'where']);
const NTH_PSEUDO_CLASSES = new Set(['nth-child', 'nth-last-child', 'nth-of-type', 'nth-last-of-type']);
const PSEUDO_ELEMENTS = new Set([
  'after',
  'backdrop',
  'before',
  'cue',
  'file-selector-button',
  'first-letter',
  'first-line',
  'grammar-error',
  'marker',
  'placeholder',
  'selection',
  'spelling-error',
  'target-text',
]);
/** Pseudo-elements with an argument: ::part(ident), ::highlight(ident), ::slotted(selector). */
const FUNCTIONAL_PSEUDO_ELEMENTS = new Set(['part', 'highlight', 'slotted']);

const NTH = /^\s*(?:odd|even|[+-]?\d+|[+-]?\d*n(?:\s*[+-]\s*\d+|\s*-\d+|-\d+)?)\s*$/i;
const IDENT = /^-?(?:[_a-zA-Z\u00A0-\uFFFF]|\\.|-)(?:[\w\u00A0-\uFFFF-]|\\.)*$/s;

const isTraversal = (s: Selector) =>
  s.type === 'child' ||
  s.type === 'descendant' ||
  s.type === 'sibling' ||
  s.type === 'adjacent' ||
  s.type === 'parent' ||
  s.type === 'column-combinator';

function checkList(list: Selector[][], relative: boolean): boolean {
  return list.every((tokens) => checkCompound(tokens, relative));
}

function checkCompound(tokens: Selector[], relative: boolean): boolean {
  if (tokens.length === 0) return false;
  const first = tokens[0]!;
  const last = tokens[tokens.length - 1]!;
  if (isTraversal(last)) return false;
  if (isTraversal(first) && !relative) return false;
  let afterPseudoElement = false;
  for (const token of tokens) {
    if (afterPseudoElement && token.type !== 'pseudo') return false;
    switch (token.type) {
      case 'parent':
      case 'column-combinator':
        return false;
      case 'tag':
        if (/^\d/.test(token.name)) return false;
        if (token.namespace !== null && token.namespace !== '*' && token.namespace !== '') return false;
        break;
      case 'universal':
        if (token.namespace !== null && token.namespace !== '*' && token.namespace !== '') return false;
        break;
      case 'attribute':
        if (token.action === 'not') return false;
        if (token.namespace !== null && token.namespace !== '*' && token.namespace !== '') return false;
        if (/^\d/.test(token.name)) return false;
        break;
      case 'pseudo-element':
        if (FUNCTIONAL_PSEUDO_ELEMENTS.has(token.name)) {
          if (!token.data?.trim()) return false;
          if (token.name === 'slotted' && !isValidSelector(token.data)) return false;
          if (token.name !== 'slotted' && !IDENT.test(token.data.trim())) return false;
        } else if (token.data !== null) return false;
        else if (!PSEUDO_ELEMENTS.has(token.name) && !token.name.startsWith('-webkit-')) return false;
        afterPseudoElement = true;
        break;
      case 'pseudo': {
        const { name, data } = token;
        if (afterPseudoElement && !['hover', 'focus', 'active'].includes(name)) return false;
        if (data === null) {
          if (!PLAIN_PSEUDO_CLASSES.has(name)) return false;
        } else if (Array.isArray(data)) {
          if (!SELECTOR_PSEUDO_CLASSES.has(name)) return false;
          if (!FORGIVING.has(name) && !checkList(data, name === 'has')) return false;
        } else if (NTH_PSEUDO_CLASSES.has(name)) {
          const [formula = '', ...rest] = data.split(/\s+of\s+/i);
          if (!NTH.test(formula)) return false;
          if (rest.length && (!name.endsWith('child') || !isValidSelector(rest.join(' of ')))) return false;
        } else if (name === 'lang') {
          if (!data.split(',').every((part) => /^\s*(?:[\w*-]+|"[^"]*"|'[^']*')\s*$/.test(part))) return false;
        } else if (name === 'dir') {
          if (!/^\s*(?:ltr|rtl)\s*$/i.test(data)) return false;
        } else return false;
        break;
      }
    }
  }
  return true;
}

/**
 * The raw text's identifiers: a class or id cannot start with a digit (or '-' and a digit), and an unquoted
 * attribute value must be an identifier. Quoted strings and comments are skipped.
 */
function checkIdentifiers(selector: string): boolean {
  let i = 0;
  let bracket = false;
  while (i < selector.length) {
    const c = selector[i]!;
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = findQuoteEnd(selector, i);
      if (end < 0) return false;
      i = end + 1;
      continue;
    }
    if (c === '[') bracket = true;
    else if (c === ']') bracket = false;
    else if (!bracket && (c === '.' || c === '#')) {
      const rest = selector.slice(i + 1);
      if (/^-?\d/.test(rest) || /^-?(?:[^\w\u00A0-\uFFFF\\-]|$)/.test(rest)) return false;
    } else if (bracket && c === '=') {
      const value = /^\s*([^\s\]"']+)/.exec(selector.slice(i + 1));
      if (value && !IDENT.test(value[1]!.replace(/\s+[is]$/i, ''))) return false;
    }
    i++;
  }
  return true;
}

function findQuoteEnd(text: string, start: number) {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
    else if (text[i] === '\n') return -1;
  }
  return -1;
}

/** CSS closes a string, brackets and parentheses still open at the end of the text (CSS Syntax §5.4). */
function closeAtEnd(selector: string): string {
  const open: string[] = [];
  let quote = '';
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!;
    if (c === '\\') i++;
    else if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[') open.push(']');
    else if (c === '(') open.push(')');
    else if ((c === ']' || c === ')') && open[open.length - 1] === c) open.pop();
  }
  return selector + quote + open.reverse().join('');
}

/** True when `document.querySelector(selector)` would not throw a SyntaxError. */
export function isValidSelector(input: string): boolean {
  if (typeof input !== 'string' || input.trim() === '') return false;
  const selector = closeAtEnd(input);
  if (!checkIdentifiers(selector)) return false;
  let list: Selector[][];
  try {
    list = parse(selector);
  } catch {
    return false;
  }
  return list.length > 0 && checkList(list, false);
}
