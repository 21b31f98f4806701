import type { MediaItem } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const mediaQueryKey = (domainUuid: string) => ['media', domainUuid] as const;

/** GET /gallery/list/:domain_uuid/domain: the domain's gallery. */
export async function listMedia(domainUuid: string): Promise<MediaItem[]> {
  const { data } = await api.get<MediaItem[]>(`/gallery/list/${encodeURIComponent(domainUuid)}/domain`, {
    service: 'momentum',
  });
  return Array.isArray(data) ? data : [];
}

export const mediaQueryOptions = (domainUuid: string) =>
  queryOptions({
    queryKey: mediaQueryKey(domainUuid),
    queryFn: () => listMedia(domainUuid),
    enabled: Boolean(domainUuid),
  });

export const useMedia = (domainUuid: string) => useQuery(mediaQueryOptions(domainUuid));
