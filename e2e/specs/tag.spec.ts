import { webcrypto } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import {
  collectBodies,
  deliverPushUntilShown,
  handOverPushSubscription,
  signedInWithDomain,
  test,
} from '../support/impeto.ts';

interface Person {
  visitor_id: string;
  email: string | null;
  push_status: string | null;
  user_stored_data: Record<string, unknown>;
}

/** A dashboard user with a domain for the test site; returns what the visitor-side tests need. */
async function setUp(page: Page, request: APIRequestContext, siteUrl: string) {
  const { domain, get } = await signedInWithDomain(page, request, siteUrl);
  return { domain, api: get };
}

test('a visitor browses the test website and the person API shows them with their pages, events and identity', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, api } = await setUp(page, request, testSite.url);
  testSite.setGeroId(domain.gero_id);

  const visitor = await browser.newContext();
  const sent = collectBodies(visitor);
  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/`);
  await expect.poll(() => sent.length, { message: 'the first page view is sent' }).toBeGreaterThan(0);
  await shop.getByRole('link', { name: 'Produtos' }).first().click();
  await shop.waitForURL('**/produtos');
  await expect.poll(() => shop.evaluate(() => Boolean((window as { __gero?: unknown }).__gero))).toBe(true);
  // A single-page-app navigation: the History API, no page load.
  await shop.evaluate(() => history.pushState({}, '', '/carrinho'));
  await shop.evaluate(() => {
    const gero = (window as unknown as { gero: (...a: unknown[]) => void }).gero;
    gero('event', 'carrinho', { produto: 'Tênis de corrida', valor: 349.9 });
    gero('identify', { email: 'visitante@exemplo.com.br', name: 'Visitante' });
  });

  const people = await expect
    .poll(
      async () => {
        const list = await api<Person[]>(`/api/person/list/${domain.uuid}`);
        const urls = (list[0]?.user_stored_data['visited.url'] as string[] | undefined) ?? [];
        return list.length === 1 && list[0]!.email && urls.some((u) => u.endsWith('/carrinho')) ? list : null;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy()
    .then(() => api<Person[]>(`/api/person/list/${domain.uuid}`));
  const person = people[0]!;
  expect(person.email).toBe('visitante@exemplo.com.br');
  expect(person.user_stored_data).toMatchObject({
    'navigator.browser': 'Chrome',
    'navigator.mobile': false,
    'client.device.name': 'desktop',
    'client.device.os': 'Linux',
    origin: 'direct',
  });
  expect(person.user_stored_data['visited.url']).toEqual(
    expect.arrayContaining([`${testSite.url}/`, `${testSite.url}/produtos`, `${testSite.url}/carrinho`]),
  );

  const categories = await api<{ uuid: string; parent_category: string }[]>(`/api/person/event/${domain.uuid}`);
  expect(categories.map((c) => c.parent_category)).toEqual(['carrinho']);
  const keys = await api<{ key: string }[]>(`/api/person/event/filters/${categories[0]!.uuid}`);
  expect(keys.map((k) => k.key)).toEqual(['produto', 'valor']);
  const values = await api<{ value: string }[]>(`/api/person/event/filters/${categories[0]!.uuid}/key/produto`);
  expect(values.map((v) => v.value)).toEqual(['Tênis de corrida']);
  const browsers = await api<{ value: string }[]>(
    `/api/person/search/${domain.uuid}/filter/user_stored_data.navigator.browser`,
  );
  expect(browsers.map((b) => b.value)).toEqual(['Chrome']);
  await visitor.close();
});

test('with consent required the tag sends nothing until the visitor consents', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, api } = await setUp(page, request, testSite.url);
  testSite.setGeroId(domain.gero_id);
  const visitor = await browser.newContext();
  const sent = collectBodies(visitor);
  const shop = await visitor.newPage();
  // The site asks for consent first: its snippet's init carries consent: 'required'.
  await shop.goto(`${testSite.url}/?consent=required`);
  await expect.poll(() => shop.evaluate(() => typeof (window as { __gero?: unknown }).__gero)).toBe('object');
  await shop.evaluate(() => (window as unknown as { gero: (...a: unknown[]) => void }).gero('event', 'newsletter', {}));
  await shop.waitForTimeout(1500);
  expect(sent).toEqual([]);
  expect(await api<Person[]>(`/api/person/list/${domain.uuid}`)).toEqual([]);

  await shop.evaluate(() => (window as unknown as { gero: (...a: unknown[]) => void }).gero('consent', true));
  await expect.poll(() => sent.length).toBeGreaterThan(0);
  await expect.poll(async () => (await api<Person[]>(`/api/person/list/${domain.uuid}`)).length).toBe(1);
  await visitor.close();
});

/** A push subscription with real P-256 keys, as a push service would hand out (offline Chromium has none). */
async function testSubscription() {
  const pair = await webcrypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']);
  const raw = Buffer.from(await webcrypto.subtle.exportKey('raw', pair.publicKey));
  return {
    endpoint: `https://push.exemplo-teste.com.br/send/${Date.now()}`,
    expirationTime: null,
    keys: {
      p256dh: raw.toString('base64url'),
      auth: webcrypto.getRandomValues(Buffer.alloc(16)).toString('base64url'),
    },
  };
}

