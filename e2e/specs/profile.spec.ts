import { expect } from '@playwright/test';
import { createAccount, mailedLink } from '../support/accounts.ts';
import { collect } from '../support/analytics.ts';
import { createDomainThroughApi, expectToast, signIn, test } from '../support/impeto.ts';

test('profile: rename, change the e-mail through the mailed link, see and end another session, change the password', async ({
  page,
  request,
  browser,
}) => {
  const account = await createAccount(request);
  await signIn(page, account);
  // A second browser (another device) signed in as the same user.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signIn(otherPage, account);

  // A user without domains lands on /domains with the add modal open.
  await expect(page.getByRole('dialog', { name: 'Adicionando um novo domínio' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await page.getByRole('menuitem', { name: 'Perfil' }).click();
  await expect(page).toHaveURL(/\/profile/);
  await expect(page).toHaveTitle('Perfil · Ímpeto');

  const personal = page.getByRole('region', { name: 'Dados pessoais' });
  await personal.getByLabel('Nome completo').fill('Maria Clara Souza');
  await personal.getByRole('button', { name: 'Salvar nome' }).click();
  await expectToast(page, 'Nome atualizado com sucesso!');

  await personal.getByLabel('Novo e-mail').fill(`novo.${account.email}`);
  await personal.getByRole('button', { name: 'Enviar confirmação' }).click();
  await expectToast(page, 'Enviamos um link de confirmação para o novo e-mail. A troca vale quando ele for aberto.');
  await expect(personal.getByText(`novo.${account.email}`)).toBeVisible();
  const link = await mailedLink(request, `novo.${account.email}`, '/profile');
  await page.goto(link.pathname + link.search);
  await expectToast(page, 'E-mail alterado com sucesso!');
  await expect(page).not.toHaveURL(/email_token/);
  await expect(personal.getByText(`novo.${account.email}`)).toBeVisible();
  await expect(personal.getByText('Aguardando confirmação')).toHaveCount(0);

  // Two sessions: this one marked, the other one ended from here.
  const sessions = page.getByRole('table', { name: 'Sessões ativas' });
  await expect(sessions.getByRole('row')).toHaveCount(3);
  await expect(sessions.getByText('Esta sessão')).toBeVisible();
  await sessions.getByRole('button', { name: /^Encerrar sessão/ }).click();
  await expectToast(page, 'Sessão encerrada com sucesso!');
  await expect(sessions.getByRole('row')).toHaveCount(2);
  await otherPage.goto('/domains');
  await expect(otherPage).toHaveURL(/\/signin/);

  // The password: a wrong current one is refused; the right one ends every other session.
  await signIn(otherPage, account);
  const password = page.getByRole('region', { name: 'Senha' });
  await password.getByLabel('Senha atual').fill('nao-e-esta');
  await password.getByLabel('Nova senha', { exact: true }).fill('Girassol azul na janela 77');
  await password.getByLabel('Confirmação da nova senha').fill('Girassol azul na janela 77');
  await password.getByRole('button', { name: 'Trocar senha' }).click();
  await expect(password.getByText('A senha atual não confere.')).toBeVisible();
  await password.getByLabel('Senha atual').fill(account.password);
  await password.getByRole('button', { name: 'Trocar senha' }).click();
  await expectToast(page, 'Senha alterada com sucesso! As outras sessões foram encerradas.');
  await otherPage.goto('/domains');
  await expect(otherPage).toHaveURL(/\/signin/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Perfil' })).toBeVisible();
  await other.close();

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/profile-${width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
  }
});

test("payment: the self-hosted plan and this month's usage per domain, from what was collected", async ({
  page,
  request,
  testSite,
}) => {
  const account = await createAccount(request);
  await signIn(page, account);
  await page.goto('/payment');
  await expect(page.getByText('Nenhum domínio cadastrado')).toBeVisible();

  const domain = await createDomainThroughApi(page, request, account, { name: 'Loja Uso', url: testSite.url });
  await collect(request, testSite, domain.gero_id, 'ana', [
    { t: 'pv', u: `${testSite.url}/` },
    { t: 'pv', u: `${testSite.url}/produtos` },
    { t: 'ev', c: 'busca' },
  ]);
  await collect(request, testSite, domain.gero_id, 'bia', [{ t: 'pv', u: `${testSite.url}/` }]);

  await page.goto(`/payment?domain=${domain.uuid}`);
  await expect(page).toHaveTitle('Plano e uso · Ímpeto');
  await expect(page.getByRole('heading', { name: 'Auto-hospedado' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Uso por domínio' }).getByRole('row', { name: /Loja Uso/ });
  await expect
    .poll(async () => (await row.getByRole('cell').allInnerTexts()).slice(0, 3), { timeout: 20_000 })
    .toEqual(['Loja Uso', '4', '2']);

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screens/payment-${width}.png`, fullPage: true });
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
  }
});
