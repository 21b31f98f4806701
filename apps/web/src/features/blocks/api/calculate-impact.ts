import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface Impact {
  percentualAtingido: number;
  total: number;
  impacted: number;
  /** Above 60,000 persons the server counts a uniform sample and scales it. */
  estimated?: boolean;
}

/** POST /person/search/peopleImpacted/:domain { momentums }: the share of the base a filter reaches. */
export const calculateImpact = (domainUuid: string, momentums: unknown[]) =>
  api.post<Impact>(`/person/search/peopleImpacted/${encodeURIComponent(domainUuid)}`, { momentums });

export const useCalculateImpact = (domainUuid: string) =>
  useMutation({ mutationFn: (momentums: unknown[]) => calculateImpact(domainUuid, momentums) });
