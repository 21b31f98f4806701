import type { ExperimentReport } from '@impeto/shared';
import { momentumMessages as mm } from '@impeto/shared';
import { type Browser, expect, type Page } from '@playwright/test';
import { startPushService } from '../../apps/server/test/push-service.ts';
import { expectToast, handOverPushSubscription, sessionToken, test } from '../support/impeto.ts';
import { choose, fillPushChannelV2, pushContent, readyToSend, shortTag } from '../support/momentums.ts';

/*
 * Experiments end to end (issue #25): a momentum built in the v2 form with two variants of its push and a 20 %
 * control group; visitors of the test site who accepted pushes visit the cart; the engine draws each one's arm,
 * sends variant A's or B's message through the local push service and holds the control group out; the report page
 * /v2/experiment?uuid= shows the three arms with the persons each received.
 */

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });
const BATCH = 6;
const MAX_VISITORS = 36;

test('a momentum with two variants and a 20 % control group, built in the form, reports its three arms', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  test.setTimeout(300_000);
  const push = await startPushService();
  try {
    const { domain } = await readyToSend(page, request, testSite);
    const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
    const config = await request.get(`/t/config/${domain.gero_id}`);
    const vapidPublic = ((await config.json()) as { vapid_public: string }).vapid_public;

    // The form: a cart trigger, the push, 'Teste A/B' with B's own title, a 20 % control group.
    const title = `Carrinho A/B ${shortTag()}`;
    const content = pushContent(testSite);
    const titleB = 'Volte e ganhe frete grátis';
    await page.goto(`/v2/momentum/create?domain=${domain.uuid}`);
    await expect(page.getByRole('heading', { name: 'Novo momentum' })).toBeVisible();
    await section(page, 'Título').getByRole('textbox', { name: 'Título', exact: true }).fill(title);
    const gatilhos = section(page, 'Gatilhos');
    await choose(gatilhos, 'Tipo de gatilho', 'Visualização de página');
    await choose(gatilhos, 'Comparação', 'Contém');
    const pages = gatilhos.getByRole('combobox', { name: 'Páginas' });
    await pages.fill('/carrinho');
    await pages.press('Enter');
    const canal = section(page, 'Canal');
    await fillPushChannelV2(canal, content);
    const teste = section(page, 'Teste A/B');
    await teste.getByRole('switch', { name: /Testar variantes da mensagem/ }).check();
    await expect(teste.getByRole('textbox', { name: 'Parcela da variante A' })).toHaveValue('50 %');
    await expect(teste.getByRole('textbox', { name: 'Parcela da variante B' })).toHaveValue('50 %');
    await canal.getByRole('tab', { name: 'Variante B' }).click();
    const titleField = canal.getByRole('textbox', { name: 'Título da notificação' });
    await expect(titleField).toHaveValue(content.title);
    await titleField.fill(titleB);
    await teste.getByRole('textbox', { name: 'Grupo de controle' }).fill('20');
    await page.screenshot({ path: test.info().outputPath('experiment-form-1440.png'), fullPage: true });
    await page.getByRole('button', { name: 'Seguir' }).click();
    await expect(page.getByText('Variantes A 50 %, B 50 %. Grupo de controle: 20 % não recebe nada.')).toBeVisible();
    await page.getByRole('button', { name: 'Planejar campanha' }).click();
    await page.getByRole('menuitem', { name: 'Imediato' }).click();
    await expectToast(page, mm.created('momentum'));

    const list = await request.get(`/api/momentum/list/${domain.uuid}?type=momentum`, { headers });
    const momentum = ((await list.json()).data as { uuid: string; momentum_title: string; experiment: unknown }[]).find(
      (m) => m.momentum_title === title,
    )!;
    expect(momentum.experiment).toMatchObject({
      control_percent: 20,
      variants: [
        { name: 'A', weight: 50, values: [{ title: content.title }] },
        { name: 'B', weight: 50, values: [{ title: titleB }] },
      ],
    });

    // Today in the domain's zone (São Paulo), and yesterday.
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' });
    const range = `start=${day(-1)}&end=${day(0)}`;
    const report = async () => {
      const res = await request.get(`/api/analytics/${domain.uuid}/momentum/${momentum.uuid}/experiment?${range}`, {
        headers,
      });
      expect(res.status(), await res.text()).toBe(200);
      return (await res.json()).data as ExperimentReport;
    };
    const pushStatus = async (visitorId: string) => {
      const res = await request.get(`/api/person/list/${domain.uuid}`, { headers });
      const persons = (await res.json()).data as { visitor_id: string; push_status: string | null }[];
      return persons.find((p) => p.visitor_id === visitorId)?.push_status;
    };
    const assigned = (r: ExperimentReport, arm: string) => r.arms.find((a) => a.arm === arm)?.assigned ?? 0;

    // Visitors accept pushes and visit the cart, a few at a time, until every arm has someone (the arm is a hash
    // of the person the server creates: 20 % control leaves a handful of visitors without one now and then).
    let visitors = 0;
    let last: ExperimentReport | null = null;
    while (visitors < MAX_VISITORS) {
      await Promise.all(
        Array.from({ length: BATCH }, () => visitCart(browser, push, vapidPublic, testSite.url, pushStatus)),
      );
      visitors += BATCH;
      await expect
        .poll(
          async () => {
            last = await report();
            return last.arms.reduce((sum, a) => sum + a.assigned, 0);
          },
          { timeout: 60_000, message: 'every visitor gets an arm' },
        )
        .toBe(visitors);
      if (last && ['control', 'A', 'B'].every((arm) => assigned(last!, arm) > 0)) break;
    }
    const final = last as ExperimentReport | null;
    expect(final?.arms.map((a) => a.arm)).toEqual(['control', 'A', 'B']);
    for (const arm of ['control', 'A', 'B']) expect(assigned(final!, arm)).toBeGreaterThan(0);

    // The variants' persons got their variant's push; the control group got nothing.
    const sentToVariants = assigned(final!, 'A') + assigned(final!, 'B');
    await push.waitFor(sentToVariants, 30_000);
    const titles = push.received.map((r) => (r.payload as { title: string }).title);
    expect(titles.filter((t) => t === content.title)).toHaveLength(assigned(final!, 'A'));
    expect(titles.filter((t) => t === titleB)).toHaveLength(assigned(final!, 'B'));
    expect(push.received).toHaveLength(sentToVariants);

    // The report page: the three arms side by side, each with its persons.
    await page.goto(`/v2/experiment?domain=${domain.uuid}&uuid=${momentum.uuid}`);
    const table = page.getByRole('table', { name: 'Grupos do teste' });
    await expect(table).toBeVisible({ timeout: 15_000 });
    const rows = table.getByRole('row');
    await expect(rows).toHaveCount(4);
    const labels = ['Grupo de controle', 'Variante A', 'Variante B'];
    const arms = ['control', 'A', 'B'];
    for (const [i, label] of labels.entries()) {
      const row = rows.nth(i + 1);
      await expect(row.getByRole('cell').first()).toHaveText(label);
      // Parcela, then Pessoas.
      await expect(row.getByRole('cell').nth(2)).toHaveText(String(assigned(final!, arms[i]!)));
    }
    await page.screenshot({ path: test.info().outputPath('experiment-report-1440.png'), fullPage: true });
  } finally {
    await push.close();
  }
});

