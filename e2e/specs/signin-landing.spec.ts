import { expect } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createDomainThroughApi, createValidatedDomain, signIn, test } from '../support/impeto.ts';

test('a user signs in and lands on the analytics page of the first allowed domain, never on /domains', async ({
  page,
  browser,
  request,
  testSite,
}) => {
  const account = await createAccount(request);
  await signIn(page, account);
  // The first domain in the list is not verified (not allowed); the second one is.
  await createDomainThroughApi(page, request, account, {
    name: 'Loja sem script',
    url: 'https://sem-script.example.com',
  });
  const allowed = await createValidatedDomain(page, request, account, testSite, 'Loja Corre Bem');

  const fresh = await (await browser.newContext()).newPage();
  const visited: string[] = [];
  fresh.on('framenavigated', (frame) => {
    if (frame === fresh.mainFrame()) visited.push(new URL(frame.url()).pathname);
  });
  await signIn(fresh, account);
  await expect(fresh).toHaveURL(new RegExp(`/\\?domain=${allowed.uuid}`));
  await expect(fresh.getByRole('heading', { name: 'Analytics', level: 2 })).toBeVisible();
  await expect(fresh.getByText('Domínio: Loja Corre Bem')).toBeVisible();
  expect(visited, 'sign-in went straight to the dashboard').not.toContain('/domains');
  await fresh.context().close();
});
