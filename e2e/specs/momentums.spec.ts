import { momentumMessages as mm } from '@impeto/shared';
import { expect, type Page } from '@playwright/test';
import { expectToast, test } from '../support/impeto.ts';
import {
  choose,
  fillPushChannelV2,
  listRow,
  listTab,
  openListTab,
  pickDayAhead,
  pushContent,
  readyToSend,
  shortTag,
} from '../support/momentums.ts';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Menu principal' });
const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** dd/mm/yyyy of a calendar label such as '25 novembro 2026'. */
const ddmmyyyy = (label: string) => {
  const [day, month, year] = label.split(' ');
  const months = [
    'janeiro',
    'fevereiro',
    'março',
    'abril',
    'maio',
    'junho',
    'julho',
    'agosto',
    'setembro',
    'outubro',
    'novembro',
    'dezembro',
  ];
  return `${day!.padStart(2, '0')}/${String(months.indexOf(month!) + 1).padStart(2, '0')}/${year}`;
};

test('a campaign is built in the v2 form, saved as Rascunho, edited, and saved Imediato', async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const title = `Black Friday ${shortTag()}`;
  const push = pushContent(testSite);

  await sidebar(page).getByRole('link', { name: 'Campanhas' }).click();
  await expect(page).toHaveURL(new RegExp(`/v2/campaigns\\?domain=${domain.uuid}`));
  await expect(page.getByRole('heading', { name: 'Campanhas' })).toBeVisible();
  await expect(page.getByText('Você ainda não criou campanhas.')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Criar campanha' }).first().click();
  await expect(page).toHaveURL(/\/v2\/campaign\/create\?domain=/);
  await expect(page.getByRole('heading', { name: 'Nova campanha' })).toBeVisible();

  // A campaign has no trigger and no finish: title, Filtros, Cronograma and Canal.
  await expect(section(page, 'Gatilhos')).toHaveCount(0);
  await expect(section(page, 'Finalização')).toHaveCount(0);
  await section(page, 'Título').getByRole('textbox', { name: 'Título', exact: true }).fill(title);
  await expect(section(page, 'Filtros').getByRole('switch', { name: /Filtrar o público/ })).not.toBeChecked();

  // Seguir with an empty channel is refused and names the missing fields.
  await page.getByRole('button', { name: 'Seguir' }).click();
  await expect(page.getByRole('alert').filter({ hasText: mm.incomplete })).toBeVisible();
  await expect(section(page, 'Canal').getByText('Escolha um canal.')).toBeVisible();

  await fillPushChannelV2(section(page, 'Canal'), push);
  await page.getByRole('button', { name: 'Seguir' }).click();

  // Resumo: every section in words and the channel's preview.
  await expect(page.getByText('Confira o resumo antes de salvar.')).toBeVisible();
  await expect(page.getByText('Resumo da campanha')).toBeVisible();
  await expect(page.getByRole('heading', { name: title, level: 3 })).toBeVisible();
  await expect(page.getByText('Todos os visitantes')).toBeVisible();
  await expect(page.getByRole('link', { name: push.redirect })).toBeVisible();
  await expect(page.getByText(push.name)).toBeVisible();
  await expect(page.getByText(push.title, { exact: true })).toBeVisible();
  await expect(page.getByText(`${push.message.slice(0, 50)}…`)).toBeVisible();
  // The preview names the site the notification comes from.
  await expect(page.getByText(`• ${new URL(testSite.url).host} •`)).toBeVisible();

  await page.getByRole('button', { name: 'Planejar campanha' }).click();
  await expect(page.getByRole('menuitem', { name: 'Imediato' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Agendamento' })).toBeVisible();
  await page.getByRole('menuitem', { name: 'Rascunho' }).click();
  await expectToast(page, mm.draftSaved);
  // A draft save stays on the page, which now edits the new draft (its uuid in the address).
  await page.waitForTimeout(2500);
  await expect(page).toHaveURL(/\/v2\/campaign\/create\?.*uuid=/);
  await expect(page.getByRole('heading', { name: 'Editar rascunho' })).toBeVisible();
  await expect(page.getByText('Resumo da campanha')).toBeVisible();
  // Saving again updates that draft instead of creating a second one.
  await page.getByRole('button', { name: 'Planejar campanha' }).click();
  await page.getByRole('menuitem', { name: 'Rascunho' }).click();
  await expectToast(page, mm.draftUpdated);
  await page.getByRole('main').getByRole('link', { name: 'Campanhas' }).click();
  await expect(page).toHaveURL(new RegExp(`/v2/campaigns\\?domain=${domain.uuid}$`));

  await openListTab(page, 'Rascunhos');
  await expect(listTab(page, 'Rascunhos')).toContainText('1');
  const row = listRow(page, title);
  await expect(row.getByText('Rascunho', { exact: true })).toBeVisible();
  await expect(row.getByText('CELL', { exact: true })).toBeVisible();
  // A draft has neither start nor pause.
  await expect(row.getByRole('button', { name: `Iniciar ${title}` })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Pausar ${title}` })).toHaveCount(0);

  await row.getByRole('button', { name: `Editar ${title}` }).click();
  await expect(page).toHaveURL(/\/v2\/campaign\/create\?.*uuid=/);
  await expect(page.getByRole('heading', { name: 'Editar rascunho' })).toBeVisible();
  const canal = section(page, 'Canal');
  await expect(section(page, 'Título').getByRole('textbox', { name: 'Título', exact: true })).toHaveValue(title);
  await expect(canal.getByRole('combobox', { name: 'Canal', exact: true })).toHaveValue('Notificação push');
  await expect(canal.getByRole('textbox', { name: 'Nome da notificação' })).toHaveValue(push.name);
  const message = canal.getByRole('textbox', { name: 'Mensagem da notificação' });
  await expect(message).toHaveValue(push.message);
  const newMessage = 'Últimas horas de Black Friday!';
  await message.fill(newMessage);
  await page.getByRole('button', { name: 'Seguir' }).click();
  await expect(page.getByText(newMessage, { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Planejar campanha' }).click();
  await page.getByRole('menuitem', { name: 'Imediato' }).click();
  // The draft already exists, so the save is an update.
  await expectToast(page, mm.updated('campaign'));
  await expect(page).toHaveURL(new RegExp(`/v2/campaigns\\?domain=${domain.uuid}$`));
  // Activating a draft is not 'editing a running momentum': no red error follows the success.
  await page.waitForTimeout(1000);
  await expect(page.getByRole('alert').filter({ hasText: mm.editActive })).toHaveCount(0);

  await openListTab(page, 'Ativos');
  await expect(listRow(page, title).getByText('Ativo', { exact: true })).toBeVisible();
  await expect(listRow(page, title).getByRole('button', { name: `Pausar ${title}` })).toBeVisible();
  await openListTab(page, 'Rascunhos');
  await expect(page.getByText('Nenhum rascunho salvo.')).toBeVisible();

  // The saved message is the edited one.
  await openListTab(page, 'Ativos');
  await listRow(page, title)
    .getByRole('button', { name: `Visualizar ${title}` })
    .click();
  await expect(page.getByRole('heading', { name: 'Visualizar' })).toBeVisible();
  await expect(page.getByText(newMessage, { exact: true })).toBeVisible();
});

test('leaving a new form asks to save as draft', async ({ page, request, testSite }) => {
  await readyToSend(page, request, testSite);
  const discarded = `Boas-vindas ${shortTag()}`;
  const kept = `Recompra ${shortTag()}`;

  const startNew = async (title: string) => {
    await sidebar(page).getByRole('link', { name: 'Momentums' }).click();
    await expect(page.getByRole('heading', { name: 'Momentums' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'Criar momentum' }).first().click();
    await expect(page.getByRole('heading', { name: 'Novo momentum' })).toBeVisible();
    await section(page, 'Título').getByRole('textbox', { name: 'Título', exact: true }).fill(title);
    await sidebar(page).getByRole('link', { name: 'Domínios' }).click();
  };
  const ask = page.getByRole('dialog', { name: 'Gostaria de salvar como rascunho?' });

  // Não: leaves, nothing saved.
  await startNew(discarded);
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Não' }).click();
  await expect(page).toHaveURL(/\/domains/);
  await sidebar(page).getByRole('link', { name: 'Momentums' }).click();
  await expect(page.getByText('Você ainda não criou momentums.')).toBeVisible();
  await expect(listRow(page, discarded)).toHaveCount(0);

  // An untouched form leaves without asking.
  await page.getByRole('main').getByRole('link', { name: 'Criar momentum' }).first().click();
  await expect(page.getByRole('heading', { name: 'Novo momentum' })).toBeVisible();
  await sidebar(page).getByRole('link', { name: 'Domínios' }).click();
  await expect(page).toHaveURL(/\/domains/);
  await expect(ask).toBeHidden();

  // Sim: saved as a draft, then leaves.
  await startNew(kept);
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Sim' }).click();
  await expectToast(page, mm.draftSaved);
  await expect(page).toHaveURL(/\/domains/);
  await sidebar(page).getByRole('link', { name: 'Momentums' }).click();
  await openListTab(page, 'Rascunhos');
  await expect(listRow(page, kept).getByText('Rascunho', { exact: true })).toBeVisible();
  await openListTab(page, 'Todos');
  await expect(listRow(page, kept)).toHaveCount(1);
  await expect(listRow(page, discarded)).toHaveCount(0);
});

test('a scheduled momentum shows as Agendado with its marker, opens read-only, is started, paused and removed', async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const title = `Carrinho abandonado ${shortTag()}`;
  const push = pushContent(testSite);

  await sidebar(page).getByRole('link', { name: 'Momentums' }).click();
  await page.getByRole('main').getByRole('link', { name: 'Criar momentum' }).first().click();
  await expect(page.getByRole('heading', { name: 'Novo momentum' })).toBeVisible();
  await section(page, 'Título').getByRole('textbox', { name: 'Título', exact: true }).fill(title);
  await expect(section(page, 'Filtros').getByRole('switch', { name: /Filtrar o público/ })).not.toBeChecked();

  const gatilhos = section(page, 'Gatilhos');
  await choose(gatilhos, 'Tipo de gatilho', 'Visualização de página');
  await choose(gatilhos, 'Comparação', 'Contém');
  const pages = gatilhos.getByRole('combobox', { name: 'Páginas' });
  await pages.fill('/carrinho');
  await pages.press('Enter');
  await expect(gatilhos.getByText('/carrinho', { exact: true })).toBeVisible();
  await fillPushChannelV2(section(page, 'Canal'), push);
  await page.getByRole('button', { name: 'Seguir' }).click();
  await expect(page.getByText('Resumo do momentum')).toBeVisible();
  await expect(page.getByText('Visualização de página: contém /carrinho')).toBeVisible();

  await page.getByRole('button', { name: 'Planejar campanha' }).click();
  await page.getByRole('menuitem', { name: 'Agendamento' }).click();
  const schedule = page.getByRole('dialog', { name: 'Agendar momentum' });
  await expect(schedule).toBeVisible();
  const when = schedule.getByRole('button', { name: 'Data e hora' });
  const day = await pickDayAhead(when, 3);
  await expect(when).toContainText(ddmmyyyy(day));
  await schedule.getByRole('button', { name: 'Agendar' }).click();
  await expectToast(page, mm.created('momentum'));
  await expect(page).toHaveURL(/\/v2\/momentums\?domain=/);

  await openListTab(page, 'Agendados');
  await expect(listTab(page, 'Agendados')).toContainText('1');
  const row = listRow(page, title);
  await expect(row.getByText('Agendado', { exact: true })).toBeVisible();
  // Date over time in the list (so the columns fit 1440 px).
  await expect(row.getByText(ddmmyyyy(day), { exact: true })).toBeVisible();
  // The badge must not upper-case it ('3D').
  await expect(row.getByLabel('Marcador 3d')).toHaveText('3d', { useInnerText: true });
  await expect(row.getByRole('button', { name: `Pausar ${title}` })).toHaveCount(0);

  // View only: the summary with the schedule, and nothing to save or edit.
  await row.getByRole('button', { name: `Visualizar ${title}` }).click();
  // The spec's view address: ref={uuid} with viewonly (doc 2 §2.1).
  await expect(page).toHaveURL(/[?&]ref=[0-9a-f-]{36}.*&viewonly/);
  const id = new URL(page.url()).searchParams.get('ref');
  expect(id).toBeTruthy();
  await expect(page.getByRole('heading', { name: 'Visualizar' })).toBeVisible();
  await expect(page.getByRole('heading', { name: title, level: 3 })).toBeVisible();
  await expect(page.getByText('Agendado', { exact: true })).toBeVisible();
  await expect(page.getByText(new RegExp(`^${ddmmyyyy(day)} - \\d{2}:\\d{2}$`))).toBeVisible();
  await expect(page.getByText('Visualização de página: contém /carrinho')).toBeVisible();
  await expect(page.getByText(push.title, { exact: true })).toBeVisible();
  await expect(page.getByText(/^Última atualização: /)).toBeVisible();
  for (const name of ['Planejar campanha', 'Salvar', 'Seguir'])
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Título', exact: true })).toHaveCount(0);
  await page.getByRole('main').getByRole('link', { name: 'Momentums' }).click();

  await expect(page.getByRole('heading', { name: 'Momentums' })).toBeVisible();
  await listRow(page, title)
    .getByRole('button', { name: `Iniciar ${title}` })
    .click();
  await expectToast(page, mm.started);
  await expect(listRow(page, title).getByText('Ativo', { exact: true })).toBeVisible();
  await expect(listRow(page, title).getByLabel(/^Marcador/)).toHaveCount(0);

  await listRow(page, title)
    .getByRole('button', { name: `Editar ${title}` })
    .click();
  await expectToast(page, mm.editActive, 'Erro');
  await expect(page).toHaveURL(/\/v2\/momentums\?/);

  // Reaching the edit form of a running momentum by its address sends the user back with the same message.
  await page.goto(`/v2/momentum/create?domain=${domain.uuid}&id=${id}`);
  await expectToast(page, mm.editActive, 'Erro');
  await expect(page).toHaveURL(/\/v2\/momentums\?domain=/);

  await listRow(page, title)
    .getByRole('button', { name: `Pausar ${title}` })
    .click();
  await expectToast(page, mm.paused);
  await expect(listRow(page, title).getByText('Pausado', { exact: true })).toBeVisible();
  await expect(listRow(page, title).getByRole('button', { name: `Iniciar ${title}` })).toBeVisible();

  await listRow(page, title)
    .getByRole('button', { name: `Remover ${title}` })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Remover' });
  await expect(confirm).toContainText(`Deseja realmente remover ${title}?`);
  await confirm.getByRole('button', { name: 'Confirmar' }).click();
  await expectToast(page, mm.removed);
  await expect(listRow(page, title)).toHaveCount(0);

  await openListTab(page, 'Removidos');
  const removed = listRow(page, title);
  await expect(removed.getByText('Removido', { exact: true })).toBeVisible();
  await expect(removed.getByRole('button')).toHaveCount(0);
});
