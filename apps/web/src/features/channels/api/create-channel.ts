import type { ChannelItem, ChannelType, CreateChannelInput } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { channelsQueryKey } from './list-channels.ts';

export interface CreateChannelVariables {
  channel_type: ChannelType;
  properties: Record<string, string>;
}

/** POST /channel/create `{ channel: { domain_uuid, channel_type, properties } }`. */
export const createChannel = (domainUuid: string, { channel_type, properties }: CreateChannelVariables) =>
  api.post<ChannelItem>('/channel/create', {
    channel: { domain_uuid: domainUuid, channel_type, properties },
  } as CreateChannelInput);

export function useCreateChannel(domainUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: CreateChannelVariables) => createChannel(domainUuid, variables),
    onSuccess: ({ data }) => {
      // The modal switches to view mode at once; the refetch below confirms it.
      if (data?.channel_type) {
        queryClient.setQueryData<ChannelItem[]>(channelsQueryKey(domainUuid), (old = []) => [
          ...old.filter((c) => c.channel_type !== data.channel_type),
          data,
        ]);
      }
      return queryClient.invalidateQueries({ queryKey: channelsQueryKey(domainUuid) });
    },
  });
}
