import { msg } from '@impeto/shared';
import { AppError } from './errors.ts';

/**
 * Arrays and objects a JSON body may nest. The deepest legitimate payloads (momentum blocks, filters, channel
 * properties, the collector's batches) nest under 10; every walk of a parsed body (text guard, zod, redaction,
 * JSON.stringify) recurses, and a body 10,000 deep (20 KB) overflows the stack.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether a JSON text nests arrays and objects deeper than `max`: one pass over the text, before it is parsed. */
export function isJsonTooDeep(text: string, max = MAX_JSON_DEPTH) {
  // Fewer brackets than the limit cannot exceed it: most bodies are decided without the character walk.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}

export const jsonTooDeep = () => new AppError('JSON_TOO_DEEP', 400, msg.input.jsonTooDeep);
