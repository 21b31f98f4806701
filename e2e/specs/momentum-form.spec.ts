import { momentumMessages as mm } from '@impeto/shared';
import { expect, type Page } from '@playwright/test';
import { expectToast, sessionToken, test } from '../support/impeto.ts';
import {
  calendarDayLabel,
  choose,
  fillPushChannelV2,
  pushContent,
  readyToSend,
  shortTag,
} from '../support/momentums.ts';

// The v2 form's details of issue #14: what a user types into triggers and pickers, and what a refused save says.

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

async function newMomentum(page: Page, domainUuid: string, title: string) {
  await page.goto(`/v2/momentum/create?domain=${domainUuid}`);
  await expect(page.getByRole('heading', { name: 'Novo momentum' })).toBeVisible();
  await section(page, 'Título').getByRole('textbox', { name: 'Título', exact: true }).fill(title);
}

test('page triggers: commas split values, and Igual a refuses a word that is not a URL', async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const title = `Páginas ${shortTag()}`;
  await newMomentum(page, domain.uuid, title);
  const gatilhos = section(page, 'Gatilhos');
  await choose(gatilhos, 'Tipo de gatilho', 'Visualização de página');

  await choose(gatilhos, 'Comparação', 'Igual a');
  const pages = gatilhos.getByRole('combobox', { name: 'Páginas' });
  await pages.fill('carrinho');
  await pages.press('Enter');
  const host = new URL(testSite.url).host;
  await expect(gatilhos.getByText(`Informe uma URL válida. (Ex.: ${host})`).last()).toBeVisible();
  await expect(gatilhos.getByText('https://carrinho', { exact: true })).toHaveCount(0);

  // Contém takes paths; 'a, b' is two values.
  await choose(gatilhos, 'Comparação', 'Contém');
  await pages.fill('/carrinho, /checkout');
  await pages.press('Enter');
  await expect(gatilhos.getByText('/carrinho', { exact: true })).toBeVisible();
  await expect(gatilhos.getByText('/checkout', { exact: true })).toBeVisible();
  await expect(gatilhos.getByText('/carrinho, /checkout', { exact: true })).toHaveCount(0);

  await fillPushChannelV2(section(page, 'Canal'), pushContent(testSite));
  await page.getByRole('button', { name: 'Seguir' }).click();
  await expect(page.getByText('Visualização de página: contém /carrinho, /checkout')).toBeVisible();
});

test('the finish picker stays on the 15-minute grid when today is picked', async ({ page, request, testSite }) => {
  const { domain } = await readyToSend(page, request, testSite);
  await newMomentum(page, domain.uuid, `Fim ${shortTag()}`);
  const fim = section(page, 'Finalização');
  await fim.getByRole('switch', { name: /Finalizar por data/ }).check();
  const field = fim.getByRole('button', { name: 'Data de finalização' });
  await field.click();
  const calendar = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('table') })
    .last();
  const today = calendarDayLabel(0);
  await calendar.getByRole('button', { name: today, exact: true }).click();
  await calendar.locator('.mantine-DateTimePicker-submitButton').click();
  await expect(field).toHaveText(/\d{2}\/\d{2}\/\d{4} - \d{2}:(00|15|30|45)$/);
  const shown = (await field.textContent()) ?? '';
  const [, hh, mi] = /(\d{2}):(\d{2})$/.exec(shown) ?? [];
  const now = new Date(new Date().toLocaleString('en-US', { timeZone: 'America/Sao_Paulo' }));
  expect(Number(hh) * 60 + Number(mi)).toBeGreaterThan(now.getHours() * 60 + now.getMinutes() - 1);
});

