import type { DomainItem } from '@impeto/shared';
import type { domains } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import * as q from './domains.queries.ts';

export const toDomainItem = (row: typeof domains.$inferSelect): DomainItem => ({
  uuid: row.uuid,
  name: row.name,
  domain: row.domain,
  domain_root: row.domainRoot,
  gero_id: row.geroId,
  gero_validate: row.geroValidate,
  gero_version: row.geroVersion,
  cn_sw_version: row.cnSwVersion,
  status: row.status,
  active: row.status === 'Active',
});

/** The path names a company; it must be the caller's own, or the answer is 404 as for any unknown uuid. */
export async function listCompanyDomains(ctx: AppContext, callerCompany: string, companyUuid: string) {
  if (callerCompany !== companyUuid) throw notFound();
  return (await q.listDomains(ctx.db, companyUuid)).map(toDomainItem);
}
