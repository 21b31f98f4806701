import type { DomainOnboarding } from '@impeto/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const domainOnboardingQueryKey = (domainUuid: string) => ['domain-onboarding', domainUuid] as const;

/** GET /domain/onboarding/:uuid: the domain's first steps, each read from real data on the server. */
export async function getDomainOnboarding(domainUuid: string, signal?: AbortSignal): Promise<DomainOnboarding> {
  const { data } = await api.get<DomainOnboarding>(`/domain/onboarding/${encodeURIComponent(domainUuid)}`, {
    signal,
  });
  return data;
}

/** Polled while a step is open: the first visit and the first opt-in happen on the site, not in the dashboard. */
const OPEN_STEP_POLL_MS = 10_000;

export const domainOnboardingQueryOptions = (domainUuid: string) =>
  queryOptions({
    queryKey: domainOnboardingQueryKey(domainUuid),
    queryFn: ({ signal }) => getDomainOnboarding(domainUuid, signal),
    enabled: Boolean(domainUuid),
    staleTime: 0,
    refetchOnWindowFocus: true,
    refetchInterval: (query) => (query.state.data?.complete ? false : OPEN_STEP_POLL_MS),
  });

export const useDomainOnboarding = (domainUuid: string, enabled = true) =>
  useQuery({ ...domainOnboardingQueryOptions(domainUuid), enabled: enabled && Boolean(domainUuid) });
