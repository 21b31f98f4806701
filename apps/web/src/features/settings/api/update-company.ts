import type { CompanyData, CompanyFormBody } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { companyQueryKey } from './get-company.ts';

/** Edit mode: PUT /company/update/:id replaces the registration (READINGS A-13). */
export const updateCompany = ({ companyUuid, body }: { companyUuid: string; body: CompanyFormBody }) =>
  api.put<CompanyData>(`/company/update/${encodeURIComponent(companyUuid)}`, body);

export function useUpdateCompany(companyUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyFormBody) => updateCompany({ companyUuid, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyQueryKey(companyUuid) }),
  });
}
