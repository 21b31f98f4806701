import type { CreateDomainInput } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export const createDomain = (input: CreateDomainInput) => api.post<unknown>('/domain/create', input);

export function useCreateDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['domains'] }),
  });
}
