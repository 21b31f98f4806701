import type { DomainItem } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const domainsQueryKey = (companyUuid: string) => ['domains', companyUuid] as const;

export async function listDomains(companyUuid: string): Promise<DomainItem[]> {
  const { data } = await api.get<DomainItem[]>(`/domain/list/${encodeURIComponent(companyUuid)}`);
  return Array.isArray(data) ? data : [];
}

export const domainsQueryOptions = (companyUuid: string) =>
  queryOptions({ queryKey: domainsQueryKey(companyUuid), queryFn: () => listDomains(companyUuid) });

export const useDomains = (companyUuid: string) => useQuery(domainsQueryOptions(companyUuid));
