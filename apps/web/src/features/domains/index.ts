export {
  domainOnboardingQueryKey,
  domainOnboardingQueryOptions,
  useDomainOnboarding,
} from './api/domain-onboarding.ts';
export { domainsQueryKey, domainsQueryOptions, listDomains, useDomains } from './api/list-domains.ts';
export { DomainSelect } from './components/domain-select.tsx';
export { domainStatus } from './components/domain-status.ts';
export type { ScriptTarget } from './components/script-modal.tsx';
export { ScriptModal } from './components/script-modal.tsx';
