import { msg } from '@impeto/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { domains } from '../db/schema.ts';
import type { AppContext } from './context.ts';
import { notFound } from './errors.ts';

/**
 * A domain of the caller's company, or 404: another company's uuid and an unknown one answer alike.
 * Every module that takes a domain uuid from a path or body goes through here.
 */
export async function requireCompanyDomain(ctx: AppContext, companyUuid: string, domainUuid: string) {
  const [row] = await ctx.db
    .select()
    .from(domains)
    .where(and(eq(domains.uuid, domainUuid), eq(domains.companyUuid, companyUuid), isNull(domains.removedAt)))
    .limit(1);
  if (!row) throw notFound(msg.common.notFound, 'DOMAIN_NOT_FOUND');
  return row;
}
