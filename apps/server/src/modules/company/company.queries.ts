import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { companies } from '../../db/schema.ts';

export const findCompany = async (db: Db, companyUuid: string) =>
  (await db.select().from(companies).where(eq(companies.uuid, companyUuid)).limit(1))[0];

export const saveRegistration = (db: Db, companyUuid: string, registration: Record<string, unknown>) =>
  db.update(companies).set({ registration }).where(eq(companies.uuid, companyUuid));
