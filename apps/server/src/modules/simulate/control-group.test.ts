import { randomUUID } from 'node:crypto';
import { assignArm, inGlobalControl } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';

/*
 * The simulation's 'Grupo de controle' stage (issue #25): it holds out the people the engine would, by the same arm
 * decision: the momentum's control group and the domain's global group.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
});
afterAll(() => t.close());

it("removes at 'control_group' exactly the persons the control and the global groups hold out", async () => {
  const now = new Date('2026-11-20T15:00:00Z');
  t.clock.set(now);
  const d = await createDomain(t.app, owner, 'Loja Simulada', 'https://simulada-ab.com.br');
  const people = await queryRows<{ uuid: string }>(
    t.app.ctx.db,
    sql`INSERT INTO persons (uuid, domain_uuid, visitor_id, first_seen, last_seen)
        SELECT gen_random_uuid(), ${d.uuid}::uuid, 'p-' || i, ${new Date(now.getTime() - 86_400_000)},
          ${new Date(now.getTime() - 86_400_000)}
        FROM generate_series(1, 300) AS i RETURNING uuid`,
  );
  const set = await call(
    t.app,
    'PUT',
    `/api/domain/update/${d.uuid}`,
    { domain: { control_group_percent: 10 } },
    owner.token,
  );
  expect(set.status).toBe(200);

  const experiment = { control_percent: 20, variants: [] };
  const body = {
    domain_uuid: d.uuid,
    type: 'campaign',
    momentum_title: `Campanha ${randomUUID()}`,
    status: 'Draft',
    momentums: [blocks.everyone, blocks.topbar()],
    experiment,
  };
  const saved = await call(t.app, 'POST', '/api/momentum/create', body, owner.token);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const uuid = saved.body.data.uuid as string;

  const res = await call(
    t.app,
    'POST',
    '/api/momentum/simulate',
    { momentum: { ...body, uuid, scheduled_at: '2026-11-20T13:00:00.000Z' }, days: 1 },
    owner.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const stage = (res.body.data.stages as { stage: string; removed: number }[]).find((s) => s.stage === 'control_group');
  const global = people.filter((p) => inGlobalControl(p.uuid, d.uuid, 10)).length;
  const control = people.filter(
    (p) => !inGlobalControl(p.uuid, d.uuid, 10) && assignArm(p.uuid, uuid, experiment) === 'control',
  ).length;
  expect(global).toBeGreaterThan(10);
  expect(control).toBeGreaterThan(30);
  expect(stage?.removed).toBe(global + control);
  expect(res.body.data.persons).toBe(300 - global - control);
});
