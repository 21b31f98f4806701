import type { AnalyticsRange, DomainJourneyReport, JourneyStepResult } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRanged, rangedKey } from './analytics-query.ts';

/**
 * GET /api/analytics/:domainUuid/momentum/:momentumUuid/journey?start&end (issue #26): one row per step and branch,
 * step 0 (the first message) first.
 */
export async function getMomentumJourney(
  domainUuid: string,
  momentumUuid: string,
  range: AnalyticsRange,
  signal?: AbortSignal,
): Promise<JourneyStepResult[]> {
  const { data } = await getRanged<{ steps: JourneyStepResult[] }>(
    domainUuid,
    `/momentum/${encodeURIComponent(momentumUuid)}/journey`,
    range,
    undefined,
    signal,
  );
  return Array.isArray(data?.steps) ? data.steps : [];
}

export const momentumJourneyQueryOptions = (domainUuid: string, momentumUuid: string, range: AnalyticsRange) =>
  queryOptions({
    queryKey: rangedKey(domainUuid, `journey-${momentumUuid}`, range),
    queryFn: ({ signal }) => getMomentumJourney(domainUuid, momentumUuid, range, signal),
    enabled: Boolean(domainUuid && momentumUuid),
    retry: false,
  });

export const useMomentumJourney = (domainUuid: string, momentumUuid: string, range: AnalyticsRange, enabled = true) =>
  useQuery({
    ...momentumJourneyQueryOptions(domainUuid, momentumUuid, range),
    enabled: enabled && Boolean(domainUuid && momentumUuid),
  });

/** GET /api/analytics/:domainUuid/journeys?start&end: the step rows of every journey of the domain (the CSV export). */
export async function listDomainJourneys(
  { domainUuid, range }: { domainUuid: string; range: AnalyticsRange },
  signal?: AbortSignal,
) {
  const { data } = await getRanged<DomainJourneyReport[]>(domainUuid, '/journeys', range, undefined, signal);
  return Array.isArray(data) ? data : [];
}

export const domainJourneysQueryOptions = (params: { domainUuid: string; range: AnalyticsRange }) =>
  queryOptions({
    queryKey: rangedKey(params.domainUuid, 'journeys', params.range),
    queryFn: ({ signal }) => listDomainJourneys(params, signal),
    enabled: Boolean(params.domainUuid),
  });
