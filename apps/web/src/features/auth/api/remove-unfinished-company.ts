import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const removeUnfinishedCompany = (companyUuid: string) =>
  api.delete<unknown>(`/company/notfinished/${encodeURIComponent(companyUuid)}`, undefined, { auth: false });

export const useRemoveUnfinishedCompany = () => useMutation({ mutationFn: removeUnfinishedCompany });
