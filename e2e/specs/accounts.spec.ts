import { expect, test } from '@playwright/test';
import { createAccount, mailedLink, newAccountData, signInThroughForm } from '../support/accounts.ts';

test('a new company signs up, validates its e-mail, signs in, sees the shell and signs out', async ({
  page,
  request,
}) => {
  const data = newAccountData();
  await page.goto('/signup/company');
  await page.getByRole('button', { name: 'Avançar' }).click();
  await expect(page.getByText('Provide a company name')).toBeVisible();
  await page.getByLabel('Nome da empresa ou apelido').fill(data.company);
  await page.getByRole('button', { name: 'Avançar' }).click();

  await expect(page).toHaveURL(/\/signup\/user$/);
  await page.getByLabel('Nome completo').fill(data.name);
  await page.getByLabel('Nome de usuário').fill(data.username);
  await page.getByLabel('E-mail').fill(data.email);
  await page.getByLabel('Senha', { exact: true }).fill(data.password);
  await page.getByLabel('Confirmação de senha').fill(data.password);
  await page.getByRole('button', { name: /Cadastrar|Criar conta|Finalizar/ }).click();
  await expect(page.getByText('User has been created')).toBeVisible();

  const link = await mailedLink(request, data.email, '/validate');
  await page.goto(link.pathname + link.search);
  await expect(page).toHaveURL(/\/signin$/);
  await expect(page.getByText('Usuário validado com sucesso!')).toBeVisible();
  // The greeting is shown once: a reload of /signin does not repeat it.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Entrar na sua conta' })).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(page.getByText('Usuário validado com sucesso!')).toHaveCount(0);

  await signInThroughForm(page, data);
  await expect(page).toHaveURL(/\/domains/);
  await expect(page.getByRole('dialog', { name: 'Adicionando um novo domínio' })).toBeVisible();
  await expect(
    page
      .getByText('Clique no botão no canto superior direito para adicionar um novo domínio', { exact: false })
      .first(),
  ).toBeVisible();
  await page.keyboard.press('Escape');

  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  for (const item of ['Analytics', 'Momentums', 'Campanhas', 'GCD']) {
    await expect(nav.getByRole('link', { name: item })).toHaveAttribute('aria-disabled', 'true');
  }
  await expect(nav.getByRole('link', { name: 'Domínios' })).not.toHaveAttribute('aria-disabled', 'true');
  await expect(nav.getByRole('link', { name: 'Mídias' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Canais' })).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).toBeVisible();

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto('/domains');
  await expect(page).toHaveURL(/\/signin$/);
});

test('a private URL visited signed out goes to /signin and back there after sign-in', async ({ page, request }) => {
  const account = await createAccount(request);
  await page.goto('/settings?tab=empresa');
  await expect(page).toHaveURL(/\/signin$/);
  await signInThroughForm(page, account);
  await expect(page).toHaveURL(/\/settings\?tab=empresa/);
});

test('wrong credentials and an unvalidated account are refused with a toast', async ({ page, request }) => {
  const account = await createAccount(request);
  await page.goto('/signin');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Informe seu nome de usuário')).toBeVisible();
  await expect(page.getByText('Informe sua senha')).toBeVisible();
  await expect(page.getByText('O campo reCAPTCHA é obrigatório!')).toBeVisible();

  await signInThroughForm(page, { username: account.username, password: 'senha-errada-123' });
  await expect(page.getByText('Nome de usuário ou senha incorretos.')).toBeVisible();
  await expect(page).toHaveURL(/\/signin$/);

  // A captcha solution is good for one attempt; the widget solves a fresh one by itself, no second click.
  const widget = page.getByTestId('captcha');
  await expect
    .poll(() => widget.evaluate((el) => (el as HTMLElement & { getState(): string }).getState()), { timeout: 60_000 })
    .toBe('verified');
  await page.getByLabel('Senha', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).not.toHaveURL(/\/signin/);
});

test('a forgotten password is reset through the mailed link', async ({ page, request }) => {
  const account = await createAccount(request);
  await page.goto('/signin');
  await page.getByRole('link', { name: /Esqueceu/ }).click();
  await expect(page).toHaveURL(/\/recovery$/);
  await page.getByLabel(/e-mail/i).fill(account.email);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page).toHaveURL(/\/recovery\/success$/);

  const link = await mailedLink(request, account.email, '/recovery/reset');
  await page.goto(link.pathname + link.search);
  await page.getByLabel('Nova senha', { exact: true }).fill('uma-senha-nova-42');
  await page.getByLabel(/Confirma/).fill('uma-senha-nova-42');
  await page.getByRole('button', { name: /Salvar|Alterar|Redefinir/ }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await signInThroughForm(page, { username: account.username, password: 'uma-senha-nova-42' });
  await expect(page).toHaveURL(/\/domains/);
});

test("an unknown path shows '404 / Página não encontrada' with a link home", async ({ page }) => {
  await page.goto('/nao/existe/mesmo');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404 / Página não encontrada');
  await expect(page.getByRole('link', { name: /início|voltar/i })).toHaveAttribute('href', '/');
});
