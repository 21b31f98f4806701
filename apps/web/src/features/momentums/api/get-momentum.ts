import type { MomentumItem } from '@impeto/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const momentumQueryKey = (uuid: string) => ['momentum', uuid] as const;

/** GET /momentum/list?id=: one item. */
export async function getMomentum(uuid: string): Promise<MomentumItem> {
  const { data } = await api.get<MomentumItem>(`/momentum/list?id=${encodeURIComponent(uuid)}`, {
    service: 'momentum',
  });
  return data;
}

export const useMomentum = (uuid: string | null) =>
  useQuery({
    queryKey: momentumQueryKey(uuid ?? ''),
    queryFn: () => getMomentum(uuid ?? ''),
    enabled: Boolean(uuid),
    staleTime: 0,
  });
