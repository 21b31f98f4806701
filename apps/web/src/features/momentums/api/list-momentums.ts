import type { MomentumItem, MomentumType } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const momentumsQueryKey = (domainUuid: string, type: MomentumType) => ['momentums', domainUuid, type] as const;

/** GET /momentum/list/:domain?type=: every item of the type, Deleted included (tabs filter client-side). */
export async function listMomentums(domainUuid: string, type: MomentumType): Promise<MomentumItem[]> {
  const { data } = await api.get<MomentumItem[]>(`/momentum/list/${encodeURIComponent(domainUuid)}?type=${type}`, {
    service: 'momentum',
  });
  return Array.isArray(data) ? data : [];
}

export const momentumsQueryOptions = (domainUuid: string, type: MomentumType) =>
  queryOptions({
    queryKey: momentumsQueryKey(domainUuid, type),
    queryFn: () => listMomentums(domainUuid, type),
    enabled: Boolean(domainUuid),
  });

export const useMomentums = (domainUuid: string, type: MomentumType) =>
  useQuery(momentumsQueryOptions(domainUuid, type));
