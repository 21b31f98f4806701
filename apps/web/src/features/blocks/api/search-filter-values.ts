import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface FilterOption {
  name: string;
  value: string;
  emoji?: string;
}

/** GET /person/search/:domain/filter/:key?search=: the values visitors have for one filter key. */
export async function searchFilterValues(domainUuid: string, key: string, search: string): Promise<FilterOption[]> {
  const query = search.trim() ? `?search=${encodeURIComponent(search.trim())}` : '';
  const { data } = await api.get<FilterOption[]>(
    `/person/search/${encodeURIComponent(domainUuid)}/filter/${encodeURIComponent(key)}${query}`,
  );
  return Array.isArray(data) ? data : [];
}

export const useFilterValues = (domainUuid: string, key: string, search: string, enabled = true) =>
  useQuery({
    queryKey: ['person-filter-values', domainUuid, key, search.trim()],
    queryFn: () => searchFilterValues(domainUuid, key, search),
    enabled: enabled && Boolean(domainUuid && key),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
