import type { DomainItem } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Disable: DELETE /domain/remove with `{ domain: { uuid } }`; the row stays, Inactive (READINGS A-15). */
export const disableDomain = (uuid: string) => api.delete<DomainItem>('/domain/remove', { domain: { uuid } });

export function useDisableDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disableDomain,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['domains'] }),
  });
}
