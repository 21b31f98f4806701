import type { FilterMask } from '@impeto/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { readJson, writeJson } from '../../../lib/storage.ts';

export interface PersonFilter {
  key: string;
  name: string;
  mask: FilterMask;
}

/**
 * Session storage of the available person filters, de-duplicated by key (spec doc 1 §3): one list per domain, as
 * `{ [domain_uuid]: [{ key, name, mask }] }`. The spec names no key; this follows the app's `impeto.` prefix.
 */
export const FILTERS_STORAGE_KEY = 'impeto.filters';

const dedupe = (filters: PersonFilter[]) => [...new Map(filters.map((f) => [f.key, f])).values()];

export const storedPersonFilters = (domainUuid: string): PersonFilter[] | undefined =>
  readJson<Record<string, PersonFilter[]>>('session', FILTERS_STORAGE_KEY)?.[domainUuid] ?? undefined;

function storePersonFilters(domainUuid: string, filters: PersonFilter[]) {
  const all = readJson<Record<string, PersonFilter[]>>('session', FILTERS_STORAGE_KEY) ?? {};
  writeJson('session', FILTERS_STORAGE_KEY, { ...all, [domainUuid]: filters });
}

/** GET /person/filter/:domain: the filter keys the domain offers, kept in session storage. */
export async function listPersonFilters(domainUuid: string): Promise<PersonFilter[]> {
  const { data } = await api.get<PersonFilter[]>(`/person/filter/${encodeURIComponent(domainUuid)}`);
  const filters = dedupe(Array.isArray(data) ? data.filter((f) => f && typeof f.key === 'string') : []);
  if (filters.length) storePersonFilters(domainUuid, filters);
  return filters;
}

export const usePersonFilters = (domainUuid: string) =>
  useQuery({
    queryKey: ['person-filters', domainUuid],
    queryFn: () => listPersonFilters(domainUuid),
    enabled: Boolean(domainUuid),
    initialData: () => storedPersonFilters(domainUuid),
    staleTime: 5 * 60_000,
  });
