import type { ChannelItem } from '@impeto/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /domain/channels/:domain; the v2 form offers only the push channel (spec doc 2 §2.3). */
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

export const pushChannelsOf = (channels: ChannelItem[] | undefined) =>
  (channels ?? []).filter((c) => c.channel_type === 'CELL_NOTIFICATION' && c.active !== false);
