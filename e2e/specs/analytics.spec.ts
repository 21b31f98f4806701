import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import {
  collect,
  MOBILE_UA,
  pendingOnsite,
  RANGED_WIDGET_PATHS,
  shiftDay,
  todayInSaoPaulo,
} from '../support/analytics.ts';
import { collectBodies, createValidatedDomain, sessionToken, signIn, test } from '../support/impeto.ts';
import type { TestSite } from '../test-site/site.ts';

/** A signed-in user whose domain carries the tag on the test site and is validated (the dashboard needs it). */
async function dashboardUser(page: Page, request: APIRequestContext, site: TestSite) {
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createValidatedDomain(page, request, account, site);
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  const api = async <T>(path: string, init: { method?: string; data?: unknown } = {}) => {
    const res = await request.fetch(path, { method: init.method ?? 'GET', headers, data: init.data });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data as T;
  };
  return { domain, api };
}

/** The analytics requests the dashboard makes, as paths with their query. */
function analyticsRequests(page: Page) {
  const urls: string[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/analytics/')) urls.push(`${url.pathname}${url.search}`);
  });
  return urls;
}

const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

test('a visitor browses the shop and the dashboard shows those page views, follows the range picker and exports a CSV', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, api } = await dashboardUser(page, request, testSite);
  const today = todayInSaoPaulo();

  // A visitor (desktop Chrome) walks through three pages of the shop.
  const visitor = await browser.newContext();
  const sent = collectBodies(visitor);
  const shop = await visitor.newPage();
  const pageViewsSent = () => sent.join('').split('"t":"pv"').length - 1;
  // Each page's view leaves before the next page loads (the tag batches for half a second).
  await shop.goto(`${testSite.url}/`);
  await expect.poll(pageViewsSent).toBe(1);
  await shop.getByRole('link', { name: 'Produtos' }).first().click();
  await shop.waitForURL('**/produtos');
  await expect.poll(pageViewsSent).toBe(2);
  await shop.goto(`${testSite.url}/produto/tenis-corrida`);
  await expect.poll(pageViewsSent).toBe(3);
  await expect
    .poll(
      async () =>
        (await api<{ count: number }>(`/api/analytics/${domain.uuid}/count/visits?start=${today}&end=${today}`)).count,
      { timeout: 30_000, message: 'the three page views reach the rollups' },
    )
    .toBe(3);
  await visitor.close();

  const requests = analyticsRequests(page);
  await page.goto(`/?domain=${domain.uuid}`);
  await expect(page.getByRole('heading', { name: 'Analytics', level: 2 })).toBeVisible();
  await expect(region(page, 'Visualizações de página').getByText('3', { exact: true })).toBeVisible();
  await expect(region(page, 'Visitantes').getByText('1', { exact: true })).toBeVisible();
  const pages = region(page, 'Páginas mais visitadas');
  for (const path of ['/', '/produtos', '/produto/tenis-corrida'])
    await expect(pages.getByRole('row').filter({ hasText: `${path} (` })).toHaveCount(1);
  await expect(pages.getByText('Páginas mais vistas carregadas.')).toBeVisible();
  // The legend beside the donut (the chart's tooltip may show the same name while the mouse is over it).
  await expect(
    region(page, 'Visitantes por dispositivo')
      .getByRole('paragraph')
      .filter({ hasText: /^Desktop$/ }),
  ).toBeVisible();
  for (const path of RANGED_WIDGET_PATHS)
    expect(requests, path).toContainEqual(
      `/api/analytics/${domain.uuid}${path}?start=${today}&end=${today}${path === '/pages/mostViewed' ? '&limit=10' : ''}`,
    );

  // The range picker: every widget asks again for the new period, and the URL keeps it.
  const start = shiftDay(today, -6);
  await page.getByRole('button', { name: 'Período' }).click();
  await page.getByRole('button', { name: 'Últimos 7 dias' }).click();
  await expect(page).toHaveURL(new RegExp(`start=${start}&end=${today}`));
  await expect
    .poll(() =>
      RANGED_WIDGET_PATHS.filter(
        (path) =>
          !requests.some((u) => u.startsWith(`/api/analytics/${domain.uuid}${path}?start=${start}&end=${today}`)),
      ),
    )
    .toEqual([]);
  await expect(region(page, 'Visualizações de página').getByText('3', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Período' })).toHaveText(
    `${start.split('-').reverse().join('/')} – ${today.split('-').reverse().join('/')}`,
  );

  // The CSV is written in the browser from the widgets' data: a download, and no request but the ones for the
  // experiment tables (#25) and the journey tables (#26), fetched only when the export is asked for.
  const before = requests.length;
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Extrair para:' }).click();
  await page.getByRole('menuitem', { name: 'CSV (.csv)' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`cell_dashboard_export_${today}.csv`);
  const bytes = await readFile((await file.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const csv = bytes.subarray(3).toString('utf8');
  expect(csv.startsWith(`Painel\r\nDomínio,Início,Fim\r\nLoja Corre Bem,${start},${today}\r\n\r\n`)).toBe(true);
  expect(csv).toContain('\r\nVisualizações de página\r\nVisualizações,Período anterior\r\n3,0\r\n');
  expect(csv).toContain('\r\nPáginas mais visitadas\r\nURL,Mobile,Desktop,Total\r\n');
  expect(csv).toContain(`\r\n${testSite.url}/produto/tenis-corrida,0,1,1\r\n`);
  expect(csv).toContain('\r\nVisitantes por dispositivo\r\nDispositivo,Visitantes\r\nDesktop,');
  expect(csv.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  const exportTables = [`/api/analytics/${domain.uuid}/experiments?`, `/api/analytics/${domain.uuid}/journeys?`];
  expect(requests.slice(before).filter((u) => !exportTables.some((table) => u.startsWith(table)))).toEqual([]);
});

test('the dashboard reads well with a day of data at 1440 and 390 px', async ({ page, request, testSite }) => {
  test.setTimeout(240_000);
  const { domain, api } = await dashboardUser(page, request, testSite);
  const today = todayInSaoPaulo();
  await api(`/api/analytics/${domain.uuid}/settings`, { method: 'PUT', data: { settings: { cart_url: '/carrinho' } } });
  const onsite = (title: string, path: string) =>
    api<{ uuid: string }>('/api/momentum/create', {
      method: 'POST',
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
            values: [{ filter: 'pageview', comparation: 'contain', value: [path], dischargeIn: [] }],
          },
          {
            type: 'dispatcher',
            values: [
              {
                filter: 'SUPERARE_WEBVIEW',
                webview_type: 'notification_box',
                webview_mode: 'devices_all',
                webview_props: {
                  notificationTitle: title,
                  notificationContent: 'Frete grátis nas compras de hoje.',
                  notificationButtonText: 'Ver oferta',
                  notificationButtonUrl: `${testSite.url}/carrinho`,
                  btnBackground: '#0b5fff',
                  btnColor: '#ffffff',
                },
              },
            ],
          },
        ],
      },
    });
  await onsite('Oferta do tênis de corrida', '/produto/tenis-corrida');
  await onsite('Boas-vindas à vitrine', '/produtos');

  // A day of a small shop through the collector: 30 visitors, two thirds on a phone.
  const url = (path: string) => `${testSite.url}${path}`;
  const visitors = Array.from({ length: 30 }, (_, i) => ({ vid: `vis-${i}-${Date.now()}`, mobile: i % 3 !== 0, i }));
  for (const v of visitors) {
    const path = ['/', '/produtos', '/produto/tenis-corrida', '/produto/camiseta-dry', '/produto/garrafa-termica'];
    const events: object[] = path.slice(0, 1 + (v.i % 5)).map((p) => ({ t: 'pv', u: url(p) }));
    if (v.i % 2 === 0) events.push({ t: 'ev', c: 'newsletter', p: { origem: 'rodapé' } });
    if (v.i % 4 === 1) events.push({ t: 'ev', c: 'carrinho', p: { produto: 'Tênis de corrida' } });
    if (v.i % 3 === 0)
      events.push({
        t: 'optin',
        s: {
          endpoint: `https://push.exemplo-teste.com.br/send/${v.vid}`,
          expirationTime: null,
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        },
      });
    await collect(request, testSite, domain.gero_id, v.vid, events, v.mobile ? MOBILE_UA : undefined);
  }
  // Some of those who got the on-site messages view them, click, open the cart and buy.
  const reached = visitors.filter((v) => v.i % 5 >= 1);
  for (const v of reached) {
    const messages: { d: string }[] = [];
    await expect
      .poll(
        async () => {
          messages.push(...(await pendingOnsite(request, domain.gero_id, v.vid)));
          return messages.length;
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    const events: object[] = messages.map((m) => ({ t: 'viewed', d: m.d }));
    if (v.i % 2 === 1) events.push(...messages.slice(0, 1).map((m) => ({ t: 'clicked', d: m.d })));
    await collect(request, testSite, domain.gero_id, v.vid, events, v.mobile ? MOBILE_UA : undefined);
    if (v.i % 2 === 1) {
      await collect(
        request,
        testSite,
        domain.gero_id,
        v.vid,
        [{ t: 'pv', u: url('/carrinho') }],
        v.mobile ? MOBILE_UA : undefined,
      );
      if (v.i % 4 === 1)
        await collect(
          request,
          testSite,
          domain.gero_id,
          v.vid,
          [{ t: 'cv', v: 349.9 + v.i, o: `PED-${v.i}` }],
          v.mobile ? MOBILE_UA : undefined,
        );
    }
  }
  await collect(request, testSite, domain.gero_id, visitors[3]!.vid, [{ t: 'optout' }]);
  await expect
    .poll(
      async () =>
        (
          await api<{ not_convertion: number }[]>(
            `/api/analytics/${domain.uuid}/momentums/performance?start=${today}&end=${today}`,
          )
        ).reduce((s, r) => s + r.not_convertion, 0),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0);

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/?domain=${domain.uuid}`);
    await expect(
      region(page, 'Desempenho dos momentums').getByRole('link', { name: 'Oferta do tênis de corrida' }),
    ).toBeVisible();
    // Charts load as they come on screen (first-load.spec.ts): scrolled to, each card draws its chart.
    for (const name of ['Opt-ins e opt-outs por dia', 'Impacto por evento']) {
      await region(page, name).scrollIntoViewIfNeeded();
      await expect(region(page, name).locator('.recharts-surface').first()).toBeVisible();
    }
    // Every card scrolled past once, so the full-page screenshot shows every chart drawn.
    for (const card of await page.locator('section[aria-labelledby]').all()) await card.scrollIntoViewIfNeeded();
    await page.waitForLoadState('networkidle');
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    // Nothing wider than the screen: wide tables scroll inside their cards.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // …and no card cuts its content off (a card clips what overflows it; scroll areas hold their own overflow).
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('section[aria-labelledby]')]
        .filter((card) => card.scrollWidth > card.clientWidth + 1)
        .map((card) => document.getElementById(card.getAttribute('aria-labelledby') ?? '')?.textContent),
    );
    expect(clipped).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`analytics-${width}.png`), fullPage: true });
    const pages = region(page, 'Páginas mais visitadas');
    // Centred first: scrolled to the top, the control would sit under the fixed header.
    await pages.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await pages.locator('label').filter({ hasText: 'Pizza' }).click();
    await expect(pages.locator('.recharts-pie').first()).toBeVisible();
    await pages.screenshot({ path: test.info().outputPath(`analytics-pie-${width}.png`) });
    await page.getByRole('button', { name: 'Conversões' }).click();
    const settings = page.getByRole('dialog', { name: 'Conversões' });
    await expect(settings.getByLabel('Página do carrinho')).toHaveValue('/carrinho');
    await page.screenshot({ path: test.info().outputPath(`analytics-conversions-${width}.png`) });
    await settings.getByRole('button', { name: 'Cancelar' }).click();
  }

  // A week: the per-momentum chart opens from its link (end > start, READINGS A-23).
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/?domain=${domain.uuid}&start=${shiftDay(today, -6)}&end=${today}`);
  await page.getByRole('button', { name: 'Gráfico diário de Oferta do tênis de corrida' }).click();
  const dialog = page.getByRole('dialog', { name: 'Gráfico diário: Oferta do tênis de corrida' });
  await expect(dialog.locator('.recharts-surface').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('analytics-momentum-chart.png') });
});
