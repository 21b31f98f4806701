import type { DomainItem } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface UpdateDomainVariables {
  uuid: string;
  name: string;
  address: string;
  retention_months?: number;
}

/** Edit: PUT /domain/update/:uuid with `{ domain: { name, address } }` (READINGS A-15). */
export const updateDomain = ({ uuid, name, address, retention_months }: UpdateDomainVariables) =>
  api.put<DomainItem>(`/domain/update/${encodeURIComponent(uuid)}`, {
    domain: { name, address, ...(retention_months !== undefined ? { retention_months } : {}) },
  });

export function useUpdateDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['domains'] }),
  });
}
