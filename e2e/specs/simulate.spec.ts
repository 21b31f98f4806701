import { expect, type Locator, type Page } from '@playwright/test';
import { collect } from '../support/analytics.ts';
import { sessionToken, test } from '../support/impeto.ts';
import { choose, fillPushChannelV2, pushContent, readyToSend, shortTag } from '../support/momentums.ts';

// Issue #28: 'Simular' replays a draft over the domain's real history before it goes live, in the v2 form's summary
// and in the diagram; the funnel says where each planned message stopped.

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** The funnel's row of a stage: its name, how many entered it and how many it removed. */
const funnelRow = (scope: Locator, stage: string) =>
  scope.getByRole('table', { name: 'Funil da simulação' }).getByRole('row').filter({ hasText: stage });

async function expectFunnel(scope: Locator) {
  // Three visitors viewed a product page and none accepted notifications: the trigger matched three, the channel
  // reached none of them, nothing would have been sent.
  await expect(funnelRow(scope, 'Gatilho')).toContainText(/Gatilho\s*3\s*0/);
  await expect(funnelRow(scope, 'Alcance no canal')).toContainText(/3\s*3$/);
  await expect(funnelRow(scope, 'Enviadas')).toContainText('0');
  await expect(scope.getByRole('table', { name: 'Amostra de pessoas' })).toContainText(
    'Visitante sem inscrição de push.',
  );
  await expect(scope.getByText(/Simulado em [\d.]+ ms/)).toBeVisible();
}

/** Three visitors (`<prefix>-1..3`) who never accepted notifications each view a product page. */
async function viewProducts(
  request: Parameters<typeof collect>[0],
  site: Parameters<typeof collect>[1],
  geroId: string,
  prefix: string,
) {
  for (const n of [1, 2, 3]) {
    await collect(request, site, geroId, `${prefix}-${n}`, [{ t: 'pv', u: `${site.url}/produto/tenis-${n}` }]);
  }
}

/** The push dispatcher's values for the test site. */
const pushValues = (push: ReturnType<typeof pushContent>) => ({
  filter: 'CELL_NOTIFICATION',
  name: push.name,
  title: push.title,
  message: push.message,
  icon_uri: push.icon,
  redirect_uri: push.redirect,
});

/**
 * A draft started by product views (everyone, `dispatcher` values for its message, `extra` fields of the body) saved
 * through the API, opened on the diagram's board and simulated over the last day from its header: the dialog.
 */
async function simulateDraftInDiagram(page: Page, domainUuid: string, title: string, dispatcher: object, extra = {}) {
  const created = await page.request.post('/api/momentum/create', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: {
      domain_uuid: domainUuid,
      type: 'momentum',
      status: 'Draft',
      momentum_title: title,
      momentums: [
        { type: 'filter', values: [{ filter: 'all' }] },
        {
          type: 'trigger',
          regex: false,
          values: [{ filter: 'pageview', comparation: 'contain', value: ['/produto'], dischargeIn: [] }],
        },
        { type: 'dispatcher', values: [dispatcher] },
      ],
      ...extra,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const draft = (await created.json()).data.uuid as string;
  await page.goto(`/momentum/diagram?id=${draft}&domain=${domainUuid}`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await page.getByRole('button', { name: 'Simular', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Simular momentum' });
  await choose(dialog, 'Período', 'Último dia');
  await dialog.getByRole('button', { name: 'Simular', exact: true }).click();
  return dialog;
}

test('a draft is simulated in the v2 form and in the diagram, and the funnel says where people stopped', async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const tag = shortTag();
  await viewProducts(request, testSite, domain.gero_id, `v-sim-${tag}`);
  await collect(request, testSite, domain.gero_id, `v-sim-${tag}-4`, [{ t: 'pv', u: `${testSite.url}/` }]);

  // The v2 form: never saved, simulated from its summary.
  await page.goto(`/v2/momentum/create?domain=${domain.uuid}`);
  await section(page, 'Título').getByRole('textbox', { name: 'Título', exact: true }).fill(`Simulado ${tag}`);
  const gatilhos = section(page, 'Gatilhos');
  await choose(gatilhos, 'Tipo de gatilho', 'Visualização de página');
  await choose(gatilhos, 'Comparação', 'Contém');
  const pages = gatilhos.getByRole('combobox', { name: 'Páginas' });
  await pages.fill('/produto');
  await pages.press('Enter');
  await fillPushChannelV2(section(page, 'Canal'), pushContent(testSite, tag));
  await page.getByRole('button', { name: 'Seguir' }).click();
  await expect(page.getByText('Resumo do momentum')).toBeVisible();
  await page.getByRole('button', { name: 'Simular' }).click();
  await expectFunnel(page.getByRole('main'));

  // The diagram: a saved draft opened on the board, simulated over the last day from its header.
  const dialog = await simulateDraftInDiagram(
    page,
    domain.uuid,
    `Rascunho simulado ${tag}`,
    pushValues(pushContent(testSite, tag)),
  );
  await expectFunnel(dialog);
});

test("a journey's draft is simulated in the diagram: its steps say who got the first message and who waits", async ({
  page,
  request,
  testSite,
}) => {
  const { domain } = await readyToSend(page, request, testSite);
  const tag = shortTag();
  await viewProducts(request, testSite, domain.gero_id, `v-jor-${tag}`);
  const push = pushContent(testSite, tag);
  const topbar = {
    filter: 'SUPERARE_WEBVIEW',
    webview_type: 'topbar',
    webview_mode: 'devices_all',
    webview_props: { topbarContent: `Gostou? ${tag}`, topbarBtnText: 'Ver' },
  };
  // An on-site message to whoever views a product (it reaches every visitor), then a push a day later to those who
  // did not buy: the day simulated holds the first message, and everyone still waits for the push.
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  const onsite = await request.post('/api/channel/create', {
    headers,
    data: { channel: { domain_uuid: domain.uuid, channel_type: 'SUPERARE_WEBVIEW', properties: {} } },
  });
  expect(onsite.status(), await onsite.text()).toBe(200);
  const dialog = await simulateDraftInDiagram(page, domain.uuid, `Jornada simulada ${tag}`, topbar, {
    steps: [{ wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [pushValues(push)] }],
  });
  await expect(funnelRow(dialog, 'Etapas da jornada')).toContainText(/3\s*0$/);
  await expect(funnelRow(dialog, 'Enviadas')).toContainText('3');
  const steps = dialog.getByRole('table', { name: 'Etapas da jornada simulada' });
  await expect(steps.getByRole('row').filter({ hasText: 'Primeira mensagem' })).toContainText(/Primeira mensagem\s*3/);
  // Etapa 1: nobody reached it yet, nobody left, three still waiting, nothing sent.
  await expect(steps.getByRole('row').filter({ hasText: 'Etapa 1' })).toContainText(/Etapa 1\s*0\s*0\s*0\s*3\s*0/);
  await expect(dialog.getByRole('table', { name: 'Amostra de pessoas' })).toContainText(`Gostou? ${tag}`);
  await steps.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('simulacao-jornada.png') });
});
