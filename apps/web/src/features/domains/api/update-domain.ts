import type { DomainItem, QuietHours } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

export interface UpdateDomainVariables {
  uuid: string;
  name: string;
  address: string;
  retention_months?: number;
  /** Sent only when changed (issue #27). */
  quiet_hours?: QuietHours | null;
  extra_holidays?: string[];
  /** The domain's IANA zone (issue #27), sent only when changed. */
  timezone?: string;
  /** The global control group in % (issue #25), sent only when changed. */
  control_group_percent?: number;
}

/** Edit: PUT /domain/update/:uuid with `{ domain: { name, address } }` (READINGS A-15). */
export const updateDomain = ({ uuid, name, address, ...rest }: UpdateDomainVariables) =>
  api.put<DomainItem>(`/domain/update/${encodeURIComponent(uuid)}`, {
    domain: {
      name,
      address,
      ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    },
  });

export function useUpdateDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['domains'] }),
  });
}
