import type { MomentumItem } from '@impeto/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /momentum/list?id=: the item the diagram edits or shows. Same key as the v2 form's. */
export async function getMomentum(uuid: string): Promise<MomentumItem> {
  const { data } = await api.get<MomentumItem>(`/momentum/list?id=${encodeURIComponent(uuid)}`, {
    service: 'momentum',
  });
  return data;
}

export const useDiagramMomentum = (uuid: string | null) =>
  useQuery({
    queryKey: ['momentum', uuid ?? ''],
    queryFn: () => getMomentum(uuid ?? ''),
    enabled: Boolean(uuid),
    staleTime: 0,
  });
