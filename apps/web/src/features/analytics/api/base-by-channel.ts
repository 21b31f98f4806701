import type { BaseChannelRow } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/base/channel?start&end: persons reachable by each channel. */
export async function listBaseByChannel(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<BaseChannelRow[]> {
  const { data } = await getRanged<BaseChannelRow[]>(domainUuid, '/base/channel', range, undefined, signal);
  return Array.isArray(data) ? data : [];
}

export const baseByChannelQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'base-by-channel', params.range),
    queryFn: ({ signal }) => listBaseByChannel(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useBaseByChannel = (params: WidgetParams) => useQuery(baseByChannelQueryOptions(params));
