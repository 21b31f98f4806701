import { dcmMessages as dm, momentumMessages as mm } from '@impeto/shared';
import { expect, type Locator, type Page } from '@playwright/test';
import { SELECTOR_CASES } from '../../packages/shared/src/momentums/css-selector.cases.ts';
import { isValidSelector } from '../../packages/shared/src/momentums/css-selector.ts';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, expectToast, signIn, test } from '../support/impeto.ts';
import { choose, listRow, listTab, openListTab, shortTag } from '../support/momentums.ts';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' });
const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** A screenshot of what the user sees, kept with the test's results (looked at while building the pages). */
async function shot(page: Page, name: string, width = 1440) {
  if ((page.viewportSize()?.width ?? 0) !== width) {
    await page.setViewportSize({ width, height: width > 800 ? 900 : 844 });
    // The shell's navbar animates when the layout changes.
    await page.waitForTimeout(500);
  }
  await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`) });
}

/** Types into a CodeMirror editor the way a user does: focus its content, select all, type. */
async function typeCode(editor: Locator, text: string) {
  await editor.click();
  await editor.press('ControlOrMeta+a');
  await editor.page().keyboard.insertText(text);
}

test("the server's selector check agrees with Chromium's querySelector on every case of the table", async ({
  page,
}) => {
  await page.setContent('<main><p>x</p></main>');
  const accepted = await page.evaluate(
    (selectors) =>
      selectors.map((s) => {
        try {
          document.querySelector(s);
          return true;
        } catch {
          return false;
        }
      }),
    SELECTOR_CASES.map(([s]) => s),
  );
  const disagreements = SELECTOR_CASES.filter(([s], i) => isValidSelector(s) !== accepted[i]).map(([s]) => s);
  expect(disagreements).toEqual([]);
  expect(accepted).toEqual(SELECTOR_CASES.map(([, valid]) => valid));
});

test('a GCD item is created in the manager, listed Ativo in /dcm, paused and removed', async ({
  page,
  request,
  testSite,
}) => {
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createValidatedDomain(page, request, account, testSite);
  const title = `Selo de frete ${shortTag()}`;

  await sidebar(page).getByRole('link', { name: 'GCD' }).click();
  await expect(page).toHaveURL(new RegExp(`/dcm\\?domain=${domain.uuid}`));
  await expect(sidebar(page).getByRole('link', { name: 'GCD' })).toHaveAttribute('data-active', 'true');
  await expect(page.getByRole('heading', { name: 'GCD', exact: true })).toBeVisible();
  await expect(page.getByText('Você ainda não criou conteúdos.')).toBeVisible();
  await shot(page, 'dcm-empty');

  await page.getByRole('main').getByRole('link', { name: 'Criar conteúdo' }).first().click();
  await expect(page).toHaveURL(/\/dcm\/manager\?domain=/);
  await expect(page.getByRole('heading', { name: 'Novo conteúdo' })).toBeVisible();
  await expect(sidebar(page).getByRole('link', { name: 'GCD' })).toHaveAttribute('data-active', 'true');

  // Salvar with nothing filled: the warning, and no request.
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/api/momentum/create')) posts.push(r.url());
  });
  await page.getByRole('button', { name: 'Salvar', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: mm.incomplete })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Últimos passos' })).toHaveCount(0);

  await page.getByRole('textbox', { name: 'Título', exact: true }).fill(title);
  const trigger = section(page, 'Gatilho');
  await choose(trigger, 'Comparação', 'Contém');
  const pages = trigger.getByRole('combobox', { name: 'Páginas' });
  await pages.fill('/produtos');
  await pages.press('Enter');

  const tags = section(page, 'Tags customizadas');
  await tags.getByRole('textbox', { name: 'Seletor CSS do elemento' }).fill('#vitrine >');
  await tags.getByText('No início', { exact: true }).click();
  await typeCode(
    tags.getByRole('textbox', { name: 'Código HTML' }),
    '<div class="selo-frete">Frete grátis hoje</div><script>window.parent.roubou = 1</script>',
  );
  await tags.getByRole('tab', { name: 'CSS' }).click();
  await typeCode(
    tags.getByRole('textbox', { name: 'Código CSS' }),
    '.selo-frete{background:#0b7;color:#fff;padding:8px}',
  );
  await tags.getByRole('textbox', { name: 'Exibições por visitante' }).fill('3');

  // The preview draws the HTML and CSS in a sandbox where scripts never run.
  const frame = tags.locator('iframe[title="Pré-visualização das tags customizadas"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(frame.contentFrame().getByText('Frete grátis hoje')).toBeVisible();
  await expect(frame.contentFrame().getByText('Frete grátis hoje')).toHaveCSS('background-color', 'rgb(0, 187, 119)');
  expect(await page.evaluate(() => (window as { roubou?: number }).roubou)).toBeUndefined();

  // A selector querySelector refuses stops the save with its message.
  await page.getByRole('button', { name: 'Salvar', exact: true }).click();
  await expect(tags.getByText(/Seletor CSS inválido/)).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Últimos passos' })).toHaveCount(0);
  await tags.getByRole('textbox', { name: 'Seletor CSS do elemento' }).fill('#vitrine > .produto');
  await expect(frame.contentFrame().locator('.gcd-host[data-label="#vitrine > .produto"]')).toBeVisible();
  await tags.scrollIntoViewIfNeeded();
  await shot(page, 'dcm-manager-tags');

  await page.getByRole('button', { name: 'Salvar', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Últimos passos' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(/HTML \(.+\), CSS \(.+\) em #vitrine > \.produto · afterbegin\./)).toBeVisible();
  await dialog.getByText('Template', { exact: true }).click();
  await expect(dialog.getByRole('img', { name: 'Pré-visualização da mensagem' })).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Mensagem' }).fill('Frete grátis acima de R$ 199');
  await expect(
    dialog.getByRole('img', { name: 'Pré-visualização da mensagem' }).getByText('Frete grátis acima de R$ 199'),
  ).toBeVisible();
  await shot(page, 'dcm-last-steps');
  await shot(page, 'dcm-last-steps', 390);
  await shot(page, 'dcm-last-steps');
  await dialog.getByText('Tags customizadas', { exact: true }).click();
  expect(posts).toEqual([]);
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expectToast(page, mm.created('dcm'));
  await expect(page).toHaveURL(new RegExp(`/dcm\\?domain=${domain.uuid}`));

  const row = listRow(page, title);
  await expect(row.getByText('Ativo', { exact: true })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Data de Agendamento' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Opções' })).toBeVisible();
  await shot(page, 'dcm-list');
  await shot(page, 'dcm-list', 390);
  await shot(page, 'dcm-list');

  // What was stored is what the manager showed.
  const token = await page.evaluate(() => JSON.parse(sessionStorage.getItem('impeto.session') ?? '{}').bearer_token);
  const listed = await request.get(`/api/momentum/list/${domain.uuid}?type=dcm`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const stored = (await listed.json()).data.find((i: { momentum_title: string }) => i.momentum_title === title);
  expect(stored.momentums[1].values[0]).toMatchObject({
    filter: 'pageview',
    comparation: 'contain',
    value: ['/produtos'],
  });
  expect(stored.momentums[2].values[0]).toMatchObject({
    filter: 'CELL_DCM',
    dispatcher_type: 'custom',
    htmlElement: '#vitrine > .produto',
    tagBehavior: 'afterbegin',
    recurrence: 3,
    customCss: '.selo-frete{background:#0b7;color:#fff;padding:8px}',
  });

  // View-only opens the manager with nothing editable.
  await row.getByRole('button', { name: `Visualizar ${title}` }).click();
  await expect(page).toHaveURL(/\/dcm\/manager\?.*uuid=.*viewonly/);
  await expect(page.getByRole('heading', { name: 'Visualizar conteúdo' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Seletor CSS do elemento' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Salvar', exact: true })).toHaveCount(0);
  await page.getByRole('main').getByRole('link', { name: 'Voltar' }).click();

  await listRow(page, title)
    .getByRole('button', { name: `Pausar ${title}` })
    .click();
  // GCD items are 'conteúdo do GCD' in their toasts (issue #29).
  await expectToast(page, dm.paused);
  await expect(listRow(page, title).getByText('Pausado', { exact: true })).toBeVisible();

  await listRow(page, title)
    .getByRole('button', { name: `Remover ${title}` })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Remover' });
  await expect(confirm.getByText(title)).toBeVisible();
  await confirm.getByRole('button', { name: 'Confirmar' }).click();
  await expectToast(page, dm.removed);
  await expect(listRow(page, title)).toHaveCount(0);
  await openListTab(page, 'Removidos');
  await expect(listRow(page, title).getByText('Removido', { exact: true })).toBeVisible();
  await expect(listTab(page, 'Removidos')).toContainText('1');

  await page.getByRole('main').getByRole('link', { name: 'Criar conteúdo' }).first().click();
  await expect(page.getByRole('heading', { name: 'Novo conteúdo' })).toBeVisible();
  await shot(page, 'dcm-manager-top');
  await shot(page, 'dcm-manager-top', 390);
  await section(page, 'Tags customizadas').scrollIntoViewIfNeeded();
  await shot(page, 'dcm-manager-tags', 390);
});
