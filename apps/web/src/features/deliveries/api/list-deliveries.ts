import type { DeliveryLogPage, DeliveryLogStatus } from '@impeto/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const deliveriesQueryKey = (uuid: string, page: number, status: DeliveryLogStatus | null) =>
  ['deliveries', uuid, page, status ?? 'all'] as const;

/** GET /momentum/deliveries/:uuid?page=&status=: one page of the item's delivery log, newest first. */
export async function listDeliveries(uuid: string, page: number, status: DeliveryLogStatus | null) {
  const query = new URLSearchParams({ page: String(page), ...(status ? { status } : {}) });
  const { data } = await api.get<DeliveryLogPage>(`/momentum/deliveries/${encodeURIComponent(uuid)}?${query}`, {
    service: 'momentum',
  });
  return data;
}

export const deliveriesQueryOptions = (uuid: string, page: number, status: DeliveryLogStatus | null) =>
  queryOptions({
    queryKey: deliveriesQueryKey(uuid, page, status),
    queryFn: () => listDeliveries(uuid, page, status),
    enabled: Boolean(uuid),
    placeholderData: keepPreviousData,
    refetchInterval: 15_000,
  });

export const useDeliveries = (uuid: string, page: number, status: DeliveryLogStatus | null) =>
  useQuery(deliveriesQueryOptions(uuid, page, status));
