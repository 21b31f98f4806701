import type { DomainItem } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { domainOnboardingQueryKey } from './domain-onboarding.ts';

export interface ScriptCheck {
  loader: boolean;
  service_worker: boolean;
  installed: boolean;
}

/** POST /gero/validate: 200 when the page carries the tag and /cn_sw.min.js imports our worker, else 422. */
export const validateScript = (domainUuid: string) =>
  api.post<{ domain: DomainItem; check: ScriptCheck }>('/gero/validate', { gero: { domain_uuid: domainUuid } });

export function useValidateScript() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: validateScript,
    onSuccess: (_answer, domainUuid) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['domains'] }),
        queryClient.invalidateQueries({ queryKey: domainOnboardingQueryKey(domainUuid) }),
      ]),
  });
}
