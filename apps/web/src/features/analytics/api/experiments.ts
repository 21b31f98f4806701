import type { AnalyticsRange, ExperimentReport } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey, type WidgetParams } from './analytics-query.ts';

/** GET /api/analytics/:domainUuid/momentum/:momentumUuid/experiment?start&end: one momentum's A/B test and control. */
export async function getMomentumExperiment(
  domainUuid: string,
  momentumUuid: string,
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<ExperimentReport> {
  const { data } = await getRanged<ExperimentReport>(
    domainUuid,
    `/momentum/${encodeURIComponent(momentumUuid)}/experiment`,
    range,
    undefined,
    signal,
  );
  return data;
}

export const momentumExperimentQueryOptions = (domainUuid: string, momentumUuid: string, range: AnalyticsRange) =>
  queryOptions({
    queryKey: rangedKey(domainUuid, `experiment-${momentumUuid}`, range),
    queryFn: ({ signal }) => getMomentumExperiment(domainUuid, momentumUuid, range, signal),
    enabled: Boolean(domainUuid && momentumUuid),
    retry: false,
  });

export const useMomentumExperiment = (domainUuid: string, momentumUuid: string, range: AnalyticsRange) =>
  useQuery(momentumExperimentQueryOptions(domainUuid, momentumUuid, range));

/** GET /api/analytics/:domainUuid/experiments?start&end: every experiment of the domain (the CSV export). */
export async function listDomainExperiments({ domainUuid, range }: WidgetParams, signal?: AbortSignal) {
  const { data } = await getRanged<ExperimentReport[]>(domainUuid, '/experiments', range, undefined, signal);
  return Array.isArray(data) ? data : [];
}

export const domainExperimentsQueryOptions = (params: WidgetParams) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'experiments', params.range),
    queryFn: ({ signal }) => listDomainExperiments(params, signal),
    enabled: Boolean(params.domainUuid),
  });
