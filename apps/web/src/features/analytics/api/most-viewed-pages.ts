import type { MostViewedRow } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

export const MOST_VIEWED_LIMIT = 10;

export interface MostViewedPages {
  rows: MostViewedRow[];
  /** The endpoint's own message ('Most viewed pages have been loaded.', spec doc 1 §7); the page shows it in pt-BR. */
  message: string;
}

/** GET /api/analytics/:domainUuid/pages/mostViewed?start&end&limit=10. */
export async function listMostViewedPages(
  { domainUuid, range }: WidgetParams,
  signal?: AbortSignal,
): Promise<MostViewedPages> {
  const answer = await getRanged<MostViewedRow[]>(
    domainUuid,
    '/pages/mostViewed',
    range,
    { limit: MOST_VIEWED_LIMIT },
    signal,
  );
  return { rows: Array.isArray(answer.data) ? answer.data : [], message: answer.message ?? '' };
}

export const mostViewedPagesQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'most-viewed-pages', params.range),
    queryFn: ({ signal }) => listMostViewedPages(params, signal),
    enabled: Boolean(params.domainUuid),
  });

export const useMostViewedPages = (params: WidgetParams) => useQuery(mostViewedPagesQueryOptions(params));
