import type { CreateCompanyInput } from '@impeto/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface CreatedCompany {
  company: { uuid: string; name: string };
}

export const createCompany = (input: CreateCompanyInput) =>
  api.post<CreatedCompany>('/company/create', input, { auth: false });

export const useCreateCompany = () => useMutation({ mutationFn: createCompany });