test('the Topbox opt-in registers the service worker, hands over the subscription, and the worker shows a push and reports its click', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, api } = await setUp(page, request, testSite.url);
  testSite.setGeroId(domain.gero_id);
  const subscription = await testSubscription();

  const visitor = await browser.newContext();
  const sent = collectBodies(visitor);
  await handOverPushSubscription(visitor, subscription);

  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/`);
  await expect.poll(() => shop.evaluate(() => typeof (window as { __gero?: unknown }).__gero)).toBe('object');
  await shop.evaluate(() => (window as unknown as { gero: (...a: unknown[]) => void }).gero('optin', 'topbox'));
  await expect(shop.getByText('Receba nossas novidades')).toBeVisible();
  // The browser's own prompt follows the soft box; the visitor accepts it.
  await visitor.grantPermissions(['notifications'], { origin: testSite.url });
  await shop.getByRole('button', { name: 'Permitir' }).click();
  await expect(shop.getByText('Receba nossas novidades')).toHaveCount(0);

  await expect
    .poll(async () => (await api<Person[]>(`/api/person/list/${domain.uuid}`))[0]?.push_status, { timeout: 20_000 })
    .toBe('subscribed');
  const scope = await shop.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.scope);
  expect(scope).toBe(`${testSite.url}/`);

  // Deliver a push into the real service worker through the DevTools protocol.
  const shown = await deliverPushUntilShown(
    visitor,
    shop,
    testSite.url,
    {
      title: 'Seu carrinho espera por você',
      message: 'Finalize a compra com frete grátis hoje.',
      redirect_uri: `${testSite.url}/carrinho`,
      delivery_id: 'entrega-e2e-1',
    },
    'entrega-e2e-1',
  );
  expect(shown.map((n) => [n.title, n.body])).toEqual([
    ['Seu carrinho espera por você', 'Finalize a compra com frete grátis hoje.'],
  ]);
  await expect.poll(() => sent.some((b) => b.includes('"viewed"') && b.includes('entrega-e2e-1'))).toBe(true);

  // A click on the notification. Headless Chromium has no notification UI to click, so the test dispatches the
  // worker's notificationclick itself; without a real user gesture clients.openWindow is refused, but the
  // click report must still reach the collector.
  const worker = visitor.serviceWorkers().find((w) => w.url().includes('/cn_sw.min.js'));
  expect(worker, 'the site service worker runs').toBeTruthy();
  await worker!.evaluate(async () => {
    const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
    const [notification] = await scope.registration.getNotifications();
    const Ctor = (self as unknown as { NotificationEvent: new (t: string, i: object) => Event }).NotificationEvent;
    scope.dispatchEvent(new Ctor('notificationclick', { notification }));
  });
  await expect.poll(() => sent.some((b) => b.includes('"clicked"') && b.includes('entrega-e2e-1'))).toBe(true);
  await visitor.close();
});

test('the Default opt-in asks the browser directly and records the subscription', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, api } = await setUp(page, request, testSite.url);
  testSite.setGeroId(domain.gero_id);
  const subscription = await testSubscription();
  const visitor = await browser.newContext();
  await visitor.grantPermissions(['notifications'], { origin: testSite.url });
  await handOverPushSubscription(visitor, subscription);
  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/`);
  await expect.poll(() => shop.evaluate(() => typeof (window as { __gero?: unknown }).__gero)).toBe('object');
  await shop.evaluate(() => (window as unknown as { gero: (...a: unknown[]) => void }).gero('optin', 'default'));
  await expect(shop.getByText('Receba nossas novidades')).toHaveCount(0);
  await expect
    .poll(async () => (await api<Person[]>(`/api/person/list/${domain.uuid}`))[0]?.push_status, { timeout: 20_000 })
    .toBe('subscribed');
  await visitor.close();
});
