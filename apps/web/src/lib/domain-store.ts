import type { DomainItem } from '@impeto/shared';
import { isDomainAllowed } from '@impeto/shared/core';
import { useSyncExternalStore } from 'react';
import { DOMAIN_KEYS } from './session.ts';
import { readJson, removeKey, storageVersion, subscribeStorage, writeJson } from './storage.ts';

const DOMAINS_KEY = DOMAIN_KEYS.list;
const SELECTED_KEY = DOMAIN_KEYS.selected;

/** The selected domain as the spec keeps it in session storage (doc 1 §3 "Selected domain"). */
export interface SelectedDomain {
  name: string;
  uuid: string;
  domain_index: number;
  root: string;
  gero_id: string;
  status: DomainItem['status'];
  allowed: boolean;
  domain_uuid: string;
  domain_root: string;
  domain_gero_id: string;
}

export const toSelectedDomain = (domain: DomainItem, index: number): SelectedDomain => ({
  name: domain.name,
  uuid: domain.uuid,
  domain_index: index,
  root: domain.domain_root,
  gero_id: domain.gero_id,
  status: domain.status,
  allowed: isDomainAllowed(domain),
  domain_uuid: domain.uuid,
  domain_root: domain.domain_root,
  domain_gero_id: domain.gero_id,
});

export const getCachedDomains = () => readJson<DomainItem[]>('session', DOMAINS_KEY);
export const cacheDomains = (domains: DomainItem[]) => writeJson('session', DOMAINS_KEY, domains);

export const getSelectedDomain = () => readJson<SelectedDomain>('session', SELECTED_KEY);
export const setSelectedDomain = (selected: SelectedDomain) => writeJson('session', SELECTED_KEY, selected);

export function clearDomainState() {
  removeKey('session', SELECTED_KEY, false);
  removeKey('session', DOMAINS_KEY);
}

/**
 * The selection that goes with a fresh list: a wanted uuid (from ?domain=) wins, then the stored
 * selection (refreshed, since its status may have changed), then the first allowed, then the first active,
 * then the first domain. Pure.
 */
export function resolveSelection(
  domains: DomainItem[],
  wantedUuid: string | null | undefined,
  current: SelectedDomain | null,
): SelectedDomain | null {
  const pick = (uuid: string | null | undefined) => (uuid ? domains.findIndex((d) => d.uuid === uuid) : -1);
  let index = pick(wantedUuid);
  if (index < 0) index = pick(current?.uuid);
  if (index < 0) index = domains.findIndex((d) => isDomainAllowed(d));
  // A domain still to be validated is selected too: its script modal is what the user needs next.
  if (index < 0) index = domains.findIndex((d) => d.status === 'Active');
  if (index < 0 && domains.length > 0) index = 0;
  const domain = domains[index];
  return domain ? toSelectedDomain(domain, index) : null;
}

export function persistSelection(selected: SelectedDomain | null) {
  const current = getSelectedDomain();
  if (JSON.stringify(selected) === JSON.stringify(current)) return;
  if (selected) setSelectedDomain(selected);
  else removeKey('session', SELECTED_KEY);
}

export function useSelectedDomain(): SelectedDomain | null {
  useSyncExternalStore(subscribeStorage, storageVersion, storageVersion);
  return getSelectedDomain();
}
