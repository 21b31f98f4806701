import type { CompanyData, CompanyFormBody } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { companyQueryKey } from './get-company.ts';

/** Add mode: POST /company/:id/step2 saves the registration the first time (READINGS A-13). */
export const registerCompany = ({ companyUuid, body }: { companyUuid: string; body: CompanyFormBody }) =>
  api.post<CompanyData>(`/company/${encodeURIComponent(companyUuid)}/step2`, body);

export function useRegisterCompany(companyUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyFormBody) => registerCompany({ companyUuid, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: companyQueryKey(companyUuid) }),
  });
}
