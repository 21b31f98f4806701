import type { DcmStats } from '@impeto/shared';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, sessionToken, signIn, test } from '../support/impeto.ts';
import type { TestSite } from '../test-site/site.ts';

/*
 * GCD end to end: items created through the API on a verified domain, a visitor on the test website in real
 * Chromium, the tag's injector placing them, and its reports reaching the list API's dcm_stats.
 */

type Item = { uuid: string; momentum_title: string; dcm_stats: DcmStats };

async function setUp(page: Page, request: APIRequestContext, site: TestSite) {
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createValidatedDomain(page, request, account, site);
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  const create = async (title: string, momentums: object[]) => {
    const res = await request.post('/api/momentum/create', {
      headers,
      data: { domain_uuid: domain.uuid, type: 'dcm', momentum_title: title, status: 'Active', momentums },
    });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()).data as { uuid: string };
  };
  const list = async () => {
    const res = await request.get(`/api/momentum/list/${domain.uuid}?type=dcm`, { headers });
    expect(res.status()).toBe(200);
    return (await res.json()).data as Item[];
  };
  return { domain, create, list };
}

const onPage = (path: string) => ({
  type: 'trigger',
  regex: false,
  values: [{ filter: 'pageview', comparation: 'contain', value: [path], dischargeIn: [] }],
});
const html = (values: Record<string, unknown>) => ({
  type: 'dispatcher',
  values: [{ filter: 'CELL_DCM', containHtmlElement: '', containText: '', timeout: '', recurrence: '', ...values }],
});
const runs = (name: string) =>
  `window.__gcd = window.__gcd || {}; window.__gcd.${name} = (window.__gcd.${name} || 0) + 1;`;

