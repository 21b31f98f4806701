import type { MediaItem } from '@impeto/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /gallery/list/:domain/domain: the domain's images, offered by the image picker. */
export async function listGallery(domainUuid: string): Promise<MediaItem[]> {
  const { data } = await api.get<MediaItem[]>(`/gallery/list/${encodeURIComponent(domainUuid)}/domain`, {
    service: 'momentum',
  });
  return Array.isArray(data) ? data : [];
}

/** Same key as the media page, so an upload there refreshes the picker. */
export const useGallery = (domainUuid: string, enabled = true) =>
  useQuery({
    queryKey: ['media', domainUuid],
    queryFn: () => listGallery(domainUuid),
    enabled: enabled && Boolean(domainUuid),
  });
