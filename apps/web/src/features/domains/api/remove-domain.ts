import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** Remove: DELETE /domain/remove/:uuid, a soft delete; the row leaves the list (READINGS A-15). */
export const removeDomain = (uuid: string) => api.delete<null>(`/domain/remove/${encodeURIComponent(uuid)}`);

export function useRemoveDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['domains'] }),
  });
}
