import type { CompanyData } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const companyQueryKey = (companyUuid: string) => ['company', companyUuid] as const;

/** GET /company/list/:id: the company and its registration (fields null until first saved). */
export async function getCompany(companyUuid: string): Promise<CompanyData> {
  const { data } = await api.get<CompanyData>(`/company/list/${encodeURIComponent(companyUuid)}`);
  return data;
}

export const companyQueryOptions = (companyUuid: string) =>
  queryOptions({ queryKey: companyQueryKey(companyUuid), queryFn: () => getCompany(companyUuid) });

export const useCompany = (companyUuid: string) => useQuery(companyQueryOptions(companyUuid));
