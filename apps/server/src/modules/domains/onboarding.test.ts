import { type DomainOnboarding, msg, serviceWorkerFile, trackingSnippet } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocks,
  call,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../../../test/harness.ts';
import { startTestSite } from '../../../test/test-site.ts';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

let t: TestApp;
let site: Awaited<ReturnType<typeof startTestSite>>;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
  site = await startTestSite();
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
});
afterAll(async () => {
  await site.close();
  await t.close();
});

const onboarding = (uuid: string, token = owner.token) =>
  call(t.app, 'GET', `/api/domain/onboarding/${uuid}`, undefined, token);
const steps = async (uuid: string) => {
  const res = await onboarding(uuid);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.message).toBe(msg.domain.onboardingLoaded);
  return res.body.data as DomainOnboarding;
};

/** What the tag sends from the site (text/plain beacon, the site's Origin), stored before answering here. */
const collect = async (d: { gero_id: string }, vid: string, events: object[]) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/collect',
    headers: { 'content-type': 'text/plain', origin: site.url, 'user-agent': CHROME },
    payload: JSON.stringify({ id: d.gero_id, vid, e: events }),
  });
  expect(res.statusCode, res.body).toBe(202);
  await t.app.ingestor.drain();
};

describe('domain onboarding (GET /api/domain/onboarding/:uuid)', () => {
  it('ticks each first step off from real data, in the order a new user takes them, until complete', async () => {
    const d = await createDomain(t.app, owner, 'Loja nova', site.url);
    expect(await steps(d.uuid)).toEqual({
      domain_uuid: d.uuid,
      steps: {
        script_installed: false,
        domain_validated: false,
        push_integrated: false,
        first_optin: false,
        momentum_active: false,
        first_delivery: false,
      },
      done_count: 0,
      total: 6,
      complete: false,
    });

    // The collector receives the first page view from the site.
    await collect(d, 'visitante-1', [{ t: 'pv', u: `${site.url}/` }]);
    expect((await steps(d.uuid)).steps.script_installed).toBe(true);
    expect((await steps(d.uuid)).done_count).toBe(1);

    // gero_validate, by the real check against the site.
    const publicUrl = t.app.ctx.config.publicUrl;
    site.set('/', `<html><head>${trackingSnippet({ publicUrl, root: site.url, geroId: d.gero_id })}</head></html>`);
    site.set('/cn_sw.min.js', serviceWorkerFile({ publicUrl, geroId: d.gero_id }));
    const validated = await call(t.app, 'POST', '/api/gero/validate', { gero: { domain_uuid: d.uuid } }, owner.token);
    expect(validated.status).toBe(200);
    expect((await steps(d.uuid)).steps.domain_validated).toBe(true);

    // Another channel is not the push channel.
    const webview = await call(
      t.app,
      'POST',
      '/api/channel/create',
      { channel: { domain_uuid: d.uuid, channel_type: 'SUPERARE_WEBVIEW', properties: {} } },
      owner.token,
    );
    expect(webview.status).toBe(200);
    expect((await steps(d.uuid)).steps.push_integrated).toBe(false);
    const push = await call(
      t.app,
      'POST',
      '/api/channel/create',
      { channel: { domain_uuid: d.uuid, channel_type: 'CELL_NOTIFICATION', properties: {} } },
      owner.token,
    );
    expect(push.status).toBe(200);
    expect((await steps(d.uuid)).steps.push_integrated).toBe(true);

    // A page view is not an opt-in; the subscription is.
    await collect(d, 'visitante-2', [{ t: 'pv', u: `${site.url}/produtos` }]);
    expect((await steps(d.uuid)).steps.first_optin).toBe(false);
    const subscription = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/onboarding',
      keys: { p256dh: 'BPk', auth: 'xyz' },
    };
    await collect(d, 'visitante-2', [{ t: 'optin', s: subscription }]);
    expect((await steps(d.uuid)).steps.first_optin).toBe(true);
    // Opting out later does not undo the first opt-in.
    await collect(d, 'visitante-2', [{ t: 'optout' }]);
    expect((await steps(d.uuid)).steps.first_optin).toBe(true);

    // A paused momentum is not active; started, it is.
    const push1 = {
      type: 'dispatcher',
      values: [
        {
          filter: 'CELL_NOTIFICATION',
          name: 'Oferta',
          title: 'Oferta',
          message: 'Só hoje',
          icon_uri: `${site.url}/icone.png`,
          redirect_uri: `${site.url}/carrinho`,
        },
      ],
    };
    const created = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      {
        domain_uuid: d.uuid,
        type: 'momentum',
        momentum_title: 'Primeiro momentum',
        status: 'Paused',
        momentums: [blocks.everyone, blocks.pageviewContaining('/carrinho'), push1],
      },
      owner.token,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await steps(d.uuid)).steps.momentum_active).toBe(false);
    const started = await call(
      t.app,
      'PUT',
      `/api/momentum/status/${created.body.data.uuid}`,
      { status: 'Active' },
      owner.token,
    );
    expect(started.status).toBe(200);

    // Active is not the end: nothing has reached a visitor yet.
    const active = await steps(d.uuid);
    expect(active.steps.momentum_active).toBe(true);
    expect(active.steps.first_delivery).toBe(false);
    expect(active.done_count).toBe(5);
    expect(active.complete).toBe(false);

    // A delivery that is created but not sent yet is not a delivered message either.
    await createMomentum(t.app, owner, d.uuid, 'Faixa da promoção', [
      blocks.everyone,
      blocks.pageviewContaining('/promo'),
      blocks.topbar(),
    ]);
    await collect(d, 'visitante-3', [{ t: 'pv', u: `${site.url}/promo` }]);
    expect((await steps(d.uuid)).steps.first_delivery).toBe(false);
    while ((await t.app.engine.dispatchDue()) > 0);

    expect(await steps(d.uuid)).toEqual({
      domain_uuid: d.uuid,
      steps: {
        script_installed: true,
        domain_validated: true,
        push_integrated: true,
        first_optin: true,
        momentum_active: true,
        first_delivery: true,
      },
      done_count: 6,
      total: 6,
      complete: true,
    });
  });

  it('counts the script as installed once the domain is validated, even before the first visit arrives', async () => {
    const other = await startTestSite();
    try {
      const d = await createDomain(t.app, owner, 'Loja validada', other.url);
      const publicUrl = t.app.ctx.config.publicUrl;
      other.set('/', `<html><head>${trackingSnippet({ publicUrl, root: other.url, geroId: d.gero_id })}</head></html>`);
      other.set('/cn_sw.min.js', serviceWorkerFile({ publicUrl, geroId: d.gero_id }));
      const validated = await call(t.app, 'POST', '/api/gero/validate', { gero: { domain_uuid: d.uuid } }, owner.token);
      expect(validated.status).toBe(200);
      const now = await steps(d.uuid);
      expect(now.steps.domain_validated).toBe(true);
      expect(now.steps.script_installed).toBe(true);
      expect(now.done_count).toBe(2);
    } finally {
      await other.close();
    }
  });

  it("reads only its own domain's data: another domain's visits and momentums tick nothing", async () => {
    const busy = await createDomain(t.app, owner, 'Loja movimentada', 'https://movimentada.com.br');
    const quiet = await createDomain(t.app, owner, 'Loja quieta', 'https://quieta.com.br');
    await createMomentum(t.app, owner, busy.uuid, 'Só da movimentada', [
      blocks.everyone,
      blocks.pageviewContaining('/'),
      blocks.topbar(),
    ]);
    expect((await steps(busy.uuid)).steps.momentum_active).toBe(true);
    expect((await steps(quiet.uuid)).done_count).toBe(0);
    expect((await steps(quiet.uuid)).steps.first_delivery).toBe(false);
  });

  it("answers 404 for another company's domain, an unknown or removed one, and 401 without a token", async () => {
    const d = await createDomain(t.app, owner, 'Loja privada', 'https://privada.com.br');
    const foreign = await onboarding(d.uuid, stranger.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(msg.common.notFound);
    expect(JSON.stringify(foreign.body)).not.toContain('Loja privada');
    expect((await onboarding('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const malformed = await onboarding('nao-e-uuid');
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe(msg.common.notFound);
    expect((await call(t.app, 'GET', `/api/domain/onboarding/${d.uuid}`)).status).toBe(401);
    expect((await call(t.app, 'DELETE', `/api/domain/remove/${d.uuid}`, undefined, owner.token)).status).toBe(200);
    expect((await onboarding(d.uuid)).status).toBe(404);
  });

  it('is in the OpenAPI document with its response schema', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const route = res.json().paths['/api/domain/onboarding/{uuid}']?.get;
    expect(route?.tags).toEqual(['domains']);
    const schema = route?.responses?.['200']?.content?.['application/json']?.schema;
    expect(Object.keys(schema?.properties?.data?.properties?.steps?.properties ?? {})).toEqual([
      'script_installed',
      'domain_validated',
      'push_integrated',
      'first_optin',
      'momentum_active',
      'first_delivery',
    ]);
  });
});
