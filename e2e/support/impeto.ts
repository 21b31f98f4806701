import { type DomainItem, msg } from '@impeto/shared';
import { type APIRequestContext, type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import { startTestSite, type TestSite } from '../test-site/site.ts';
import { type Account, createAccount, signInThroughForm } from './accounts.ts';

/** The server's public URL as the dashboard and the script check see it (GET /api/config). */
export async function serverPublicUrl(request: APIRequestContext): Promise<string> {
  const res = await request.get('/api/config');
  expect(res.status()).toBe(200);
  return (await res.json()).data.publicUrl as string;
}

/**
 * `testSite`: a customer's shop on 127.0.0.1 (e2e/test-site), started without a gero_id (so without the tag)
 * and closed after the test; the test gives it the domain's gero_id once Ímpeto has issued one.
 */
export const test = base.extend<{ testSite: TestSite }>({
  testSite: async ({ request }, use) => {
    const site = await startTestSite({ publicUrl: await serverPublicUrl(request) });
    await use(site);
    await site.close();
  },
});

/** A toast with this message: it must show up; then it is dismissed, so the next identical one is a new one. */
export async function expectToast(page: Page, message: string, kind: 'Sucesso' | 'Erro' = 'Sucesso') {
  const toast = page.getByRole('alert').filter({ hasText: message }).filter({ hasText: kind }).first();
  await expect(toast).toBeVisible();
  await toast.getByRole('button').click();
  await expect(page.getByRole('alert').filter({ hasText: message })).toHaveCount(0);
}

/**
 * Signs in through the form from /signin and waits to leave it. Should the suite hit the sign-in rate limit
 * (10 a minute per IP, a fixed window), it waits for the window to pass once and tries again.
 */
export async function signIn(page: Page, account: Pick<Account, 'username' | 'password'>) {
  await page.goto('/signin');
  for (let attempt = 0; ; attempt++) {
    await signInThroughForm(page, account);
    const limited = page.getByText(msg.common.tooManyRequests).first();
    const outcome = await Promise.race([
      page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 30_000 }).then(() => 'in' as const),
      limited.waitFor({ timeout: 30_000 }).then(() => 'limited' as const),
    ]);
    if (outcome === 'in') return;
    expect(attempt, 'the sign-in rate limit was still hit after waiting a whole window').toBe(0);
    test.info().setTimeout(test.info().timeout + 75_000);
    // The limiter's fixed window is one minute; nothing in the page tells when it ends.
    await page.waitForTimeout(61_000);
    await page.goto('/signin');
  }
}

/** The bearer token the dashboard keeps after signing in (sessionStorage, or localStorage with keep_connected). */
export async function sessionToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const raw = sessionStorage.getItem('impeto.session') ?? localStorage.getItem('impeto.session');
    return raw ? (JSON.parse(raw) as { bearer_token?: string }).bearer_token : undefined;
  });
  expect(token, 'signed in: the session holds a bearer token').toBeTruthy();
  return token!;
}

/** POST /api/domain/create as the signed-in user of `page`. */
export async function createDomainThroughApi(
  page: Page,
  request: APIRequestContext,
  account: Pick<Account, 'companyUuid'>,
  domain: { name: string; url: string },
): Promise<DomainItem> {
  const res = await request.post('/api/domain/create', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: { domain: { company_uuid: account.companyUuid, name: domain.name, domain: domain.url } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as DomainItem;
}

/**
 * A dashboard user signed in on `page` with a domain for `siteUrl`, and `get`, a bearer-token GET of the API
 * that expects 200 and returns `data` (the visitor-side specs read the person API with it).
 */
export async function signedInWithDomain(page: Page, request: APIRequestContext, siteUrl: string) {
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createDomainThroughApi(page, request, account, { name: 'Loja de teste', url: siteUrl });
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  const get = async <T>(path: string) => {
    const res = await request.get(path, { headers });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data as T;
  };
  return { account, domain, headers, get };
}

/**
 * A domain with the tag installed on the test site and validated (POST /api/gero/validate against the site),
 * as a user who finished the domains page would have; the page is left on `/domains` with it selected.
 */
export async function createValidatedDomain(
  page: Page,
  request: APIRequestContext,
  account: Pick<Account, 'companyUuid'>,
  site: TestSite,
  name = 'Loja Corre Bem',
): Promise<DomainItem> {
  const domain = await createDomainThroughApi(page, request, account, { name, url: site.url });
  site.setGeroId(domain.gero_id);
  const res = await request.post('/api/gero/validate', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: { gero: { domain_uuid: domain.uuid } },
  });
  expect(res.status(), await res.text()).toBe(200);
  await page.goto('/domains');
  await expect(page.getByRole('row').filter({ hasText: name }).getByText('Ativo', { exact: true })).toBeVisible();
  return { ...domain, gero_validate: true };
}

/** Every body the pages of `context` post to the collector (`POST /collect`), as sent. */
export function collectBodies(context: BrowserContext) {
  const bodies: string[] = [];
  context.on('request', (req) => {
    if (new URL(req.url()).pathname === '/collect' && req.method() === 'POST') bodies.push(req.postData() ?? '');
  });
  return bodies;
}

/**
 * Delivers `payload` into the page's real service worker through the DevTools protocol, and again every few polls
 * until a notification tagged `tag` shows: a push that reaches a worker still starting can be dropped by Chromium
 * (the tag makes a repeat replace the notification, not add one). Answers what is shown with that tag.
 */
export async function deliverPushUntilShown(
  context: BrowserContext,
  page: Page,
  origin: string,
  payload: unknown,
  tag: string,
) {
  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.get(`${origin}/`)).toBeTruthy();
  await page.evaluate(() => navigator.serviceWorker.ready);
  const deliver = () =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin,
      registrationId: registrations.get(`${origin}/`)!,
      data: JSON.stringify(payload),
    });
  await deliver();
  let polls = 0;
  let shown: { title: string; body: string; tag: string; icon: string }[] = [];
  await expect
    .poll(
      async () => {
        shown = await page.evaluate(async (t) => {
          const list = await (await navigator.serviceWorker.ready).getNotifications({ tag: t });
          return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, icon: n.icon }));
        }, tag);
        if (shown.length === 0 && ++polls % 5 === 0) await deliver();
        return shown.length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0);
  return shown;
}

/**
 * Offline Chromium has no push service, so `PushManager.subscribe` cannot succeed: every page of `context` gets
 * `subscription` (keys the test made with real ECDH) instead, and the applicationServerKey the tag asked with is
 * kept in localStorage `e2e.applicationServerKey` (base64url) for the test to check.
 */
export async function handOverPushSubscription(context: BrowserContext, subscription: { endpoint: string }) {
  await context.addInitScript((sub) => {
    let current: unknown = null;
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const key = options?.applicationServerKey;
      if (key instanceof Uint8Array) {
        const text = btoa(String.fromCharCode(...key));
        localStorage.setItem(
          'e2e.applicationServerKey',
          text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
        );
      }
      current = { endpoint: sub.endpoint, options: {}, toJSON: () => sub, unsubscribe: async () => true };
      return current as PushSubscription;
    };
    PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
  }, subscription);
}