test('GCD content lands exactly at beforeend, afterbegin and replace, styled, its JS run once, and leaves after its timeout', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { create, list } = await setUp(page, request, testSite);
  await create('Fim da grade', [
    onPage('/produtos'),
    html({
      htmlElement: '.grid',
      tagBehavior: 'beforeend',
      customHtml: '<p id="gcd-fim">Frete grátis acima de R$ 299</p>',
      customCss: '#gcd-fim{color:rgb(200, 0, 0)}',
      customJs: runs('fim'),
      timeout: '4',
    }),
  ]);
  const topo = await create('Topo da página', [
    onPage('/produtos'),
    html({
      htmlElement: 'main .wrap',
      tagBehavior: 'afterbegin',
      customHtml: '<p id="gcd-topo"><a href="#cupom">Use o cupom CORRE10</a></p>',
      customCss: '#gcd-topo{background-color:rgb(0, 0, 200)}',
      customJs: runs('topo'),
    }),
  ]);
  await create('Título trocado', [
    onPage('/produtos'),
    html({
      htmlElement: 'h1',
      tagBehavior: 'replace',
      containText: 'Camiseta',
      customHtml: '<span id="gcd-titulo">Produtos em promoção</span>',
      customJs: runs('titulo'),
      timeout: '4',
    }),
  ]);

  const visitor = await browser.newContext();
  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/produtos`);

  const fim = shop.locator('#gcd-fim');
  await expect(fim).toBeVisible();
  const places = await shop.evaluate(() => ({
    gridLast: document.querySelector('.grid')!.lastElementChild?.querySelector('#gcd-fim') !== null,
    wrapFirst: document.querySelector('main .wrap')!.firstElementChild?.querySelector('#gcd-topo') !== null,
    // replace: the whole <h1> gave way to the content, in its place.
    h1: document.querySelector('h1')?.outerHTML ?? null,
    replaced: document.querySelector('#gcd-titulo')?.closest('gero-dcm')?.nextElementSibling?.className ?? null,
  }));
  expect(places).toEqual({ gridLast: true, wrapFirst: true, h1: null, replaced: 'grid' });
  await expect(fim).toHaveCSS('color', 'rgb(200, 0, 0)');
  await expect(shop.locator('#gcd-topo')).toHaveCSS('background-color', 'rgb(0, 0, 200)');
  // Each script ran once for its one insertion.
  await shop.waitForTimeout(500);
  expect(await shop.evaluate(() => (window as unknown as { __gcd: unknown }).__gcd)).toEqual({
    fim: 1,
    topo: 1,
    titulo: 1,
  });

  // A click inside the content is reported, like an on-site message's.
  await shop.locator('#gcd-topo a').click();

  // After 4 s the timed items leave (the replaced title comes back); the one without a timeout stays.
  await expect(fim).toHaveCount(0, { timeout: 8_000 });
  await expect(shop.locator('h1')).toHaveText('Produtos');
  await expect(shop.locator('#gcd-topo')).toBeVisible();
  expect(await shop.evaluate(() => document.querySelectorAll('style[data-gero-dcm]').length)).toBe(1);

  await expect
    .poll(async () => (await list()).find((i) => i.uuid === topo.uuid)?.dcm_stats, { timeout: 20_000 })
    .toEqual({ shown: 1, clicked: 1, missing: null });
  await visitor.close();
});

test('GCD shows at most `recurrence` times per visitor and nothing to a visitor its filter excludes', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { create } = await setUp(page, request, testSite);
  const banner = (id: string, text: string) =>
    html({ htmlElement: 'main .wrap', tagBehavior: 'beforeend', customHtml: `<p id="${id}">${text}</p>` });
  await create('Uma vez só', [
    onPage('/'),
    html({
      htmlElement: 'main .wrap',
      tagBehavior: 'beforeend',
      customHtml: '<p id="gcd-uma-vez">Bem-vindo</p>',
      recurrence: '1',
    }),
  ]);
  await create('Só para francês', [
    {
      type: 'filter',
      values: [{ filter: 'user_stored_data.navigator.language', comparation: '==', value: ['fr-FR'] }],
    },
    onPage('/'),
    banner('gcd-frances', 'Bonjour'),
  ]);
  await create('Só para Chrome', [
    {
      type: 'filter',
      values: [{ filter: 'user_stored_data.navigator.browser', comparation: '==', value: ['Chrome'] }],
    },
    onPage('/'),
    banner('gcd-chrome', 'Oferta para Chrome'),
  ]);

  const visitor = await browser.newContext();
  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/`);
  await expect(shop.locator('#gcd-chrome')).toBeVisible();
  await expect(shop.locator('#gcd-uma-vez')).toBeVisible();
  await expect(shop.locator('#gcd-frances')).toHaveCount(0);

  // The second visit: the filtered-in item again, the once-only item no more (the count is the visitor's own).
  await shop.reload();
  await expect(shop.locator('#gcd-chrome')).toBeVisible();
  await shop.waitForTimeout(1_000);
  await expect(shop.locator('#gcd-uma-vez')).toHaveCount(0);
  await expect(shop.locator('#gcd-frances')).toHaveCount(0);

  // Another visitor has a count of their own.
  const other = await (await browser.newContext()).newPage();
  await other.goto(`${testSite.url}/`);
  await expect(other.locator('#gcd-uma-vez')).toBeVisible();
  await visitor.close();
});

test('a selector that matches nothing for 10 s is reported, reaches the list API with the page and shows on the GCD list', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, create, list } = await setUp(page, request, testSite);
  const broken = await create('Seletor quebrado', [
    onPage('/carrinho'),
    html({ htmlElement: '#barra-de-ofertas', tagBehavior: 'beforeend', customHtml: '<p>Oferta</p>' }),
  ]);
  const visitor = await browser.newContext();
  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/carrinho`);
  const missing = await expect
    .poll(async () => (await list()).find((i) => i.uuid === broken.uuid)?.dcm_stats.missing ?? null, {
      timeout: 30_000,
    })
    .not.toBeNull()
    .then(async () => (await list()).find((i) => i.uuid === broken.uuid)!.dcm_stats.missing!);
  expect(missing.page).toBe(`${testSite.url}/carrinho`);
  expect(Math.abs(Date.parse(missing.last_seen) - Date.now())).toBeLessThan(60_000);
  await visitor.close();

  // The site owner sees it on the GCD list, under the item, with the page.
  await page.goto(`/dcm?domain=${domain.uuid}`);
  const row = page.getByRole('row').filter({ hasText: 'Seletor quebrado' });
  await expect(row.getByText('seletor não encontrado')).toBeVisible();
  await expect(row.getByText(/^\/carrinho/)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('dcm-broken-selector.png') });
});
