import type { MomentumItem } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** PUT /momentum/status/:uuid { status } (READINGS A-31). */
export const changeMomentumStatus = (uuid: string, status: 'Active' | 'Paused') =>
  api.put<MomentumItem>(`/momentum/status/${encodeURIComponent(uuid)}`, { status }, { service: 'momentum' });

export function useChangeMomentumStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ uuid, status }: { uuid: string; status: 'Active' | 'Paused' }) => changeMomentumStatus(uuid, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['momentums'] }),
  });
}
