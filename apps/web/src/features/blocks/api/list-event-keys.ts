import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface EventKey {
  key: string;
  name: string;
}

/** GET /person/event/filters/:category: the keys seen in one event category. */
export async function listEventKeys(categoryUuid: string): Promise<EventKey[]> {
  const { data } = await api.get<EventKey[]>(`/person/event/filters/${encodeURIComponent(categoryUuid)}`);
  return Array.isArray(data) ? data : [];
}

export const useEventKeys = (categoryUuid: string | undefined) =>
  useQuery({
    queryKey: ['event-keys', categoryUuid],
    queryFn: () => listEventKeys(categoryUuid ?? ''),
    enabled: Boolean(categoryUuid),
  });
