import type { DomainItem } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Enable: PUT /domain/update/:uuid with `{ domain: { status: 'Active' } }` (READINGS A-15). */
export const enableDomain = (uuid: string) =>
  api.put<DomainItem>(`/domain/update/${encodeURIComponent(uuid)}`, { domain: { status: 'Active' } });

export function useEnableDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enableDomain,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['domains'] }),
  });
}
