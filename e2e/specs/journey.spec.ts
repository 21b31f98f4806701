import { type JourneyStepResult, momentumMessages as mm } from '@impeto/shared';
import { expect, type Page } from '@playwright/test';
import { startPushService } from '../../apps/server/test/push-service.ts';
import { seriousViolations } from '../support/a11y.ts';
import {
  collectBodies,
  deliverPushUntilShown,
  expectToast,
  handOverPushSubscription,
  sessionToken,
  test,
} from '../support/impeto.ts';
import { choose, pushContent, readyToSend, shortTag } from '../support/momentums.ts';

/*
 * Journeys (issue #26) end to end: a cart-abandonment momentum whose follow-up steps are built in the diagram (after
 * the push, 1 minute → 'Não converteu' → an on-site message; 1 minute → 'Não converteu' → another push), saved,
 * reopened identical; then on the test site the visitor gets the push, the on-site message after the wait, buys, and
 * leaves the journey before the last step. The waits are real minutes (the server's clock is shared with the other
 * specs running beside this one).
 */

const onsite = {
  title: `Ainda dá tempo ${shortTag()}`,
  content: 'Seu tênis continua no carrinho. Finalize hoje com frete grátis.',
  cta: 'Voltar ao carrinho',
};

async function addStep(page: Page, n: number) {
  await page.getByTestId('panel-journey').getByRole('button', { name: 'Adicionar etapa' }).click();
  await expect(page.getByRole('heading', { name: `Etapa ${n} · Espera` })).toBeVisible();
  await page.getByRole('textbox', { name: 'Esperar' }).fill('1');
  await choose(page.getByRole('main'), 'Unidade', 'minuto');
  // The segmented control's radios are visually hidden: its labels are what a user clicks.
  const part = (name: string) => page.locator('.mantine-SegmentedControl-label', { hasText: name });
  await part('Condição').click();
  await expect(page.getByRole('combobox', { name: 'Condição' })).toHaveValue('Não converteu');
  await part('Mensagem').click();
  await expect(page.getByRole('heading', { name: `Etapa ${n} · Mensagem` })).toBeVisible();
}

