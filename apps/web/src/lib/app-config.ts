import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

/** GET /api/config: the server's public settings (DESIGN.md §11). */
export interface AppConfig {
  allowPrivate: boolean;
  envelope: { _pid: string; _edv: number };
  captcha: string;
  publicUrl: string;
}

export const appConfigQueryOptions = queryOptions({
  queryKey: ['config'],
  queryFn: async () => (await api.get<AppConfig>('/config', { auth: false })).data,
  staleTime: Number.POSITIVE_INFINITY,
});

export const useAppConfig = () => useQuery(appConfigQueryOptions);
