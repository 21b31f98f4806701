import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** DELETE /momentum/remove/:id (soft delete: the item moves to Removidos). */
export const removeMomentum = (uuid: string) =>
  api.delete<null>(`/momentum/remove/${encodeURIComponent(uuid)}`, undefined, { service: 'momentum' });

export function useRemoveMomentum() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMomentum,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['momentums'] }),
  });
}