test('a three-step journey built in the diagram sends the push, then the on-site message after the wait, and a purchase ends it', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  test.setTimeout(360_000);
  const push = await startPushService();
  try {
    const { domain } = await readyToSend(page, request, testSite);
    const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
    const onsiteChannel = await request.post('/api/channel/create', {
      headers,
      data: { channel: { domain_uuid: domain.uuid, channel_type: 'SUPERARE_WEBVIEW', properties: {} } },
    });
    expect(onsiteChannel.status(), await onsiteChannel.text()).toBe(200);
    const first = pushContent(testSite);
    const last = { ...pushContent(testSite), title: 'Última chamada' };

    // The momentum's own blocks through the API, as a draft; its journey is built in the diagram.
    const title = `Carrinho em etapas ${shortTag()}`;
    const created = await request.post('/api/momentum/create', {
      headers,
      data: {
        domain_uuid: domain.uuid,
        type: 'momentum',
        momentum_title: title,
        status: 'Draft',
        momentums: [
          { type: 'filter', values: [{ filter: 'all' }] },
          {
            type: 'trigger',
            regex: false,
            values: [{ filter: 'pageview', comparation: 'contain', value: ['/carrinho'], dischargeIn: [] }],
          },
          {
            type: 'dispatcher',
            values: [
              {
                filter: 'CELL_NOTIFICATION',
                name: first.name,
                title: first.title,
                message: first.message,
                icon_uri: first.icon,
                redirect_uri: first.redirect,
              },
            ],
          },
        ],
      },
    });
    expect(created.status(), await created.text()).toBe(200);
    const momentum = (await created.json()).data as { uuid: string };
    const stored = async () => {
      const res = await request.get(`/api/momentum/list?id=${momentum.uuid}`, { headers });
      return (await res.json()).data as { steps?: unknown[]; exit?: unknown; status: string };
    };

    await page.addInitScript(() => localStorage.setItem('impeto.diagram.tour_done', 'true'));
    await page.goto(`/momentum/diagram?domain=${domain.uuid}&id=${momentum.uuid}`);
    await expect(page.getByTestId('panel-journey')).toBeVisible();

    // Step 1: 1 minute, 'Não converteu', an on-site message.
    await addStep(page, 1);
    await choose(page.getByRole('main'), /^Canal/, 'Mensagem on-site (Webview)');
    await page.getByRole('button', { name: 'Customizar mensagem' }).click();
    const modal = page.getByRole('dialog');
    await modal.getByRole('textbox', { name: 'Título', exact: true }).fill(onsite.title);
    await modal.getByRole('textbox', { name: 'Conteúdo', exact: true }).fill(onsite.content);
    await modal.getByRole('textbox', { name: 'Texto do botão (CTA)' }).fill(onsite.cta);
    await modal.getByRole('button', { name: 'Salvar mensagem' }).click();
    await expect(modal).toHaveCount(0);
    await page.getByRole('button', { name: 'Blocos' }).click();

    // Step 2: 1 minute, 'Não converteu', a last push.
    await addStep(page, 2);
    await choose(page.getByRole('main'), /^Canal/, 'Notificação push');
    await page.getByRole('textbox', { name: 'Nome da notificação' }).fill(last.name);
    await page.getByRole('textbox', { name: 'Título', exact: true }).fill(last.title);
    await page.getByRole('textbox', { name: 'Mensagem', exact: true }).fill(last.message);
    await page.getByRole('textbox', { name: 'URL do ícone' }).fill(last.icon);
    await page.getByRole('textbox', { name: 'URL de redirecionamento' }).fill(last.redirect);
    await page.getByRole('button', { name: 'Blocos' }).click();

    // The board draws the steps after the message block, in the order they run.
    await expect(page.getByTestId('diagram-node-step-1-wait')).toContainText('Esperar 1 minuto');
    await expect(page.getByTestId('diagram-node-step-1-condition')).toContainText('Não converteu');
    await expect(page.getByTestId('diagram-node-step-1-message')).toContainText('Mensagem on-site (Webview)');
    await expect(page.getByTestId('diagram-node-step-2-message')).toContainText(`Notificação push: ${last.title}`);
    await expect(page.getByTestId('panel-journey').getByRole('checkbox', { name: /Converteu/ })).toBeChecked();
    await page.screenshot({ path: test.info().outputPath('journey-diagram.png') });
    expect(await seriousViolations(page, 'diagrama com jornada')).toEqual([]);

    await page.getByRole('button', { name: 'Salvar como' }).click();
    await page.getByRole('menuitem', { name: 'Rascunho' }).click();
    await expectToast(page, mm.draftUpdated);
    await expect(page).toHaveURL(/\/v2\/momentums/);
    const saved = await stored();
    expect(saved.steps).toEqual([
      expect.objectContaining({
        wait: expect.objectContaining({ amount: 1, unit: 'minutes' }),
        condition: { kind: 'not_converted' },
        values: [expect.objectContaining({ filter: 'SUPERARE_WEBVIEW' })],
      }),
      expect.objectContaining({
        wait: expect.objectContaining({ amount: 1, unit: 'minutes' }),
        condition: { kind: 'not_converted' },
        values: [expect.objectContaining({ filter: 'CELL_NOTIFICATION', title: last.title })],
      }),
    ]);
    expect(saved.exit).toMatchObject({ on_conversion: true });

    // Reopened: the same board, and saving it untouched stores the same journey.
    await page.goto(`/momentum/diagram?domain=${domain.uuid}&id=${momentum.uuid}`);
    await expect(page.getByTestId('diagram-node-step-1-wait')).toContainText('Esperar 1 minuto');
    await expect(page.getByTestId('diagram-node-step-1-message')).toContainText('Mensagem on-site (Webview)');
    await expect(page.getByTestId('diagram-node-step-2-message')).toContainText(`Notificação push: ${last.title}`);
    await expect(page.getByTestId('panel-step-2')).toContainText('Esperar 1 minuto → Não converteu');
    // Started from the diagram ('Imediato'): the stored journey is the same.
    await page.getByRole('button', { name: 'Salvar como' }).click();
    await page.getByRole('menuitem', { name: 'Imediato' }).click();
    await expect(page).toHaveURL(/\/v2\/momentums/);
    const running = await stored();
    expect(running.status).toBe('Active');
    expect(running.steps).toEqual(saved.steps);

    // The visitor accepts pushes, leaves the cart: step 0, the push.
    const config = await request.get(`/t/config/${domain.gero_id}`);
    const vapidPublic = ((await config.json()) as { vapid_public: string }).vapid_public;
    const { subscription } = push.newSubscription({ applicationServerKey: vapidPublic });
    const visitor = await browser.newContext();
    await visitor.grantPermissions(['notifications'], { origin: testSite.url });
    await handOverPushSubscription(visitor, subscription);
    const sent = collectBodies(visitor);
    const shop = await visitor.newPage();
    await shop.goto(`${testSite.url}/`);
    await expect.poll(() => shop.evaluate(() => typeof (window as { __gero?: unknown }).__gero)).toBe('object');
    await shop.evaluate(() => (window as unknown as { gero: (...a: unknown[]) => void }).gero('optin', 'default'));
    let vid: string | null = null;
    await expect.poll(async () => (vid = await shop.evaluate(() => localStorage.getItem('_gero_vid')))).toBeTruthy();
    await expect
      .poll(
        async () => {
          const res = await request.get(`/api/person/list/${domain.uuid}`, { headers });
          const people = (await res.json()).data as { visitor_id: string; push_status: string | null }[];
          return people.find((p) => p.visitor_id === vid)?.push_status;
        },
        { timeout: 20_000 },
      )
      .toBe('subscribed');
    await shop.getByRole('link', { name: 'Carrinho', exact: true }).click();
    await shop.waitForURL(`${testSite.url}/carrinho`);
    const [got] = await push.waitFor(1, 30_000);
    const payload = got!.payload as { title: string; delivery_id: string };
    expect(payload.title).toBe(first.title);
    await deliverPushUntilShown(visitor, shop, testSite.url, got!.payload, payload.delivery_id);

    // Step 1 after its minute: the person has not bought, the on-site message shows on the page they are on.
    await shop.goto(`${testSite.url}/produtos`);
    await expect(shop.getByText(onsite.title)).toBeVisible({ timeout: 150_000 });
    await expect(shop.getByText(onsite.content)).toBeVisible();
    await shop.screenshot({ path: test.info().outputPath('journey-onsite.png') });

    // The purchase: they leave the journey at once, before step 2.
    await shop.goto(`${testSite.url}/carrinho`);
    await shop.getByRole('link', { name: 'Finalizar compra' }).click();
    await shop.getByLabel('Nome completo').fill('Ana Souza');
    await shop.getByLabel('E-mail').fill('ana@exemplo.com.br');
    await shop.getByRole('button', { name: /Pagar/ }).click();
    await expect(shop.getByRole('heading', { name: 'Obrigado pela compra!' })).toBeVisible();
    await expect.poll(() => sent.some((b) => b.includes('"cv"'))).toBe(true);

    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const journey = async () => {
      const res = await request.get(
        `/api/analytics/${domain.uuid}/momentum/${momentum.uuid}/journey?start=${day}&end=${day}`,
        { headers },
      );
      return ((await res.json()).data as { steps: JourneyStepResult[] }).steps;
    };
    await expect
      .poll(async () => (await journey()).map((r) => [r.step, r.branch, r.sent, r.exited_conversion]), {
        timeout: 60_000,
      })
      .toEqual([
        [0, 'main', 1, 0],
        [1, 'main', 1, 0],
        [2, 'main', 0, 1],
      ]);
    // Past step 2's minute nothing more came: one push only, and the log lists step 0 and step 1.
    await shop.waitForTimeout(65_000);
    expect(push.received).toHaveLength(1);
    const log = await request.get(`/api/momentum/deliveries/${momentum.uuid}?page=1`, { headers });
    const items = ((await log.json()).data as { items: { step: number }[] }).items;
    expect(items.map((i) => i.step).sort()).toEqual([0, 1]);
    await visitor.close();

    // What the marketer sees: the momentum's row on the dashboard opens to its steps, the list's 'Jornada' action
    // leads to the funnel, and the delivery log says 'Etapa 1'.
    await page.goto(`/?domain=${domain.uuid}&start=${day}&end=${day}`);
    await page.getByRole('button', { name: `Mostrar as etapas da jornada de ${title}` }).click();
    const steps = page.getByRole('table', { name: `Etapas da jornada de ${title}` });
    await expect(steps.getByRole('row')).toHaveCount(4);
    await expect(steps.getByRole('row').nth(3)).toContainText('Etapa 2');
    await steps.screenshot({ path: test.info().outputPath('journey-dashboard-rows.png') });
    await page.goto(`/v2/momentums?domain=${domain.uuid}`);
    await page.getByRole('button', { name: `Jornada de ${title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/v2/journey\\?uuid=${momentum.uuid}`));
    await expect(page.getByRole('list', { name: 'Funil da jornada' }).getByRole('listitem')).toHaveCount(3);
    await page.screenshot({ path: test.info().outputPath('journey-funnel.png'), fullPage: true });
    expect(await seriousViolations(page, 'jornada')).toEqual([]);
    await page.goto(`/v2/deliveries?id=${momentum.uuid}&domain=${domain.uuid}`);
    await expect(page.getByRole('table', { name: 'Entregas' }).getByText('Etapa 1')).toBeVisible();
  } finally {
    await push.close();
  }
});
