import type { DeviceRow } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/visitors/device?start&end: distinct visitors per device type. */
export async function listVisitorsByDevice(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<DeviceRow[]> {
  const { data } = await getRanged<DeviceRow[]>(domainUuid, '/visitors/device', range, undefined, signal);
  return Array.isArray(data) ? data : [];
}

export const visitorsByDeviceQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'visitors-by-device', params.range),
    queryFn: ({ signal }) => listVisitorsByDevice(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useVisitorsByDevice = (params: WidgetParams) => useQuery(visitorsByDeviceQueryOptions(params));
