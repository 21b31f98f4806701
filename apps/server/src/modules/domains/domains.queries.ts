import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { domains } from '../../db/schema.ts';

/** The company's domains that were not removed, oldest first. */
export const listDomains = (db: Db, companyUuid: string) =>
  db
    .select()
    .from(domains)
    .where(and(eq(domains.companyUuid, companyUuid), isNull(domains.removedAt)))
    .orderBy(asc(domains.createdAt));
