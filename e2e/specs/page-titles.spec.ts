import { expect } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, signIn, test } from '../support/impeto.ts';

test('the browser tab names each page as the user navigates, with the product name', async ({
  page,
  request,
  testSite,
}) => {
  await page.goto('/signin');
  await expect(page).toHaveTitle('Entrar · Ímpeto');
  await page.getByRole('link', { name: 'Esqueceu sua senha?' }).click();
  await expect(page).toHaveTitle('Recuperar senha · Ímpeto');
  await page.goto('/nao-existe');
  await expect(page).toHaveTitle('Página não encontrada · Ímpeto');

  const account = await createAccount(request);
  await signIn(page, account);
  await expect(page).toHaveTitle('Domínios · Ímpeto');
  await createValidatedDomain(page, request, account, testSite);

  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  for (const [item, title] of [
    ['Analytics', 'Analytics · Ímpeto'],
    ['Momentums', 'Momentum · Ímpeto'],
    ['Campanhas', 'Campanha · Ímpeto'],
    ['Mídias', 'Mídias · Ímpeto'],
    ['Canais', 'Canais · Ímpeto'],
    ['Domínios', 'Domínios · Ímpeto'],
  ] as const) {
    await nav.getByRole('link', { name: item, exact: true }).click();
    await expect(page).toHaveTitle(title);
  }
  await page.goBack();
  await expect(page).toHaveTitle('Canais · Ímpeto');

  for (const [path, title] of [
    ['/v2/momentum/create', 'Momentum · Ímpeto'],
    ['/v2/campaign/create', 'Campanha · Ímpeto'],
    ['/profile', 'Perfil · Ímpeto'],
    ['/payment', 'Plano e uso · Ímpeto'],
    ['/dcm', 'GCD · Ímpeto'],
    ['/settings', 'Configurações · Ímpeto'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
});
