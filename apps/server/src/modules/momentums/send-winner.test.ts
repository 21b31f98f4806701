import { randomUUID } from 'node:crypto';
import { experimentMessages as em } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocks, call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

/*
 * The contract of send the winner (issue #25): `experiment.winner` { test_percent 5–50, hours 1–72, metric } beside the
 * variants of a campaign, stored and returned; absent or null exactly as before; refused in pt-BR when wrong, on a
 * momentum, or without 2 variants; in the OpenAPI document; the experiment report says what was chosen.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja Vencedora', 'https://vencedora-api.com.br');
});
afterAll(() => t.close());

const topbar = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
  intervalRecurrency: [],
});
const variants = [
  { name: 'A', weight: 50, values: [topbar('Frete grátis')] },
  { name: 'B', weight: 50, values: [topbar('10% off')] },
];
const winner = { test_percent: 20, hours: 4, metric: 'conversion_rate' };
const body = (extra: Record<string, unknown> = {}, type = 'campaign') => ({
  domain_uuid: domain.uuid,
  type,
  momentum_title: `Item ${randomUUID()}`,
  momentums: [
    blocks.everyone,
    ...(type === 'momentum' ? [blocks.pageviewContaining('/produto')] : []),
    { type: 'dispatcher', values: [topbar('Texto')] },
  ],
  ...extra,
});
const create = (extra: Record<string, unknown>, type = 'campaign') =>
  call(t.app, 'POST', '/api/momentum/create', body(extra, type), owner.token);

describe('experiment.winner in the momentum body', () => {
  it("is stored and returned with the campaign's variants; absent or null, the experiment is as before", async () => {
    const res = await create({ experiment: { control_percent: 10, variants, winner } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.experiment.winner).toEqual(winner);
    expect(res.body.data.experiment_decision).toBeUndefined();
    const without = await create({ experiment: { control_percent: 10, variants } });
    expect(without.body.data.experiment).toEqual({ control_percent: 10, variants });
    const nulled = await create({ experiment: { control_percent: 10, variants, winner: null } });
    expect(nulled.body.data.experiment.winner).toBeNull();

    // A campaign not sent yet has no decision: its report says which test it will run.
    const report = await call(
      t.app,
      'GET',
      `/api/analytics/${domain.uuid}/momentum/${res.body.data.uuid}/experiment?start=2026-01-01&end=2026-01-31`,
      undefined,
      owner.token,
    );
    expect(report.status).toBe(200);
    expect(report.body.data.winner).toEqual({
      test_percent: 20,
      hours: 4,
      metric: 'conversion_rate',
      planned_at: null,
      decided_at: null,
      winner: null,
      rates: [],
      rest: null,
    });
    const plain = await call(
      t.app,
      'GET',
      `/api/analytics/${domain.uuid}/momentum/${without.body.data.uuid}/experiment?start=2026-01-01&end=2026-01-31`,
      undefined,
      owner.token,
    );
    expect(plain.body.data.winner).toBeNull();
  });

  it('refuses wrong options, a test without 2 variants and a momentum with a pt-BR 400', async () => {
    const cases: [unknown, string][] = [
      [{ variants, winner: { ...winner, test_percent: 60 } }, em.winnerPercentInvalid],
      [{ variants, winner: { ...winner, test_percent: 2 } }, em.winnerPercentInvalid],
      [{ variants, winner: { ...winner, hours: 0 } }, em.winnerHoursInvalid],
      [{ variants, winner: { ...winner, hours: 100 } }, em.winnerHoursInvalid],
      [{ variants, winner: { ...winner, metric: 'opens' } }, em.winnerMetricInvalid],
      [{ control_percent: 20, winner }, em.winnerNeedsVariants],
    ];
    for (const [bad, message] of cases) {
      const res = await create({ experiment: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(JSON.stringify(res.body), message).toContain(message);
    }
    const momentum = await create({ status: 'Draft', experiment: { variants, winner } }, 'momentum');
    expect(momentum.status).toBe(400);
    expect(momentum.body.message).toBe(em.winnerCampaignOnly);
  });

  it('is in the OpenAPI document', async () => {
    const doc = JSON.stringify((await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json());
    expect(doc).toContain('test_percent');
    expect(doc).toContain('conversion_rate');
  });
});
