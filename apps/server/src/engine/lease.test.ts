import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  blocks,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../../test/harness.ts';
import { type PushService, startPushService } from '../../test/push-service.ts';
import { queryRows } from '../db/client.ts';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SITE = 'https://loja-lease.com.br';

let t: TestApp;
let push: PushService;

beforeAll(async () => {
  t = await createTestApp({ allowPrivateFetch: true, deliveryLeaseSeconds: 1 });
  push = await startPushService();
});
afterAll(async () => {
  await t.close();
  await push.close();
});

it('a batch still being sent keeps its lease: the sweeper leaves it alone and the push goes once', async () => {
  const owner = await signUpAndSignIn(t.app);
  const domain = await createDomain(t.app, owner, 'Lease', SITE);
  const momentum = await createMomentum(t.app, owner, domain.uuid, 'Lento', [
    blocks.everyone,
    blocks.pageviewContaining('/lento'),
    {
      type: 'dispatcher',
      values: [
        {
          filter: 'CELL_NOTIFICATION',
          name: 'Lento',
          title: 'Olá',
          message: 'Mensagem',
          icon_uri: `${SITE}/i.png`,
          redirect_uri: `${SITE}/`,
        },
      ],
    },
  ]);
  const vid = `v-${randomUUID()}`;
  const sub = push.newSubscription();
  const collect = (e: object[]) =>
    t.app.inject({
      method: 'POST',
      url: '/collect',
      headers: { 'content-type': 'text/plain', origin: SITE, 'user-agent': CHROME },
      payload: JSON.stringify({ id: domain.gero_id, vid, e }),
    });
  await collect([{ t: 'optin', s: sub.subscription }]);
  await collect([{ t: 'pv', u: `${SITE}/lento` }]);
  await t.app.ingestor.drain();

  push.delayAnswers(2500); // the push service takes longer than the 1 s lease to answer
  const sending = t.app.engine.dispatchDue();
  await new Promise((r) => setTimeout(r, 1800));
  expect(await t.app.engine.sweep()).toBe(0);
  expect(await sending).toBe(1);
  push.delayAnswers(0);
  while ((await t.app.engine.dispatchDue()) > 0);
  expect(push.received.filter((r) => r.endpoint === sub.subscription.endpoint)).toHaveLength(1);
  const [row] = await queryRows<{ status: string }>(
    t.app.ctx.db,
    sql`SELECT status FROM deliveries WHERE momentum_uuid = ${momentum.uuid}::uuid`,
  );
  expect(row!.status).toBe('sent');
});
