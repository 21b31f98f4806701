import { momentumMessages as mm } from '@impeto/shared';
import { expect, type Page } from '@playwright/test';
import { expectToast, test } from '../support/impeto.ts';
import {
  choose,
  listRow,
  listTab,
  openListTab,
  pickDayAhead,
  pushContent,
  readyToSend,
  shortTag,
} from '../support/momentums.ts';

const panelHeading = (page: Page) => page.getByTestId('panel-heading');

test('a momentum is built in the diagram with filter, pageview trigger, push channel and finish, saved with Agendamento', async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const title = `Carrinho no diagrama ${shortTag()}`;
  const push = pushContent(testSite);

  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Momentums' }).click();
  await page.getByRole('main').getByRole('link', { name: 'Criar no diagrama' }).click();
  await expect(page).toHaveURL(new RegExp(`/momentum/diagram\\?domain=${domain.uuid}`));

  // The first-time tour: six steps, then never again.
  for (let step = 1; step <= 6; step++) {
    const tour = page.getByRole('dialog').filter({ hasText: `Passo ${step} de 6` });
    await expect(tour).toBeVisible();
    await tour.getByRole('button', { name: step === 6 ? 'Concluir' : 'Próximo' }).click();
  }
  await expect(page.getByText(/Passo \d de 6/)).toHaveCount(0);
  await page.reload();
  await expect(panelHeading(page)).toHaveText('Passo 1');
  await expect(page.getByText(/Passo \d de 6/)).toHaveCount(0);

  await expect(page.getByRole('heading', { name: 'Momentum sem título' })).toBeVisible();
  await expect(page.getByText('Monte seu momentum')).toBeVisible();
  await expect(panelHeading(page)).toHaveText('Passo 1');
  await page.getByRole('button', { name: 'Editar título' }).click();
  await page.getByRole('textbox', { name: 'Título', exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Título', exact: true }).press('Enter');
  await expect(page.getByRole('heading', { name: title })).toBeVisible();

  // Blocks come in order: only the filter can be added first.
  await expect(page.getByRole('button', { name: 'Adicionar Gatilho' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Adicionar Filtro', exact: true }).click();
  await choose(page.getByRole('main'), 'Filtro', 'Todos');
  await page.getByRole('button', { name: 'Blocos' }).click();
  await expect(panelHeading(page)).toHaveText('Passo 2');
  await expect(page.getByTestId('diagram-node-filter')).toContainText('Todos os visitantes');

  await page.getByRole('button', { name: 'Adicionar Gatilho', exact: true }).click();
  await choose(page.getByRole('main'), 'Tipo de gatilho', 'Visualização de página');
  await choose(page.getByRole('main'), 'Comparação', 'Contém');
  const pages = page.getByRole('combobox', { name: 'Páginas' });
  await pages.fill('/carrinho');
  await pages.press('Enter');
  await page.getByRole('button', { name: 'Blocos' }).click();
  await expect(panelHeading(page)).toHaveText('Passo 3');
  await expect(page.getByTestId('diagram-node-trigger')).toContainText('Visualização de página: contém /carrinho');

  await page.getByRole('button', { name: 'Adicionar Canal', exact: true }).click();
  await choose(page.getByRole('main'), /^Canal/, 'Notificação push');
  await page.getByRole('textbox', { name: 'Nome da notificação' }).fill(push.name);
  await page.getByRole('textbox', { name: 'Título', exact: true }).fill(push.title);
  await page.getByRole('textbox', { name: 'Mensagem', exact: true }).fill(push.message);
  await page.getByRole('textbox', { name: 'URL do ícone' }).fill(push.icon);
  await page.getByRole('textbox', { name: 'URL de redirecionamento' }).fill(push.redirect);
  await page.getByRole('button', { name: 'Blocos' }).click();
  await expect(panelHeading(page)).toHaveText('Passo 4');
  await expect(page.getByTestId('diagram-node-dispatcher')).toContainText(`Notificação push: ${push.title}`);

  await page.getByRole('button', { name: 'Adicionar Final', exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Finalizar por data' })).toBeChecked();
  await pickDayAhead(page.getByRole('button', { name: 'Data de finalização' }), 10);
  await page.getByRole('button', { name: 'Blocos' }).click();
  await expect(panelHeading(page)).toHaveText('Todos os blocos foram adicionados');
  await expect(page.getByTestId('diagram-node-finish')).toContainText('Finaliza em');

  await page.getByRole('button', { name: 'Salvar como' }).click();
  await page.getByRole('menuitem', { name: 'Agendamento' }).click();
  const schedule = page.getByRole('dialog', { name: 'Agendar momentum' });
  await expect(schedule).toBeVisible();
  await pickDayAhead(schedule.getByRole('button', { name: 'Data e hora' }), 2);
  await schedule.getByRole('button', { name: 'Agendar' }).click();
  await expectToast(page, mm.created('momentum'));

  await expect(page).toHaveURL(new RegExp(`/v2/momentums\\?domain=${domain.uuid}$`));
  await openListTab(page, 'Agendados');
  await expect(listTab(page, 'Agendados')).toContainText('1');
  const row = listRow(page, title);
  await expect(row.getByText('Agendado', { exact: true })).toBeVisible();
  await expect(row.getByLabel('Marcador 2d')).toHaveText('2d');
  await expect(row.getByText('CELL', { exact: true })).toBeVisible();

  // What the diagram saved reads back in the v2 summary.
  await row.getByRole('button', { name: `Visualizar ${title}` }).click();
  await expect(page.getByText('Todos os visitantes')).toBeVisible();
  await expect(page.getByText('Visualização de página: contém /carrinho')).toBeVisible();
  await expect(page.getByRole('link', { name: push.redirect })).toBeVisible();
  await expect(page.getByText(push.title, { exact: true })).toBeVisible();
  await expect(page.getByText('Sem data de finalização')).toHaveCount(0);
});
