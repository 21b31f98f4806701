import type { PersonLookup, PersonSummary } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { lookupQuery } from './person-lookup.ts';

export const personLookupKey = (domainUuid: string, lookup: PersonLookup | null) =>
  ['persons', 'lookup', domainUuid, lookup] as const;

/** GET /person/lookup/:domain?vid|email|phone: the persons it names, with counts. */
export async function lookupPersons(domainUuid: string, lookup: PersonLookup) {
  const { data } = await api.get<PersonSummary[]>(
    `/person/lookup/${encodeURIComponent(domainUuid)}?${lookupQuery(lookup)}`,
  );
  return Array.isArray(data) ? data : [];
}

export const lookupPersonsOptions = (domainUuid: string, lookup: PersonLookup | null) =>
  queryOptions({
    queryKey: personLookupKey(domainUuid, lookup),
    queryFn: () => lookupPersons(domainUuid, lookup!),
    enabled: Boolean(domainUuid && lookup),
    retry: false,
  });

export const useLookupPersons = (domainUuid: string, lookup: PersonLookup | null) =>
  useQuery(lookupPersonsOptions(domainUuid, lookup));
