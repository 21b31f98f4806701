import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface Impact {
  percentualAtingido: number;
  total: number;
  impacted: number;
  estimated?: boolean;
}

/** POST /person/search/peopleImpacted/:domain { momentums }: the share of the base the filter reaches. */
export const calculateImpact = async (domainUuid: string, momentums: unknown[]) =>
  (await api.post<Impact>(`/person/search/peopleImpacted/${encodeURIComponent(domainUuid)}`, { momentums })).data;

export const useCalculateImpact = (domainUuid: string) =>
  useMutation({ mutationFn: (momentums: unknown[]) => calculateImpact(domainUuid, momentums) });