/** One visitor who accepts pushes on the home page, then opens the cart (the momentum's trigger). */
async function visitCart(
  browser: Browser,
  push: Awaited<ReturnType<typeof startPushService>>,
  vapidPublic: string,
  siteUrl: string,
  pushStatus: (visitorId: string) => Promise<string | null | undefined>,
) {
  const { subscription } = push.newSubscription({ applicationServerKey: vapidPublic });
  const visitor = await browser.newContext();
  try {
    await visitor.grantPermissions(['notifications'], { origin: siteUrl });
    await handOverPushSubscription(visitor, subscription);
    const shop = await visitor.newPage();
    await shop.goto(`${siteUrl}/`);
    await expect.poll(() => shop.evaluate(() => typeof (window as { __gero?: unknown }).__gero)).toBe('object');
    await shop.evaluate(() => (window as unknown as { gero: (...a: unknown[]) => void }).gero('optin', 'default'));
    let vid: string | null = null;
    await expect.poll(async () => (vid = await shop.evaluate(() => localStorage.getItem('_gero_vid')))).toBeTruthy();
    await expect.poll(() => pushStatus(vid!), { timeout: 20_000 }).toBe('subscribed');
    await shop.goto(`${siteUrl}/carrinho`);
    // The page view reaches the collector before the context closes.
    await shop.waitForLoadState('networkidle');
    await shop.waitForTimeout(1500);
  } finally {
    await visitor.close();
  }
}
