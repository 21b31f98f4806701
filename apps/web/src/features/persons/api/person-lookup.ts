import type { PersonLookup } from '@impeto/shared';

export type LookupKind = 'vid' | 'email' | 'phone';
export const LOOKUP_KINDS: LookupKind[] = ['vid', 'email', 'phone'];

/** The query string of the lookup, export and the erase body's `person`: exactly one key. */
export const lookupOf = (kind: LookupKind, value: string): PersonLookup => ({ [kind]: value });
export const lookupQuery = (lookup: PersonLookup) => new URLSearchParams(lookup as Record<string, string>).toString();
