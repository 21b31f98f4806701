import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test';
import { startPushService } from '../../apps/server/test/push-service.ts';
import {
  collectBodies,
  deliverPushUntilShown,
  handOverPushSubscription,
  signedInWithDomain,
  test,
} from '../support/impeto.ts';
import { shortTag } from '../support/momentums.ts';

/*
 * The engine end to end in real Chromium: a visitor of the test website triggers momentums built through the API,
 * the engine's send loop (role 'all' in the e2e server) delivers them as an on-site message the tag renders, or as
 * a web push that a local push service (VAPID checked, aes128gcm decrypted) receives and the test hands to the
 * page's real service worker; the reports of views and clicks come back to the person's attributes.
 */

interface Person {
  visitor_id: string;
  push_status: string | null;
  user_stored_data: Record<string, unknown>;
}

interface OnsiteMessage {
  d: string;
  type: string;
  mode: string;
  props: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A dashboard user with a domain for the test site, and a bearer-token client for the API. */
async function setUp(page: Page, request: APIRequestContext, siteUrl: string) {
  const { domain, headers, get } = await signedInWithDomain(page, request, siteUrl);
  const createMomentum = async (title: string, blocks: object[]) => {
    const res = await request.post('/api/momentum/create', {
      headers,
      data: { domain_uuid: domain.uuid, type: 'momentum', momentum_title: title, status: 'Active', momentums: blocks },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data as { uuid: string; status: string; momentum_title: string };
  };
  /** The person API's view of one visitor (GET /api/person/list/:domain). */
  const person = async (visitorId: string) =>
    (await get<Person[]>(`/api/person/list/${domain.uuid}`)).find((p) => p.visitor_id === visitorId);
  /** Validates the domain's tag on the test site, as the domains page does (unlocks the momentum pages). */
  const validate = async () => {
    const res = await request.post('/api/gero/validate', { headers, data: { gero: { domain_uuid: domain.uuid } } });
    expect(res.status(), await res.text()).toBe(200);
  };
  /** Waits until the person API shows the visitor notified by the momentum, the message viewed and clicked. */
  const expectNotified = (visitorId: string, momentumUuid: string) =>
    expect
      .poll(async () => (await person(visitorId))?.user_stored_data, { timeout: 20_000 })
      .toMatchObject({
        'notified.viewed': true,
        'notified.clicked': true,
        'notified.momentum_uuid': [momentumUuid],
      });
  return { validate, domain, get, createMomentum, person, expectNotified };
}

const everyone = { type: 'filter', values: [{ filter: 'all' }] };
const pageviewContaining = (path: string) => ({
  type: 'trigger',
  regex: false,
  values: [{ filter: 'pageview', comparation: 'contain', value: [path], dischargeIn: [] }],
});

/** The visitor id the tag keeps in localStorage (created on its first send). */
async function visitorIdOf(shop: Page) {
  let vid: string | null = null;
  await expect
    .poll(async () => {
      vid = await shop.evaluate(() => localStorage.getItem('_gero_vid'));
      return vid;
    })
    .toBeTruthy();
  return vid!;
}

/** The on-site messages the tag received from its polls of GET /collect/pending. */
function pendingAnswers(context: BrowserContext) {
  const messages: OnsiteMessage[] = [];
  context.on('response', async (res) => {
    if (new URL(res.url()).pathname !== '/collect/pending' || res.status() !== 200) return;
    try {
      messages.push(...(((await res.json()) as { onsite?: OnsiteMessage[] }).onsite ?? []));
    } catch {}
  });
  return messages;
}

test("a visitor's page view triggers a momentum whose on-site message appears on the page and whose click is reported", async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, createMomentum, validate, expectNotified } = await setUp(page, request, testSite.url);
  // New domains get the newest tracker (1.7.0: on-site messages, conversions, the GCD injector's hook and its A/B tests, the time zone).
  expect(domain.gero_version).toBe('1.7.0');
  testSite.setGeroId(domain.gero_id);

  const box = {
    notificationTitle: 'Frete grátis só hoje',
    notificationContent: 'O Tênis de corrida Ímpeto Run sai sem frete nas compras de hoje. Aproveite!',
    notificationButtonText: 'Ir para o carrinho',
    notificationButtonUrl: `${testSite.url}/carrinho`,
    btnBackground: '#0b5fff',
    btnColor: '#ffffff',
  };
  const momentum = await createMomentum(`Oferta na página do produto ${shortTag()}`, [
    everyone,
    pageviewContaining('/produto/tenis-corrida'),
    {
      type: 'dispatcher',
      values: [
        {
          filter: 'SUPERARE_WEBVIEW',
          webview_type: 'notification_box',
          webview_mode: 'devices_all',
          webview_props: box,
        },
      ],
    },
  ]);
  expect(momentum.status).toBe('Active');

  const visitor = await browser.newContext();
  const received = pendingAnswers(visitor);
  const sent = collectBodies(visitor);
  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/produto/tenis-corrida`);
  const vid = await visitorIdOf(shop);

  // The tag polls /collect/pending every 5 s; the message renders in an open shadow root on <body>.
  await expect(shop.getByText(box.notificationTitle)).toBeVisible({ timeout: 30_000 });
  await expect(shop.getByText(box.notificationContent)).toBeVisible();
  const cta = shop.getByRole('link', { name: box.notificationButtonText });
  await expect(cta).toBeVisible();
  await expect(cta).toHaveAttribute('href', box.notificationButtonUrl);
  await expect.poll(() => received.length).toBe(1);
  const [message] = received;
  expect(message).toMatchObject({ type: 'notification_box', mode: 'devices_all', props: box });
  expect(message!.d).toMatch(UUID);
  await expect.poll(() => sent.some((b) => b.includes('"viewed"') && b.includes(message!.d))).toBe(true);

  const shot = await shop.screenshot({ path: test.info().outputPath('onsite-notification-box.png') });
  await test.info().attach('on-site message', { body: shot, contentType: 'image/png' });

  await cta.click();
  await shop.waitForURL(`${testSite.url}/carrinho`);
  await expect(shop.getByRole('heading', { name: 'Carrinho' })).toBeVisible();
  await expect.poll(() => sent.some((b) => b.includes('"clicked"') && b.includes(message!.d))).toBe(true);

  await expectNotified(vid, momentum.uuid);
  await visitor.close();

  // The dashboard's momentum list shows what became of the message, under the momentum's title.
  await validate();
  await page.goto(`/v2/momentums?domain=${domain.uuid}`);
  const row = page.getByRole('row').filter({ hasText: momentum.momentum_title });
  await expect(row.getByLabel('Mensagens: 1 enviadas, 1 vistas, 1 cliques')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('momentum-list-deliveries.png') });
});

test("a push momentum's payload is decrypted by the local push service, delivered into the real service worker, shown, and its click reported", async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const push = await startPushService();
  try {
    const { domain, createMomentum, person, expectNotified } = await setUp(page, request, testSite.url);
    testSite.setGeroId(domain.gero_id);
    const config = await request.get(`/t/config/${domain.gero_id}`);
    expect(config.status()).toBe(200);
    const vapidPublic = ((await config.json()) as { vapid_public: string }).vapid_public;
    expect(vapidPublic).toBeTruthy();
    // Like a real push service, this one refuses pushes signed with another key than the subscription's.
    const { subscription } = push.newSubscription({ applicationServerKey: vapidPublic });

    const notification = {
      name: 'Carrinho esperando',
      title: 'Seu carrinho te espera',
      message: 'O tênis de corrida ainda está no carrinho. Conclua a compra com frete grátis!',
      icon_uri: `${testSite.url}/icone-${shortTag()}.png`,
      redirect_uri: `${testSite.url}/checkout`,
    };
    const momentum = await createMomentum(`Push do carrinho ${shortTag()}`, [
      everyone,
      pageviewContaining('/carrinho'),
      { type: 'dispatcher', values: [{ filter: 'CELL_NOTIFICATION', ...notification }] },
    ]);

    const visitor = await browser.newContext();
    await visitor.grantPermissions(['notifications'], { origin: testSite.url });
    await handOverPushSubscription(visitor, subscription);

    const shop = await visitor.newPage();
    await shop.goto(`${testSite.url}/`);
    await expect.poll(() => shop.evaluate(() => typeof (window as { __gero?: unknown }).__gero)).toBe('object');
    await shop.evaluate(() => (window as unknown as { gero: (...a: unknown[]) => void }).gero('optin', 'default'));
    const vid = await visitorIdOf(shop);
    await expect.poll(async () => (await person(vid))?.push_status, { timeout: 20_000 }).toBe('subscribed');
    expect(await shop.evaluate(() => localStorage.getItem('e2e.applicationServerKey'))).toBe(vapidPublic);
    expect(push.received).toHaveLength(0);

    // The trigger page: the engine matches the page view and its send loop posts the push.
    await shop.getByRole('link', { name: 'Carrinho', exact: true }).click();
    await shop.waitForURL(`${testSite.url}/carrinho`);
    const [got] = await push.waitFor(1, 30_000);
    expect(got!.endpoint).toBe(subscription.endpoint);
    expect(got!.vapidPublicKey).toBe(vapidPublic);
    expect(got!.ttl).toBeGreaterThan(0);
    const payload = got!.payload as { delivery_id: string };
    expect(payload).toEqual({
      title: notification.title,
      message: notification.message,
      icon_uri: notification.icon_uri,
      redirect_uri: notification.redirect_uri,
      delivery_id: expect.stringMatching(UUID),
    });
    const deliveryId = payload.delivery_id;

    // Deliver exactly what the push service decrypted into the page's service worker (DevTools protocol).
    const sent = collectBodies(visitor);
    const shown = await deliverPushUntilShown(visitor, shop, testSite.url, got!.payload, deliveryId);
    expect(shown).toEqual([
      { title: notification.title, body: notification.message, tag: deliveryId, icon: notification.icon_uri },
    ]);
    await expect
      .poll(async () => (await person(vid))?.user_stored_data['notified.viewed'], { timeout: 20_000 })
      .toBe(true);
    expect((await person(vid))?.user_stored_data['notified.clicked']).toBe(false);

    // Headless Chromium has no notification UI to click: dispatch the worker's notificationclick (as tag.spec.ts).
    const worker = visitor.serviceWorkers().find((w) => w.url().includes('/cn_sw.min.js'));
    expect(worker, 'the site service worker runs').toBeTruthy();
    await worker!.evaluate(async (tag) => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
      const [shown] = await scope.registration.getNotifications({ tag });
      const Ctor = (self as unknown as { NotificationEvent: new (t: string, i: object) => Event }).NotificationEvent;
      scope.dispatchEvent(new Ctor('notificationclick', { notification: shown }));
    }, deliveryId);
    await expectNotified(vid, momentum.uuid);
    // Both reports came from the service worker, on the collector's wire, with the delivery id.
    expect(sent.some((b) => b.includes('"viewed"') && b.includes(deliveryId))).toBe(true);
    expect(sent.some((b) => b.includes('"clicked"') && b.includes(deliveryId))).toBe(true);
    // One push for one trigger: nothing else reached the push service, nothing was refused.
    expect(push.received).toHaveLength(1);
    expect(push.refused).toEqual([]);
    await visitor.close();
  } finally {
    await push.close();
  }
});
