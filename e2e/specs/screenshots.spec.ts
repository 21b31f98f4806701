import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { seriousViolations } from '../support/a11y.ts';
import { createAccount } from '../support/accounts.ts';
import { collect } from '../support/analytics.ts';
import { createValidatedDomain, sessionToken, signIn, test } from '../support/impeto.ts';

/**
 * Every page of the dashboard, public and private, at 1440 and 390 px wide with some data: nothing may stick out
 * sideways (the page never scrolls horizontally; wide tables scroll inside their own container), and axe-core finds
 * no serious or critical accessibility violation at either width (issue #29). The PNGs land in
 * e2e/test-results/screens/ to be looked at.
 */
const WIDTHS = [1440, 390];
const dir = 'test-results/screens';

async function shoot(page: Page, name: string, violations: string[]) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForTimeout(300);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
    // Polled: after a resize the shell's navbar slides out with a transition before the layout settles.
    await expect
      .poll(() => page.evaluate(() => (document.scrollingElement as HTMLElement).scrollWidth - window.innerWidth), {
        message: `${name} at ${width} px scrolls sideways`,
      })
      .toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
    violations.push(...(await seriousViolations(page, `${name} a ${width} px`)));
  }
}

test('public pages at 1440 and 390 px', async ({ page }) => {
  mkdirSync(dir, { recursive: true });
  const violations: string[] = [];
  for (const [name, path] of [
    ['signin', '/signin'],
    ['signup-company', '/signup/company'],
    ['recovery', '/recovery'],
    ['recovery-success', '/recovery/success'],
    ['reset', '/recovery/reset?token=x'],
    ['validate', '/validate?cid=x'],
    ['not-found', '/nao-existe'],
  ] as const) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(path);
    await expect(page.getByRole('heading').first()).toBeVisible();
    await shoot(page, name, violations);
  }
  expect(violations, 'axe-core: serious or critical violations').toEqual([]);
});

test('private pages at 1440 and 390 px, with data', async ({ page, request, testSite }) => {
  test.setTimeout(600_000);
  mkdirSync(dir, { recursive: true });
  const violations: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createValidatedDomain(page, request, account, testSite);
  for (const [vid, path] of [
    ['ana', '/'],
    ['ana', '/produtos'],
    ['bia', '/'],
    ['caio', '/carrinho'],
  ] as const) {
    await collect(request, testSite, domain.gero_id, vid, [{ t: 'pv', u: `${testSite.url}${path}` }]);
  }
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  const channel = await request.post('/api/channel/create', {
    headers,
    data: { channel: { domain_uuid: domain.uuid, channel_type: 'SUPERARE_WEBVIEW', properties: {} } },
  });
  expect(channel.status(), await channel.text()).toBe(200);
  const q = `?domain=${domain.uuid}`;
  for (const [name, path] of [
    ['analytics', `/${q}`],
    ['domains', `/domains${q}`],
    ['privacy', `/domains/${domain.uuid}/privacy${q}`],
    ['channels', `/channels${q}`],
    ['media', `/media${q}`],
    ['settings', `/settings${q}`],
    ['profile', `/profile${q}`],
    ['payment', `/payment${q}`],
    ['momentums', `/v2/momentums${q}`],
    ['campaigns', `/v2/campaigns${q}`],
    ['momentum-create', `/v2/momentum/create${q}`],
    ['campaign-create', `/v2/campaign/create${q}`],
    ['momentum-diagram', `/momentum/diagram${q}`],
    ['dcm', `/dcm${q}`],
    ['dcm-manager', `/dcm/manager${q}`],
  ] as const) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(path);
    await expect(page.getByRole('heading').first(), `${name}: ${errors.join('; ')}`).toBeVisible({ timeout: 20_000 });
    await shoot(page, name, violations);
  }
  expect(violations, 'axe-core: serious or critical violations').toEqual([]);
});
