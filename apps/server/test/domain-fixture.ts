import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { domains } from '../src/db/schema.ts';

/**
 * A domain row straight in the database, for modules that only need one to exist (channels, media);
 * the domains API has its own tests.
 */
export async function insertDomain(app: FastifyInstance, companyUuid: string, name = 'Loja') {
  const hex = randomBytes(6).toString('hex');
  const [row] = await app.ctx.db
    .insert(domains)
    .values({
      uuid: randomUUID(),
      companyUuid,
      name,
      domain: `https://loja-${hex}.com.br`,
      domainRoot: `https://loja-${hex}.com.br`,
      geroId: `G-${hex.toUpperCase()}`,
      geroVersion: '1.0.0',
      cnSwVersion: '1.0.0',
      status: 'Active',
      vapidPublic: 'test-public',
      vapidPrivate: 'test-private',
    })
    .returning();
  return row!;
}

/** Soft-removes a domain the way DELETE /domain/remove/:uuid does. */
export const removeDomain = (app: FastifyInstance, uuid: string) =>
  app.ctx.db.update(domains).set({ removedAt: new Date() }).where(eq(domains.uuid, uuid));
