import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface EventValue {
  value: string;
  name: string;
}

/** GET /person/event/filters/:category/key/:key: the values seen for one event key. */
export async function listEventValues(categoryUuid: string, key: string): Promise<EventValue[]> {
  const { data } = await api.get<EventValue[]>(
    `/person/event/filters/${encodeURIComponent(categoryUuid)}/key/${encodeURIComponent(key)}`,
  );
  return Array.isArray(data) ? data : [];
}

export const useEventValues = (categoryUuid: string | undefined, key: string | undefined) =>
  useQuery({
    queryKey: ['event-values', categoryUuid, key],
    queryFn: () => listEventValues(categoryUuid ?? '', key ?? ''),
    enabled: Boolean(categoryUuid && key),
  });