test("a refused save shows the spec's failure toast, and the reason beside the title", async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const title = `Duplicado ${shortTag()}`;
  const token = await sessionToken(page);
  const first = await request.post('/api/momentum/create', {
    headers: { Authorization: `Bearer ${token}` },
    data: { domain_uuid: domain.uuid, type: 'momentum', momentum_title: title, status: 'Draft' },
  });
  expect(first.status()).toBe(200);

  await newMomentum(page, domain.uuid, title);
  const gatilhos = section(page, 'Gatilhos');
  await choose(gatilhos, 'Tipo de gatilho', 'Visualização de página');
  await choose(gatilhos, 'Comparação', 'Contém');
  const pages = gatilhos.getByRole('combobox', { name: 'Páginas' });
  await pages.fill('/produtos');
  await pages.press('Enter');
  await fillPushChannelV2(section(page, 'Canal'), pushContent(testSite));
  await page.getByRole('button', { name: 'Seguir' }).click();
  await page.getByRole('button', { name: 'Planejar campanha' }).click();
  await page.getByRole('menuitem', { name: 'Imediato' }).click();
  await expectToast(page, mm.saveFailed, 'Erro');
  // The reason stays on the page, out of the toast.
  await expect(page.getByRole('alert').filter({ hasText: 'Erro' }).filter({ hasText: mm.titleDuplicate })).toHaveCount(
    0,
  );
  await expect(page.getByRole('main').getByText(mm.titleDuplicate)).toBeVisible();
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The shell collapses its navbar with a transition after a resize.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: test.info().outputPath(`refused-save-${width}.png`), fullPage: true });
  }
  await expect(page).toHaveURL(/\/v2\/momentum\/create/);
});

test('an event trigger takes a second condition: another category and its comparison', async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const title = `Eventos ${shortTag()}`;
  // The domain's event categories and keys, as the person API lists them once visitors sent events.
  const categories = [
    { uuid: '7a1f6c1e-0000-4000-8000-000000000001', parent_category: 'compra' },
    { uuid: '7a1f6c1e-0000-4000-8000-000000000002', parent_category: 'carrinho' },
  ];
  await page.route(`**/api/person/event/${domain.uuid}`, (route) =>
    route.fulfill({ json: { message: 'ok', data: categories } }),
  );
  await page.route('**/api/person/event/filters/*', (route) =>
    route.fulfill({ json: { message: 'ok', data: [{ key: 'produto' }] } }),
  );
  await page.route('**/api/person/event/filters/*/key/*', (route) =>
    route.fulfill({ json: { message: 'ok', data: [{ value: 'tenis' }] } }),
  );

  await newMomentum(page, domain.uuid, title);
  const gatilhos = section(page, 'Gatilhos');
  await choose(gatilhos, 'Tipo de gatilho', 'Evento');
  await choose(gatilhos, 'Categoria', 'compra');
  await choose(gatilhos, 'Chave', 'produto');
  await choose(gatilhos, 'Comparação', 'Igual a');
  const values = gatilhos.getByRole('combobox', { name: 'Valores' });
  await values.fill('tenis, meia');
  await values.press('Enter');
  await expect(gatilhos.getByText('meia', { exact: true })).toBeVisible();
  await choose(gatilhos, 'Segunda categoria', 'carrinho');
  await choose(gatilhos, 'Comparação da segunda condição', 'Contém');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // The shell collapses its navbar with a transition after a resize.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await gatilhos.screenshot({ path: test.info().outputPath(`trigger-events-${width}.png`) });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await fillPushChannelV2(section(page, 'Canal'), pushContent(testSite));
  await page.getByRole('button', { name: 'Seguir' }).click();
  await page.getByRole('button', { name: 'Planejar campanha' }).click();
  await page.getByRole('menuitem', { name: 'Imediato' }).click();
  await expectToast(page, mm.created('momentum'));

  const list = await request.get(`/api/momentum/list/${domain.uuid}?type=momentum`, {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
  });
  const saved = (
    (await list.json()).data as { momentum_title: string; momentums: { type: string; values: unknown[] }[] }[]
  )
    .find((m) => m.momentum_title === title)!
    .momentums.find((b) => b.type === 'trigger')!.values[0];
  expect(saved).toMatchObject({
    filter: 'events',
    parentCategory: 'compra',
    key: 'produto',
    comparation: '==',
    value: ['tenis', 'meia'],
    parentCategory2: 'carrinho',
    comparation2: 'contain',
  });
});
