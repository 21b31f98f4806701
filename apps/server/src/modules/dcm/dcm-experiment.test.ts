import { randomUUID } from 'node:crypto';
import { assignArm, type DcmRule, experimentMessages, inGlobalControl } from '@impeto/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { queryRows } from '../../db/client.ts';

/*
 * A/B tests of GCD items (issue #25): the item takes an experiment, the tag's rules carry it (every variant's HTML
 * sanitised like the base content on an unverified domain), the injector's reports with their arm become per-arm
 * counts (assigned once per person, held-out visitors included), a person's conversion counts for their arm, and the
 * experiment report answers for the item. Tenancy: another company's item is a 404.
 */

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
const newDomain = async () => {
  const root = `https://loja-gcd-ab-${++seq}.com.br`;
  return { ...(await createDomain(t.app, owner, `Loja AB ${seq}`, root)), root };
};
type Domain = Awaited<ReturnType<typeof newDomain>>;

const cell = (html: string) => ({
  filter: 'CELL_DCM',
  dispatcher_type: 'custom',
  htmlElement: '#promo',
  tagBehavior: 'beforeend',
  customHtml: html,
  customCss: '',
  customJs: 'window.__x = 1;',
});
const experiment = {
  control_percent: 20,
  variants: [
    { name: 'A', weight: 50, values: [cell('<b>Variante A</b><img src="x" onerror="alert(1)">')] },
    { name: 'B', weight: 50, values: [cell('<b>Variante B</b><script>alert(2)</script>')] },
  ],
};
const createItem = (d: Domain, body: Record<string, unknown> = {}) =>
  call(
    t.app,
    'POST',
    '/api/momentum/create',
    {
      domain_uuid: d.uuid,
      type: 'dcm',
      momentum_title: `GCD AB ${randomUUID()}`,
      status: 'Active',
      momentums: [blocks.pageviewContaining('/produtos'), { type: 'dispatcher', values: [cell('<b>Base</b>')] }],
      experiment,
      ...body,
    },
    owner.token,
  );

const rulesOf = async (d: Domain) =>
  (await t.app.inject({ method: 'GET', url: `/t/dcm/${d.gero_id}` })).json() as { rules: DcmRule[] };

const collect = async (d: Domain, vid: string, events: object[]) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: d.root, 'user-agent': CHROME },
    payload: JSON.stringify({ id: d.gero_id, vid, e: events }),
  });
  await t.app.ingestor.drain();
  return res;
};

const day = (offset: number) => new Date(Date.now() + offset * 864e5).toISOString().slice(0, 10);
const report = (d: Domain, m: string, who = owner) =>
  call(
    t.app,
    'GET',
    `/api/analytics/${d.uuid}/momentum/${m}/experiment?start=${day(-1)}&end=${day(1)}`,
    undefined,
    who.token,
  );

