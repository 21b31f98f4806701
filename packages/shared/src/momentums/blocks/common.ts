import { z } from '../../zod.ts';
import { filterMessages } from './messages.ts';

// Pieces the block schemas share; not part of the package's API (blocks.schema.ts does not re-export them).

export const m = filterMessages;

export const MAX_VALUES = 100;
export const MAX_VALUE_LENGTH = 500;
export const toList = (v: unknown) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
export const regexFlag = z
  .preprocess((v) => (v === 'on' ? true : v === 'off' || v === '' || v === null ? false : v), z.boolean())
  .optional();
export const pad = (n: number) => String(n).padStart(2, '0');

export const seconds = (message: string, min: number) =>
  z.number({ error: message }).int(message).min(min, message).max(Number.MAX_SAFE_INTEGER, message);

/** Blocks hold a one-element values list; when more arrive, the first item is used (spec doc 2 §3.1). */
export const firstItem = (v: unknown) => (Array.isArray(v) && v.length > 1 ? v.slice(0, 1) : v);
