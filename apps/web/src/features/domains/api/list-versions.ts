import type { VersionItem } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** `gero` is the tracking script, `cnsw` the service worker; both lists have the same shape. */
export type VersionKind = 'gero' | 'cnsw';

export const versionsQueryKey = (kind: VersionKind) => ['versions', kind] as const;

export async function listVersions(kind: VersionKind): Promise<string[]> {
  const { data } = await api.get<VersionItem[]>(`/${kind}/version/list`);
  return Array.isArray(data) ? data.map((item) => item.version).filter(Boolean) : [];
}

export const versionsQueryOptions = (kind: VersionKind) =>
  queryOptions({ queryKey: versionsQueryKey(kind), queryFn: () => listVersions(kind), staleTime: 5 * 60_000 });

export const useVersions = (kind: VersionKind) => useQuery(versionsQueryOptions(kind));
