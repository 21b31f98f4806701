import type { CategoryRow } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/visitors/category?start&end: distinct visitors per event category. */
export async function listVisitorsByCategory(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<CategoryRow[]> {
  const { data } = await getRanged<CategoryRow[]>(domainUuid, '/visitors/category', range, undefined, signal);
  return Array.isArray(data) ? data : [];
}

export const visitorsByCategoryQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'visitors-by-category', params.range),
    queryFn: ({ signal }) => listVisitorsByCategory(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useVisitorsByCategory = (params: WidgetParams) => useQuery(visitorsByCategoryQueryOptions(params));
