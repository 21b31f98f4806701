import type { MomentumPerformanceRow } from '@impeto/shared';
import { expect } from '@playwright/test';
import { collectBodies, signedInWithDomain, test } from '../support/impeto.ts';
import { shortTag } from '../support/momentums.ts';

/*
 * Conversions end to end in real Chromium: an on-site message is clicked, the visitor opens the cart (the domain's
 * cart rule) and buys (the test shop's thank-you page calls gero('conversion', …), twice for one order after a
 * reload), and the momentum's analytics row shows 1 click, 1 cart access, 1 conversion and its revenue.
 */

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

test('a clicked on-site message, a cart access and a purchase are credited to the momentum once', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, headers, get } = await signedInWithDomain(page, request, testSite.url);
  testSite.setGeroId(domain.gero_id);
  const settings = await request.put(`/api/analytics/${domain.uuid}/settings`, {
    headers,
    data: { settings: { cart_url: '/carrinho' } },
  });
  expect(settings.status(), await settings.text()).toBe(200);

  const title = `Oferta do tênis ${shortTag()}`;
  const box = {
    notificationTitle: 'Leve o Ímpeto Run hoje',
    notificationContent: 'Frete grátis nas compras de hoje.',
    notificationButtonText: 'Ir para o carrinho',
    notificationButtonUrl: `${testSite.url}/carrinho`,
  };
  const created = await request.post('/api/momentum/create', {
    headers,
    data: {
      domain_uuid: domain.uuid,
      type: 'momentum',
      momentum_title: title,
      status: 'Active',
      momentums: [
        { type: 'filter', values: [{ filter: 'all' }] },
        {
          type: 'trigger',
          regex: false,
          values: [{ filter: 'pageview', comparation: 'contain', value: ['/produto/tenis-corrida'], dischargeIn: [] }],
        },
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
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const momentum = (await created.json()).data as { uuid: string };

  const visitor = await browser.newContext();
  const sent = collectBodies(visitor);
  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/produto/tenis-corrida`);
  const cta = shop.getByRole('link', { name: box.notificationButtonText });
  await expect(cta).toBeVisible({ timeout: 30_000 });
  await cta.click();
  await shop.waitForURL(`${testSite.url}/carrinho`);
  // A shopper reads the cart for a moment: its page view goes out before the next page.
  await expect.poll(() => sent.some((b) => b.includes(`"${testSite.url}/carrinho"`))).toBe(true);
  await shop.getByRole('link', { name: 'Finalizar compra' }).click();
  await shop.getByLabel('Nome completo').fill('Ana Souza');
  await shop.getByLabel('E-mail').fill('ana@exemplo.com.br');
  await shop.getByRole('button', { name: /Pagar/ }).click();
  await expect(shop.getByRole('heading', { name: 'Obrigado pela compra!' })).toBeVisible();
  await expect.poll(() => sent.some((b) => b.includes('"cv"') && b.includes('PED-1001'))).toBe(true);
  // The customer reloads the thank-you page: the same order is sent again and must count once.
  await shop.reload();
  await expect.poll(() => sent.filter((b) => b.includes('"cv"')).length).toBe(2);
  await visitor.close();

  const day = today();
  await expect
    .poll(
      async () =>
        (
          await get<MomentumPerformanceRow[]>(
            `/api/analytics/${domain.uuid}/momentums/performance?start=${day}&end=${day}`,
          )
        ).find((r) => r.momentum_uuid === momentum.uuid),
      { timeout: 20_000 },
    )
    .toMatchObject({
      momentum_title: title,
      notifications_sent: 1,
      notifications_viewed: 1,
      notifications_clicked: 1,
      notifications_ctr: 100,
      not_convertion: 1,
      not_convertion_profit: 349.9,
      not_cart_access: 1,
      not_cart_access_percent: 100,
    });
});
