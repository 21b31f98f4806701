import { expect, type Locator, type Page } from '@playwright/test';
import { sessionToken, test } from '../support/impeto.ts';
import { readyToSend, shortTag } from '../support/momentums.ts';

// Issue #29: what a marketer still tripped over in the diagram and the GCD list, seen in Chromium at the widths
// they work at (1440 px and a 390 px phone).

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  expect(b, 'the element is on the page').not.toBeNull();
  return b!;
};
/** The page never scrolls sideways. */
const noSideways = (page: Page) =>
  expect
    .poll(() => page.evaluate(() => (document.scrollingElement as HTMLElement).scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0);
/** The element's text is shown whole: nothing cut by an ellipsis or a line clamp. */
const shownWhole = (locator: Locator) =>
  expect
    .poll(() =>
      locator.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1),
    )
    .toBe(true);

async function createItem(page: Page, body: Record<string, unknown>) {
  const res = await page.request.post('/api/momentum/create', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as { uuid: string };
}

test('the diagram shows long values whole at 1440 px and stacks header, board, panel and save bar at 390 px', async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  // Made through the API as the demo makes its items: no channel_uuid, the block says the channel type.
  const item = await createItem(page, {
    domain_uuid: domain.uuid,
    type: 'momentum',
    status: 'Paused',
    momentum_title: `Liquidação de fim de ano ${shortTag()}`,
    momentum_description: 'Começa sozinha na data agendada, para quem olha a vitrine de tênis de corrida.',
    scheduled_at: new Date(Math.ceil((Date.now() + 3 * 86_400_000) / 900_000) * 900_000).toISOString(),
    momentums: [
      { type: 'filter', values: [{ filter: 'all' }] },
      {
        type: 'trigger',
        regex: false,
        values: [
          {
            filter: 'pageview',
            comparation: 'contain',
            value: ['/produtos/tenis-de-corrida-masculino'],
            dischargeIn: [],
          },
        ],
      },
      {
        type: 'dispatcher',
        values: [
          {
            filter: 'CELL_NOTIFICATION',
            name: 'Liquidação',
            title: 'Liquidação de fim de ano',
            message: 'Até 50% off em toda a loja.',
            icon_uri: `${testSite.url}/icone.png`,
            image: '',
            redirect_uri: `${testSite.url}/produtos`,
            intervalRecurrency: [],
          },
        ],
      },
    ],
  });

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/momentum/diagram?domain=${domain.uuid}&id=${item.uuid}`);
  await expect(page.getByTestId('panel-heading')).toHaveText('Passo 4');
  // The chain's summaries are whole on the board, which has room for them.
  await shownWhole(page.getByTestId('diagram-node-trigger').locator('[title]'));
  await shownWhole(page.getByTestId('diagram-node-dispatcher').locator('[title]'));
  // The item's channel is the domain's push channel, found by the block's type.
  await page.getByRole('button', { name: 'Editar Canal' }).click();
  await expect(page.getByRole('combobox', { name: /^Canal/ })).toHaveValue('Notificação push');
  await page.getByRole('button', { name: 'Blocos' }).click();
  // The panel is wide enough for the trigger's choices.
  await page.getByRole('button', { name: 'Editar Gatilho' }).click();
  await shownWhole(page.getByRole('combobox', { name: 'Tipo de gatilho' }));
  await page.screenshot({ path: test.info().outputPath('diagram-gatilho-1440.png') });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(600);
  await noSideways(page);
  const title = page.getByRole('heading', { level: 3 });
  await shownWhole(title);
  const description = page.getByRole('button', { name: 'Editar descrição' });
  const board = page.locator('.react-flow');
  const panel = page
    .getByTestId('panel-heading')
    .locator('xpath=ancestor::div[contains(@class, "mantine-Paper-root")][1]');
  const back = page.getByRole('link', { name: 'Voltar' });
  const save = page.getByRole('button', { name: 'Salvar', exact: true });
  const t = await box(title);
  const d = await box(description);
  const b = await box(board);
  const p = await box(panel);
  const v = await box(back);
  const s = await box(save);
  expect(t.y + t.height, 'title above the description').toBeLessThanOrEqual(d.y + 1);
  expect(d.y + d.height, 'description above the board').toBeLessThanOrEqual(b.y + 1);
  expect(b.y + b.height, 'board above the panel').toBeLessThanOrEqual(p.y + 1);
  expect(p.y + p.height, 'panel above Voltar').toBeLessThanOrEqual(v.y + 1);
  expect(p.y + p.height, 'panel above Salvar').toBeLessThanOrEqual(s.y + 1);
  expect(b.height, 'the board keeps room for the chain').toBeGreaterThanOrEqual(320);
  await page.screenshot({ path: test.info().outputPath('diagram-gatilho-390.png'), fullPage: true });
});

test('leaving the diagram with unsaved changes asks first: Voltar, the sidebar and closing the tab', async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  await page.goto(`/momentum/diagram?domain=${domain.uuid}`);
  await page.getByRole('button', { name: 'Adicionar Filtro', exact: true }).click();

  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Momentums' }).click();
  const ask = page.getByRole('dialog', { name: 'Descartar alterações?' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Continuar editando' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page).toHaveURL(/\/momentum\/diagram/);
  await expect(page.getByTestId('diagram-node-filter')).toBeVisible();

  // Reloading asks the browser's own question; dismissed, the work stays.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    }),
  );
  void page.reload().catch(() => {});
  expect(await asked).toBe('beforeunload');
  await expect(page.getByTestId('diagram-node-filter')).toBeVisible();

  await page.getByRole('link', { name: 'Voltar' }).click();
  await ask.getByRole('button', { name: 'Descartar' }).click();
  await expect(page).toHaveURL(new RegExp(`/v2/momentums\\?domain=${domain.uuid}`));
});

test("the GCD list gives a long title the width a 1440 px screen has, and has no 'Rascunhos' tab", async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const title = `Faixa da Semana do Corredor acima da lista de produtos ${shortTag()}`;
  await createItem(page, {
    domain_uuid: domain.uuid,
    type: 'dcm',
    status: 'Active',
    momentum_title: title,
    momentums: [
      { type: 'filter', values: [{ filter: 'all' }] },
      {
        type: 'trigger',
        values: [{ filter: 'pageview', comparation: 'contain', value: ['/produtos'], dischargeIn: [] }],
      },
      {
        type: 'dispatcher',
        values: [
          {
            filter: 'CELL_DCM',
            dispatcher_type: 'custom',
            htmlElement: 'main .wrap',
            tagBehavior: 'afterbegin',
            customHtml: '<p>Semana do Corredor</p>',
          },
        ],
      },
    ],
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/dcm?domain=${domain.uuid}`);
  const cell = page.getByRole('row').filter({ hasText: title }).getByText(title, { exact: true });
  await expect(cell).toBeVisible();
  await shownWhole(cell);
  await expect(page.getByRole('tab', { name: /^Rascunhos/ })).toHaveCount(0);
  await noSideways(page);
  await page.screenshot({ path: test.info().outputPath('dcm-list-1440.png') });
});
