import { useCallback } from 'react';
import { type NavigateOptions, useNavigate } from 'react-router';
import { getSelectedDomain } from './domain-store.ts';

/** Private pages carry the selected domain in the query (doc 1 §2). */
export function withDomain(path: string, domainUuid = getSelectedDomain()?.uuid): string {
  if (!domainUuid) return path;
  const [pathname = '/', query = ''] = path.split('?');
  const params = new URLSearchParams(query);
  params.set('domain', domainUuid);
  return `${pathname}?${params.toString()}`;
}

export function useDomainNavigate() {
  const navigate = useNavigate();
  return useCallback((path: string, options?: NavigateOptions) => navigate(withDomain(path), options), [navigate]);
}
