import { expect } from '@playwright/test';
import { type PushService, startPushService } from '../../apps/server/test/push-service.ts';
import { DEMO_ACCOUNT, DEMO_TITLES, type SeedResult, seedDemo } from '../../scripts/demo-seed.ts';
import { signIn, test } from '../support/impeto.ts';

/*
 * `npm run demo`'s seed (scripts/demo-seed.ts) against the e2e server (which runs with DEMO_CLOCK=1 and trusts
 * Cloudflare's geo headers, as the demo's does), then the pages a visitor of the demo opens first, at 1440 px:
 * screenshots in test-results/, and what each page must show to look alive.
 */

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
const monthAgo = new Date(Date.parse(`${today}T12:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);

test('the demo seed fills the dashboard, the lists, the channels and the domains with a month of a living shop', async ({
  page,
  request,
  testSite,
}) => {
  test.setTimeout(300_000);
  let push: PushService | undefined;
  let seeded: SeedResult;
  try {
    push = await startPushService();
    seeded = await seedDemo({ base: test.info().project.use.baseURL!, site: testSite, push, log: () => {} });
  } finally {
    // Whatever happened, the specs after this one run on the real clock.
    await request.put('/api/dev/clock', { data: { clock: { at: null } } });
  }
  expect(seeded.skipped).toBe(false);

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, DEMO_ACCOUNT);
  const shot = async (name: string) => {
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1440);
    await page.screenshot({ path: test.info().outputPath(`demo-${name}-1440.png`), fullPage: true });
  };

  await page.goto(`/?domain=${seeded.domain.uuid}&start=${monthAgo}&end=${today}`);
  const performance = page.locator('section[aria-labelledby]').filter({ hasText: 'Desempenho dos momentums' });
  await expect(performance.getByText(DEMO_TITLES.pageview)).toBeVisible();
  await expect(performance.getByText(DEMO_TITLES.campaign)).toBeVisible();
  await expect(page.locator('.recharts-surface').first()).toBeVisible();
  await shot('dashboard');

  await page.goto('/v2/momentums');
  for (const title of [DEMO_TITLES.pageview, DEMO_TITLES.events, DEMO_TITLES.abandon, DEMO_TITLES.recurrence]) {
    await expect(page.getByText(title, { exact: true })).toBeVisible();
  }
  await expect(page.getByRole('tab', { name: /^Rascunhos/ })).toContainText('1');
  await shot('momentums');

  await page.goto('/v2/campaigns');
  await expect(page.getByText(DEMO_TITLES.campaign, { exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Concluídos/ })).toContainText('1');
  await shot('campaigns');

  await page.goto('/dcm');
  await expect(page.getByText(DEMO_TITLES.dcm, { exact: true })).toBeVisible();
  await shot('gcd');

  await page.goto('/channels');
  await expect(page.getByText('Notificação push', { exact: true })).toBeVisible();
  await shot('channels');

  await page.goto('/domains');
  await expect(page.getByText(testSite.url, { exact: false })).toBeVisible();
  await shot('domains');
  await push?.close();
});