describe('GCD items with an A/B test', () => {
  it('are saved, and the rules carry the test with every variant sanitised on an unverified domain', async () => {
    const d = await newDomain();
    const res = await createItem(d);
    expect(res.status).toBe(200);
    const { rules } = await rulesOf(d);
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    expect(rule.html).toBe('<b>Variante A</b><img src="x" />');
    expect(rule.x).toMatchObject({ c: 20 });
    expect(rule.x?.v.map((v) => [v.n, v.w])).toEqual([
      ['A', 50],
      ['B', 50],
    ]);
    expect(rule.x?.v[0]?.r.html).toBe('<b>Variante A</b><img src="x" />');
    expect(rule.x?.v[1]?.r.html).toBe('<b>Variante B</b>');
    // No customJs reaches an unverified domain, in any variant.
    for (const v of rule.x?.v ?? []) {
      expect(v.r.js ?? undefined).toBeUndefined();
      expect(v.r.safe).toBe(true);
    }
  });

  it("tell the tag which visitors are in the domain's global control group, drawn over their person as the engine does", async () => {
    const d = await newDomain();
    await createItem(d);
    const upd = await call(
      t.app,
      'PUT',
      `/api/domain/update/${d.uuid}`,
      { domain: { control_group_percent: 20 } },
      owner.token,
    );
    expect(upd.status).toBe(200);
    const profile = async (vid: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/collect/dcm?id=${d.gero_id}&vid=${vid}&l=pt-BR`,
          headers: { origin: d.root, 'user-agent': CHROME },
        })
      ).json() as { a: unknown; g?: number };
    // A visitor not stored yet has no person: not held out on that first page.
    expect((await profile('vis-novo')).g).toBeUndefined();
    for (let i = 0; i < 30; i++) await collect(d, `vis-g-${i}`, [{ t: 'pv', u: `${d.root}/produtos` }]);
    const rows = await queryRows<{ uuid: string; visitor_id: string }>(
      t.app.ctx.db,
      sql`SELECT uuid, visitor_id FROM persons WHERE domain_uuid = ${d.uuid}::uuid`,
    );
    expect(rows).toHaveLength(30);
    let held = 0;
    for (const r of rows) {
      const expected = inGlobalControl(r.uuid, d.uuid, 20);
      if (expected) held++;
      expect((await profile(r.visitor_id)).g === 1).toBe(expected);
    }
    expect(held).toBeGreaterThan(0);
  });

  it('count the reports per arm, held-out visitors included, and conversions for the arm, in the report', async () => {
    const d = await newDomain();
    const item = (await createItem(d)).body.data as { uuid: string };
    const r = (k: string, a: string) => ({ t: 'dcm', m: item.uuid, k, a });
    await collect(d, 'vis-b1', [r('viewed', 'B'), r('clicked', 'B')]);
    await collect(d, 'vis-b1', [r('viewed', 'B')]);
    await collect(d, 'vis-b2', [r('viewed', 'B')]);
    await collect(d, 'vis-a1', [r('viewed', 'A')]);
    await collect(d, 'vis-c1', [r('held', 'control')]);
    await collect(d, 'vis-c1', [r('held', 'control')]);
    await collect(d, 'vis-g1', [r('held', 'global')]);
    await collect(d, 'vis-c1', [{ t: 'cv', v: 50, o: `pedido-${randomUUID()}` }]);
    await collect(d, 'vis-b1', [{ t: 'cv', v: 120, o: `pedido-${randomUUID()}` }]);

    const res = await report(d, item.uuid);
    expect(res.status).toBe(200);
    const arms = Object.fromEntries(
      (res.body.data.arms as { arm: string }[]).map(({ arm, ...rest }) => [arm, rest]),
    ) as Record<string, Record<string, number>>;
    expect(Object.keys(arms).sort()).toEqual(['A', 'B', 'control']);
    expect(arms.B).toMatchObject({ assigned: 2, viewed: 3, clicked: 1, conversions: 1, revenue: 120 });
    expect(arms.A).toMatchObject({ assigned: 1, viewed: 1, clicked: 0, conversions: 0 });
    expect(arms.control).toMatchObject({ assigned: 1, viewed: 0, clicked: 0, conversions: 1, revenue: 50 });

    // The list's counters still count showings and clicks; a held-out report is not a broken selector.
    const list = (await call(t.app, 'GET', `/api/momentum/list/${d.uuid}?type=dcm`, undefined, owner.token)).body
      .data as { uuid: string; dcm_stats: unknown }[];
    expect(list.find((i) => i.uuid === item.uuid)?.dcm_stats).toEqual({ shown: 4, clicked: 1, missing: null });
  });

  it("an item's reports from another domain count nothing, and another company's report is a 404", async () => {
    const d = await newDomain();
    const other = await newDomain();
    const item = (await createItem(d)).body.data as { uuid: string };
    await collect(other, 'vis-x', [{ t: 'dcm', m: item.uuid, k: 'viewed', a: 'A' }]);
    const arms = (await report(d, item.uuid)).body.data.arms as { arm: string; assigned: number }[];
    expect(arms.every((a) => a.assigned === 0)).toBe(true);
    expect((await report(d, item.uuid, stranger)).status).toBe(404);
  });

  it('the arm a visitor reports is the one the shared function gives their visitor id', () => {
    // What the injector draws (packages/tracker/src/dcm.ts): assignArm over the visitor id and the item's uuid.
    const shares = {
      control_percent: 20,
      variants: [
        { name: 'A', weight: 50 },
        { name: 'B', weight: 50 },
      ],
    };
    const counts: Record<string, number> = {};
    for (let i = 0; i < 2000; i++) {
      const arm = assignArm(`vis-${i}`, 'c0ffee00-0000-4000-8000-000000000001', shares)!;
      counts[arm] = (counts[arm] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['A', 'B', 'control']);
  });
});

describe('GCD A/B tests and the tag release', () => {
  it('are refused on a domain whose tag is older than 1.7.0 (its injector would show variant A to everyone)', async () => {
    const d = await newDomain();
    const v = await call(t.app, 'PUT', `/api/gero/domain/${d.uuid}/version/1.6.0`, undefined, owner.token);
    expect(v.status).toBe(200);
    const res = await createItem(d);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(experimentMessages.dcmTagTooOld('1.7.0'));
    // Without a test the item is saved as before.
    expect((await createItem(d, { experiment: undefined })).status).toBe(200);
  });
});
