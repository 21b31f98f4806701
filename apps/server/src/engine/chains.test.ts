import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  blocks,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../../test/harness.ts';
import { type Db, queryRows } from '../db/client.ts';
import { insertDeliveries, type NewDelivery } from './deliveries.queries.ts';

/*
 * "A new repeat chain never starts while the person has one waiting" is a check and an insert. Two ingest batches
 * of one person matched at the same moment (batches in flight together, several API processes) both pass the
 * check unless the second waits for the first. PostgreSQL only: PGlite has one connection, so it has no race.
 */

const SITE = 'https://corrida-motor.com.br';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

let t: TestApp;

describe.skipIf(inject('dbKind') !== 'postgres')('repeat chains matched at the same time', () => {
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('the second waits for the first to commit and then starts no chain of its own', async () => {
    const owner = await signUpAndSignIn(t.app);
    const domain = await createDomain(t.app, owner, 'Corrida', SITE);
    const { uuid: momentumUuid } = await createMomentum(t.app, owner, domain.uuid, 'Promoção repetida', [
      blocks.everyone,
      blocks.pageviewContaining('/promo'),
      blocks.topbar({ intervalRecurrency: [3600] }),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': CHROME },
      payload: JSON.stringify({ id: domain.gero_id, vid: 'corredor', e: [{ t: 'pv', u: `${SITE}/` }] }),
    });
    expect(res.statusCode).toBe(202);
    await t.app.ingestor.drain();
    const [person] = await queryRows<{ uuid: string }>(
      t.app.ctx.db,
      sql`SELECT uuid FROM persons WHERE domain_uuid = ${domain.uuid}::uuid AND visitor_id = 'corredor'`,
    );

    const now = t.clock.now();
    const chain = (eventId: number): NewDelivery[] =>
      [0, 3600].map((offset, i) => ({
        domainUuid: domain.uuid,
        momentumUuid,
        personUuid: person!.uuid,
        channelType: 'SUPERARE_WEBVIEW',
        dedupeKey: `${momentumUuid}:${person!.uuid}:e${eventId}:${i}`,
        triggerAt: now,
        dueAt: new Date(now.getTime() + offset * 1000),
        unlessPending: true,
      }));

    let second: Promise<unknown> | undefined;
    let secondDoneBeforeCommit = false;
    await t.app.ctx.db.transaction(async (tx) => {
      expect(await insertDeliveries(tx as unknown as Db, chain(1), now)).toHaveLength(2);
      // The other batch's match, on another connection, while the first is not committed yet.
      second = insertDeliveries(t.app.ctx.db, chain(2), now).then((rows) => {
        secondDoneBeforeCommit = true;
        return rows;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(secondDoneBeforeCommit, 'the second match waited for the first').toBe(false);
    });
    expect(await second).toEqual([]);

    const rows = await queryRows<{ dedupe_key: string }>(
      t.app.ctx.db,
      sql`SELECT dedupe_key FROM deliveries WHERE momentum_uuid = ${momentumUuid}::uuid ORDER BY dedupe_key`,
    );
    expect(rows.map((r) => r.dedupe_key.split(':').slice(2).join(':'))).toEqual(['e1:0', 'e1:1']);
  });
});
