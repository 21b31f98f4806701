import type { UploadedMedia } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { mediaQueryKey } from './list-media.ts';

/** One image as sent: its original name and its content as a data URL (DESIGN.md §11). */
export interface UploadImage {
  name: string;
  data: string;
}

/** POST /gallery/upload/:domain_uuid/domain `{ images }`; a 422 names each refused image in `fields['images.N']`. */
export const uploadMedia = (domainUuid: string, images: UploadImage[]) =>
  api.post<UploadedMedia[]>(
    `/gallery/upload/${encodeURIComponent(domainUuid)}/domain`,
    { images },
    { service: 'momentum' },
  );

export function useUploadMedia(domainUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (images: UploadImage[]) => uploadMedia(domainUuid, images),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: mediaQueryKey(domainUuid) }),
  });
}
