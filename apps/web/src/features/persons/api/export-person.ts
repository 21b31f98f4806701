import type { PersonLookup } from '@impeto/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { lookupQuery } from './person-lookup.ts';

/** GET /person/export/:domain: everything stored about the persons, saved by the browser as a JSON file. */
export async function exportPerson({ domainUuid, lookup }: { domainUuid: string; lookup: PersonLookup }) {
  const answer = await api.get<unknown>(`/person/export/${encodeURIComponent(domainUuid)}?${lookupQuery(lookup)}`);
  const name = `lgpd-${Object.values(lookup)[0]?.replace(/[^\w.@-]+/g, '_') ?? 'visitante'}.json`;
  const blob = new Blob([JSON.stringify(answer.data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return answer;
}

export const useExportPerson = () => useMutation({ mutationFn: exportPerson });
