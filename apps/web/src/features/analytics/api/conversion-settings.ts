import type { ConversionSettings } from '@impeto/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { analyticsKey } from './analytics-query.ts';

const settingsPath = (domainUuid: string) => `/analytics/${encodeURIComponent(domainUuid)}/settings`;
export const conversionSettingsQueryKey = (domainUuid: string) => analyticsKey(domainUuid, 'settings');

/** GET /api/analytics/:domainUuid/settings: what counts as a cart access. */
export async function getConversionSettings(domainUuid: string): Promise<ConversionSettings> {
  const { data } = await api.get<ConversionSettings>(settingsPath(domainUuid), { service: 'analytics' });
  return { cart_url: data?.cart_url ?? '' };
}

export const conversionSettingsQueryOptions = (domainUuid: string) =>
  queryOptions({
    queryKey: conversionSettingsQueryKey(domainUuid),
    queryFn: () => getConversionSettings(domainUuid),
    enabled: Boolean(domainUuid),
  });

export const useConversionSettings = (domainUuid: string, enabled = true) =>
  useQuery({ ...conversionSettingsQueryOptions(domainUuid), enabled: Boolean(domainUuid) && enabled });

/** PUT /api/analytics/:domainUuid/settings `{ settings: { cart_url } }`. */
export const saveConversionSettings = (domainUuid: string, settings: ConversionSettings) =>
  api.put<ConversionSettings>(settingsPath(domainUuid), { settings }, { service: 'analytics' });

export function useSaveConversionSettings(domainUuid: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ConversionSettings) => saveConversionSettings(domainUuid, settings),
    onSuccess: (answer) =>
      queryClient.setQueryData(conversionSettingsQueryKey(domainUuid), { cart_url: answer.data?.cart_url ?? '' }),
  });
}
