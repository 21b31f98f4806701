import type { CollectEvent } from '@impeto/shared';

/*
 * PostgreSQL stores neither NUL (text: 22021; jsonb: 22P05) nor an unpaired UTF-16 surrogate (jsonb: 22P02), and
 * the ingestor writes everything through jsonb parameters: one such string would make the database refuse a whole
 * batch of other requests. JSON can only carry them as the escapes `\u0000` and `\uD800`–`\uDFFF` (a raw NUL is
 * invalid JSON; invalid UTF-8 bytes decode to U+FFFD), so the collector looks at the raw body once and walks the
 * parsed events only when one of those escapes is there. Identifiers are refused, free text is cleaned
 * (packages/tracker/README.md, "The collector's wire", says which field is which).
 */

const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;
/** True when a body's JSON text may hold a string PostgreSQL cannot store (false positives only cost a walk). */
export const mayHoldUnstorable = (json: string) => json.includes('\\u') && SUSPECT_ESCAPE.test(json);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
const NUL = String.fromCharCode(0);

/** True when PostgreSQL can store the string as text and inside jsonb. */
export const isStorable = (s: string) => !s.includes(NUL) && !LONE_SURROGATE.test(s);

/** Free text made storable: NUL removed, an unpaired surrogate replaced by U+FFFD (what a UTF-8 encoder writes). */
export const storableText = (s: string) =>
  isStorable(s) ? s : s.replaceAll(NUL, '').replace(LONE_SURROGATES, '\uFFFD');

const storableProps = (props: Record<string, string | number | boolean>) => {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(props)) {
    const k = storableText(key);
    if (k) out[k] = typeof value === 'string' ? storableText(value) : value;
  }
  return out;
};

/**
 * An accepted event made storable: free text cleaned (page URL, referrer, title, property keys and values), or the
 * reason it is refused when an identifier cannot be stored as sent (category, delivery id, push subscription).
 */
export function storableEvent(e: CollectEvent): { event: CollectEvent } | { refused: 'category' | 'identifier' } {
  switch (e.t) {
    case 'pv':
      return {
        event: {
          ...e,
          u: storableText(e.u),
          ...(e.r !== undefined ? { r: storableText(e.r) } : {}),
          ...(e.ti !== undefined ? { ti: storableText(e.ti) } : {}),
        },
      };
    case 'ev':
      if (!isStorable(e.c)) return { refused: 'category' };
      return { event: e.p ? { ...e, p: storableProps(e.p) } : e };
    case 'id':
      return { event: { ...e, p: storableProps(e.p) } };
    case 'optin': {
      const texts = [e.s.endpoint, e.s.keys.p256dh, e.s.keys.auth, ...(e.o !== undefined ? [e.o] : [])];
      return texts.every(isStorable) ? { event: e } : { refused: 'identifier' };
    }
    case 'viewed':
    case 'clicked':
      return isStorable(e.d) ? { event: e } : { refused: 'identifier' };
    case 'cv':
      // The order id is the key that counts a sale once: refused, never changed.
      return e.o === undefined || isStorable(e.o) ? { event: e } : { refused: 'identifier' };
    case 'dcm':
      return { event: e.u !== undefined ? { ...e, u: storableText(e.u) } : e };
    default:
      return { event: e };
  }
}
