import type { DomainItem } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import type { VersionKind } from './list-versions.ts';

export interface ChangeVersionVariables {
  kind: VersionKind;
  domainUuid: string;
  version: string;
}

/** PUT /gero/domain/:uuid/version/:version or /cnsw/domain/:uuid/version/:version (no body). */
export const changeVersion = ({ kind, domainUuid, version }: ChangeVersionVariables) =>
  api.put<DomainItem>(`/${kind}/domain/${encodeURIComponent(domainUuid)}/version/${encodeURIComponent(version)}`);

export function useChangeVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeVersion,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['domains'] }),
  });
}
