import type { ErasureReport, PersonLookup } from '@impeto/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

/** DELETE /person/erase/:domain with `{ person: { vid | email | phone } }`: final. */
export const erasePerson = ({ domainUuid, lookup }: { domainUuid: string; lookup: PersonLookup }) =>
  api.delete<ErasureReport>(`/person/erase/${encodeURIComponent(domainUuid)}`, { person: lookup });

export function useErasePerson() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: erasePerson,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['persons'] }),
  });
}
