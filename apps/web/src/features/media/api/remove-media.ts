import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { mediaQueryKey } from './list-media.ts';

/** DELETE /gallery/remove/:id/filename; `filename` is a literal segment (READINGS A-22). */
export const removeMedia = (id: string) =>
  api.delete<unknown>(`/gallery/remove/${encodeURIComponent(id)}/filename`, undefined, { service: 'momentum' });

export function useRemoveMedia(domainUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMedia,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaQueryKey(domainUuid) }),
  });
}
