import { type ErasureReport, msg, type PersonLookup, type PersonSummary } from '@impeto/shared';
import type { Db } from '../../db/client.ts';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import * as q from './privacy.queries.ts';

/** The data subject's rights of LGPD art. 18 (access, portability, erasure), per domain of the caller's company. */

const noPerson = () => notFound(msg.privacy.notFound, 'PERSON_NOT_FOUND');

async function requirePersons(db: Db, domainUuid: string, lookup: PersonLookup) {
  const persons = await q.findPersons(db, domainUuid, lookup);
  if (persons.length === 0) throw noPerson();
  return persons;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function lookupPersons(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  lookup: PersonLookup,
): Promise<PersonSummary[]> {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const persons = await requirePersons(ctx.db, domainUuid, lookup);
  const counts = new Map(
    (
      await q.countsOf(
        ctx.db,
        persons.map((p) => p.uuid),
      )
    ).map((c) => [c.uuid, c]),
  );
  return persons.map((p) => ({
    uuid: p.uuid,
    visitor_id: p.visitor_id,
    email: p.email,
    phone: p.phone,
    name: p.name,
    first_seen: iso(p.first_seen)!,
    last_seen: iso(p.last_seen)!,
    push_status: p.push_status,
    events: counts.get(p.uuid)?.events ?? 0,
    deliveries: counts.get(p.uuid)?.deliveries ?? 0,
  }));
}

/** Everything stored about the persons the lookup names, as one JSON document (portability, art. 18 V). */
export async function exportPersons(ctx: AppContext, companyUuid: string, domainUuid: string, lookup: PersonLookup) {
  const domain = await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const persons = await requirePersons(ctx.db, domainUuid, lookup);
  const out = [];
  for (const p of persons) {
    const [events, deliveries, onsite] = await Promise.all([
      q.eventsOf(ctx.db, p.uuid),
      q.deliveriesOf(ctx.db, p.uuid),
      q.onsiteOf(ctx.db, p.uuid),
    ]);
    out.push({
      uuid: p.uuid,
      visitor_id: p.visitor_id,
      email: p.email,
      phone: p.phone,
      name: p.name,
      first_seen: iso(p.first_seen),
      last_seen: iso(p.last_seen),
      push_status: p.push_status,
      push_subscription: p.push_subscription,
      timezone: p.timezone,
      user_stored_data: p.attributes,
      events: events.map((e) => ({ ...e, ts: iso(e.ts) })),
      deliveries: deliveries.map((d) => ({
        ...d,
        trigger_at: iso(d.trigger_at),
        due_at: iso(d.due_at),
        sent_at: iso(d.sent_at),
        viewed_at: iso(d.viewed_at),
        clicked_at: iso(d.clicked_at),
        created_at: iso(d.created_at),
      })),
      onsite_queue: onsite.map((o) => ({ ...o, expires_at: iso(o.expires_at), created_at: iso(o.created_at) })),
    });
  }
  return {
    exported_at: ctx.clock.now().toISOString(),
    domain: { uuid: domain.uuid, name: domain.name, domain: domain.domain },
    query: lookup,
    persons: out,
  };
}

/** Erases the persons the lookup names, for good (art. 18 VI); see privacy.queries.ts for what goes and what is kept. */
export async function erasePersons(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  lookup: PersonLookup,
): Promise<ErasureReport> {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const report = await ctx.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const persons = await requirePersons(db, domainUuid, lookup);
    return q.erasePersons(db, domainUuid, persons, ctx.clock.now());
  });
  ctx.log.info({ domain: domainUuid, ...report }, 'LGPD: visitante apagado');
  return report;
}
