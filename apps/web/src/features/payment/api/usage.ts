import type { Usage } from '@impeto/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** GET /usage?month=YYYY-MM: the plan and the month's usage per domain. */
export const useUsage = (month: string) =>
  useQuery({
    queryKey: ['usage', month],
    queryFn: async () => (await api.get<Usage>(`/usage?month=${encodeURIComponent(month)}`)).data,
    placeholderData: keepPreviousData,
  });
