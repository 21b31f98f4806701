import type { FrequencyCap, FrequencyCapInput } from '@impeto/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const frequencyCapQueryKey = (domainUuid: string) => ['frequency-cap', domainUuid] as const;

/** GET /domain/frequency/:uuid: the domain's cap per person across channels (null = no cap). */
export const frequencyCapQueryOptions = (domainUuid: string) =>
  queryOptions({
    queryKey: frequencyCapQueryKey(domainUuid),
    queryFn: async () => (await api.get<FrequencyCap>(`/domain/frequency/${encodeURIComponent(domainUuid)}`)).data,
    enabled: Boolean(domainUuid),
  });

export const useFrequencyCap = (domainUuid: string) => useQuery(frequencyCapQueryOptions(domainUuid));

/** PUT /domain/frequency/:uuid `{ domain: { frequency_cap_day, frequency_cap_week } }`. */
export function useUpdateFrequencyCap(domainUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cap: FrequencyCap) =>
      api.put<FrequencyCap>(`/domain/frequency/${encodeURIComponent(domainUuid)}`, {
        domain: cap,
      } satisfies FrequencyCapInput),
    onSuccess: ({ data }) => queryClient.setQueryData(frequencyCapQueryKey(domainUuid), data),
  });
}
