import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface EventCategory {
  uuid: string;
  parent_category: string;
}

/** GET /person/event/:domain: the event categories the domain's visitors produced. */
export async function listEventCategories(domainUuid: string): Promise<EventCategory[]> {
  const { data } = await api.get<EventCategory[]>(`/person/event/${encodeURIComponent(domainUuid)}`);
  return Array.isArray(data) ? data : [];
}

export const useEventCategories = (domainUuid: string, enabled = true) =>
  useQuery({
    queryKey: ['event-categories', domainUuid],
    queryFn: () => listEventCategories(domainUuid),
    enabled: enabled && Boolean(domainUuid),
  });
