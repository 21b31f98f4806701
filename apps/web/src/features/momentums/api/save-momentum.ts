import type { CreateMomentumInput, MomentumItem } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** The flat body of create and update (spec doc 2 §7); update adds uuid. */
export type MomentumBody = Omit<CreateMomentumInput, 'momentums' | 'momentum_title'> & {
  momentum_title: string;
  momentums: unknown[];
  uuid?: string;
};

/** POST /momentum/create, or PUT /momentum/update when the body carries uuid. */
export const saveMomentum = (body: MomentumBody) =>
  body.uuid
    ? api.put<MomentumItem>('/momentum/update', body, { service: 'momentum' })
    : api.post<MomentumItem>('/momentum/create', body, { service: 'momentum' });

export function useSaveMomentum() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveMomentum,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['momentums'] }),
        // The open form's own item is not refetched under it: a draft saved as Imediato is Active now, and the
        // form page would take that for opening a running item. Its next visit loads it fresh.
        queryClient.invalidateQueries({ queryKey: ['momentum'], refetchType: 'none' }),
      ]),
  });
}
