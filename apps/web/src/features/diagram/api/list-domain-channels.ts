import type { ChannelItem } from '@impeto/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /domain/channels/:domain, the diagram's one channel list (READINGS A-42). */
export async function listDomainChannels(domainUuid: string): Promise<ChannelItem[]> {
  const { data } = await api.get<ChannelItem[]>(`/domain/channels/${encodeURIComponent(domainUuid)}`);
  return Array.isArray(data) ? data : [];
}

/** Same key as the channels page, so integrating a channel there refreshes this list. */
export const useDomainChannels = (domainUuid: string) =>
  useQuery({
    queryKey: ['channels', domainUuid],
    queryFn: () => listDomainChannels(domainUuid),
    enabled: Boolean(domainUuid),
  });
