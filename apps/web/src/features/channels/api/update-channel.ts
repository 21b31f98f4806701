import type { ChannelItem, ChannelType, UpdateChannelInput } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { channelsQueryKey } from './list-channels.ts';

export interface UpdateChannelVariables {
  uuid: string;
  channel_type: ChannelType;
  properties: Record<string, string>;
}

/** PUT /channel/update `{ channel: { uuid, domain_uuid, channel_type, properties } }`; an empty secret keeps the stored one. */
export const updateChannel = (domainUuid: string, { uuid, channel_type, properties }: UpdateChannelVariables) =>
  api.put<ChannelItem>('/channel/update', {
    channel: { uuid, domain_uuid: domainUuid, channel_type, properties },
  } as UpdateChannelInput);

export function useUpdateChannel(domainUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: UpdateChannelVariables) => updateChannel(domainUuid, variables),
    onSuccess: ({ data }) => {
      if (data?.uuid) {
        queryClient.setQueryData<ChannelItem[]>(channelsQueryKey(domainUuid), (old = []) =>
          old.map((c) => (c.uuid === data.uuid ? data : c)),
        );
      }
      return queryClient.invalidateQueries({ queryKey: channelsQueryKey(domainUuid) });
    },
  });
}
