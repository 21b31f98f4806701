import { msg, trackingSnippet } from '@impeto/shared';
import { expect } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createDomainThroughApi, expectToast, serverPublicUrl, sessionToken, signIn, test } from '../support/impeto.ts';

test('the first domain is added through the auto-opened modal, its script copied, validated against a test site, disabled and enabled, and both versions changed', async ({
  page,
  context,
  request,
  baseURL,
  testSite,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  const account = await createAccount(request);
  const publicUrl = await serverPublicUrl(request);
  const name = 'Loja Corre Bem';
  await signIn(page, account);

  await expect(page).toHaveURL(/\/domains/);
  const create = page.getByRole('dialog', { name: 'Adicionando um novo domínio' });
  await expect(create).toBeVisible();
  await create.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expect(create.getByText('Por favor, informe um nome válido.')).toBeVisible();
  await expect(create.getByText('Por favor, informe uma URL válida contendo HTTPS.')).toBeVisible();
  await create.getByLabel('Nome').fill(name);
  await create.getByLabel('URL').fill(testSite.url);
  await create.getByRole('button', { name: 'Adicionar', exact: true }).click();
  await expectToast(page, msg.domain.created);
  await expect(create).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByText('Não verificado', { exact: true })).toBeVisible();
  await expect(row.getByRole('link', { name: `${testSite.url}/` })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  for (const item of ['Analytics', 'Momentums', 'Mídias', 'Canais']) {
    await expect(nav.getByRole('link', { name: item })).toHaveAttribute('aria-disabled', 'true');
  }

  // The script modal of the selected domain, from the sidebar.
  await page.getByRole('button', { name: 'Copiar script' }).click();
  const script = page.getByRole('dialog', { name: /Script de rastreamento/ });
  await expect(script).toBeVisible();
  await expect(script.getByText(name)).toBeVisible();
  await expect(script.getByText(testSite.url, { exact: true })).toBeVisible();
  const geroIdText = script.getByText(/^G-[0-9A-F]{12}$/);
  await expect(geroIdText).toBeVisible();
  const geroId = (await geroIdText.textContent())!.trim();
  const snippet = trackingSnippet({ publicUrl, root: testSite.url, geroId });
  await expect(script.locator('pre').first()).toHaveText(snippet);
  await script.getByRole('button', { name: 'Copiar script', exact: true }).click();
  await expect(script.getByRole('button', { name: 'Script copiado!' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(geroId);
  expect(copied).toBe(snippet);
  await page.keyboard.press('Escape');
  await expect(script).toBeHidden();

  // The site has the service worker but not yet the tag: the check fails and says why.
  testSite.setGeroId(geroId);
  testSite.setSnippet(false);
  await row.getByRole('button', { name: `Verificar script de ${name}` }).click();
  await expectToast(page, msg.domain.validateFailed, 'Erro');
  await expect(row.getByText('Não verificado', { exact: true })).toBeVisible();

  testSite.setSnippet(true);
  await row.getByRole('button', { name: `Verificar script de ${name}` }).click();
  await expectToast(page, msg.domain.validated);
  await expect(row.getByText('Ativo', { exact: true })).toBeVisible();
  for (const item of ['Analytics', 'Momentums', 'Mídias', 'Canais']) {
    await expect(nav.getByRole('link', { name: item })).toBeVisible();
    await expect(nav.getByRole('link', { name: item })).not.toHaveAttribute('aria-disabled', 'true');
  }

  const options = row.getByRole('button', { name: `Opções de ${name}` });
  await options.click();
  await page.getByRole('menuitem', { name: 'Desativar' }).click();
  await expectToast(page, msg.domain.disabled);
  await expect(row.getByText('Inativo', { exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Analytics' })).toHaveAttribute('aria-disabled', 'true');

  await options.click();
  await page.getByRole('menuitem', { name: 'Ativar' }).click();
  await expectToast(page, msg.domain.enabled);
  await expect(row.getByText('Ativo', { exact: true })).toBeVisible();

  // Versions: a new domain gets the latest gero; switch to the other one.
  const gero = row.getByRole('combobox', { name: `Versão Gero de ${name}` });
  const cnsw = row.getByRole('combobox', { name: `Versão CNSW de ${name}` });
  const latestGero = await gero.inputValue();
  expect(latestGero).toMatch(/^\d+\.\d+\.\d+$/);
  await gero.click();
  const geroOptions = page.getByRole('listbox').getByRole('option');
  await expect(geroOptions.first()).toBeVisible();
  const otherGero = (await geroOptions.allInnerTexts()).map((t) => t.trim()).find((v) => v && v !== latestGero);
  expect(otherGero, 'more than one gero version is offered').toBeTruthy();
  await page.getByRole('option', { name: otherGero, exact: true }).click();
  await expectToast(page, msg.version.changed('gero'));
  await expect(gero).toHaveValue(otherGero!);

  const currentCnsw = await cnsw.inputValue();
  await cnsw.click();
  const cnswOptions = page.getByRole('listbox').getByRole('option');
  await expect(cnswOptions.first()).toBeVisible();
  const otherCnsw = (await cnswOptions.allInnerTexts()).map((t) => t.trim()).find((v) => v && v !== currentCnsw);
  if (otherCnsw) {
    await page.getByRole('option', { name: otherCnsw, exact: true }).click();
    await expectToast(page, msg.version.changed('cnsw'));
    await expect(cnsw).toHaveValue(otherCnsw);
  } else {
    // Only one service-worker version exists today: it is the one selected.
    await page.keyboard.press('Escape');
    await expect(cnsw).toHaveValue('1.0.0');
  }

  await page.reload();
  await expect(gero).toHaveValue(otherGero!);
  await expect(cnsw).toHaveValue(otherCnsw ?? '1.0.0');

  // Rename.
  const renamed = 'Loja Corre Bem Outlet';
  await options.click();
  await page.getByRole('menuitem', { name: 'Editar' }).click();
  const edit = page.getByRole('dialog', { name: 'Editando domínio' });
  await expect(edit.getByLabel('Nome')).toHaveValue(name);
  await expect(edit.getByLabel('URL')).toHaveValue(`${testSite.url}/`);
  await edit.getByLabel('Nome').fill(renamed);
  await edit.getByRole('button', { name: 'Salvar' }).click();
  await expectToast(page, msg.domain.updated);
  await expect(edit).toBeHidden();
  const renamedRow = page.getByRole('row').filter({ hasText: renamed });
  await expect(renamedRow.getByText(renamed, { exact: true })).toBeVisible();
  // Same address: still validated.
  await expect(renamedRow.getByText('Ativo', { exact: true })).toBeVisible();

  // Remove, after confirming.
  await renamedRow.getByRole('button', { name: `Opções de ${renamed}` }).click();
  await page.getByRole('menuitem', { name: 'Remover' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remover domínio' });
  await expect(confirm.getByText(renamed)).toBeVisible();
  await confirm.getByRole('button', { name: 'Remover' }).click();
  await expectToast(page, msg.domain.removed);
  await expect(renamedRow).toHaveCount(0);
  await expect(page.getByRole('dialog', { name: 'Adicionando um novo domínio' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByText('Nenhum domínio cadastrado')).toBeVisible();
});

test('a domain of another company is never shown', async ({ browser, page, request }) => {
  const owner = await createAccount(request);
  const stranger = await createAccount(request);
  const secretName = `Loja secreta ${owner.username}`;

  await signIn(page, owner);
  const domain = await createDomainThroughApi(page, request, owner, {
    name: secretName,
    url: `https://${owner.username.replace(/_/g, '-')}.exemplo.com.br`,
  });
  await page.goto('/domains');
  await expect(page.getByRole('row').filter({ hasText: secretName })).toBeVisible();

  // Another company, in another browser.
  const strangerContext = await browser.newContext();
  const other = await strangerContext.newPage();
  await signIn(other, stranger);
  await expect(other).toHaveURL(/\/domains/);
  await expect(other.getByRole('dialog', { name: 'Adicionando um novo domínio' })).toBeVisible();
  await other.keyboard.press('Escape');
  await expect(other.getByText('Nenhum domínio cadastrado')).toBeVisible();
  await expect(other.getByText(secretName)).toHaveCount(0);
  await expect(other.getByRole('combobox', { name: 'Domínio selecionado' })).toBeDisabled();

  // Even asked for by its uuid, through the address bar or the API.
  await other.goto(`/domains?domain=${domain.uuid}`);
  await expect(other.getByText('Nenhum domínio cadastrado')).toBeVisible();
  await expect(other.getByText(secretName)).toHaveCount(0);
  await other.goto(`/channels?domain=${domain.uuid}`);
  await expect(other).toHaveURL(/\/domains$/);
  const token = await sessionToken(other);
  const foreignList = await request.get(`/api/domain/list/${owner.companyUuid}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(foreignList.status()).toBe(404);
  const ownList = await request.get(`/api/domain/list/${stranger.companyUuid}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect((await ownList.json()).data).toEqual([]);
  await strangerContext.close();
});
