import type { ChannelItem } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const channelsQueryKey = (domainUuid: string) => ['channels', domainUuid] as const;

/** GET /domain/channels/:domain_uuid: the domain's channels, secrets replaced by SECRET_MASK. */
export async function listChannels(domainUuid: string): Promise<ChannelItem[]> {
  const { data } = await api.get<ChannelItem[]>(`/domain/channels/${encodeURIComponent(domainUuid)}`);
  return Array.isArray(data) ? data : [];
}

export const channelsQueryOptions = (domainUuid: string) =>
  queryOptions({
    queryKey: channelsQueryKey(domainUuid),
    queryFn: () => listChannels(domainUuid),
    enabled: Boolean(domainUuid),
  });

export const useChannels = (domainUuid: string) => useQuery(channelsQueryOptions(domainUuid));
