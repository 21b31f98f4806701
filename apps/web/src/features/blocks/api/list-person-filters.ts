import type { FilterMask } from '@impeto/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface PersonFilter {
  key: string;
  name: string;
  mask: FilterMask;
}

/** GET /person/filter/:domain: the filter keys the domain offers. */
export async function listPersonFilters(domainUuid: string): Promise<PersonFilter[]> {
  const { data } = await api.get<PersonFilter[]>(`/person/filter/${encodeURIComponent(domainUuid)}`);
  return Array.isArray(data) ? data : [];
}

export const usePersonFilters = (domainUuid: string) =>
  useQuery({
    queryKey: ['person-filters', domainUuid],
    queryFn: () => listPersonFilters(domainUuid),
    enabled: Boolean(domainUuid),
    staleTime: 5 * 60_000,
  });
