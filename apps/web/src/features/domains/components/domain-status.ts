import type { DomainItem } from '@impeto/shared';

export type DomainStatusView = { label: 'Ativo' | 'Não verificado' | 'Inativo'; color: 'green' | 'yellow' | 'gray' };

/** Status label (doc 1 §2): Ativo = active and validated; Não verificado = active only; else Inativo. */
export function domainStatus(domain: Pick<DomainItem, 'status' | 'gero_validate'>): DomainStatusView {
  if (domain.status !== 'Active') return { label: 'Inativo', color: 'gray' };
  return domain.gero_validate ? { label: 'Ativo', color: 'green' } : { label: 'Não verificado', color: 'yellow' };
}
