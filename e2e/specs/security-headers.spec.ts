import { expect, type Page } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, signIn, test } from '../support/impeto.ts';

/** Every CSP violation the page reports (DOM event) or logs (workers included), with where it happened. */
async function watchCsp(page: Page) {
  const violations: string[] = [];
  await page.exposeFunction('__cspViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation(t: string): void }).__cspViolation(
        `${location.pathname}: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}

const PRIVATE_PAGES = [
  '/',
  '/domains',
  '/channels',
  '/media',
  '/settings',
  '/profile',
  '/payment',
  '/v2/momentums',
  '/v2/momentum/create',
  '/v2/campaigns',
  '/v2/campaign/create',
  '/momentum/diagram',
  '/dcm',
];

test('the dashboard runs under its CSP: sign-in with the captcha and every page, without one violation', async ({
  page,
  request,
  testSite,
}) => {
  test.setTimeout(180_000);
  const violations = await watchCsp(page);

  const signin = await page.goto('/signin');
  const csp = signin?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("script-src 'self'");
  expect(signin?.headers()['x-frame-options']).toBe('DENY');

  for (const path of ['/signup/company', '/recovery', '/recovery/reset?token=abc']) {
    await page.goto(path);
    await expect(page.locator('form').first()).toBeVisible();
  }
  // The password field loads the strength dictionaries on focus: a chunk of its own, under the same CSP.
  await page.getByLabel('Nova senha', { exact: true }).fill('12345678');
  await page.getByLabel('Confirmação da nova senha').click();
  await expect(page.getByText('Esta é uma senha muito usada.', { exact: false })).toBeVisible();

  // Sign-in solves the ALTCHA proof of work in the page (its worker starts from a blob: URL).
  const account = await createAccount(request);
  await signIn(page, account);
  await expect(page).not.toHaveURL(/\/signin/);
  await createValidatedDomain(page, request, account, testSite);

  for (const path of PRIVATE_PAGES) {
    await page.goto(path);
    await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  await page.goto('/domains');
  await page
    .getByRole('button', { name: /^Ver script de/ })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('domains-under-csp.png'), animations: 'disabled' });

  expect(violations).toEqual([]);
});

test('customer sites still load the tag files and reach the collector from their own origin', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createValidatedDomain(page, request, account, testSite);

  const loader = await request.get('/t/loader.js');
  expect(loader.headers()['cross-origin-resource-policy']).toBeUndefined();
  expect(loader.headers()['x-frame-options']).toBeUndefined();

  const visitor = await browser.newContext();
  const shop = await visitor.newPage();
  const stored = shop.waitForResponse(
    (r) => new URL(r.url()).pathname === '/collect' && r.request().method() === 'POST',
  );
  await shop.goto(`${testSite.url}/`);
  expect((await stored).status()).toBe(202);
  await expect.poll(() => shop.evaluate(() => Boolean((window as { __gero?: unknown }).__gero))).toBe(true);
  expect(domain.gero_id).toBeTruthy();
  await visitor.close();
});
