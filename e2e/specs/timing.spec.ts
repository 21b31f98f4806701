import { momentumMessages as mm, timingMessages } from '@impeto/shared';
import { expect, type Page } from '@playwright/test';
import { expectToast, sessionToken, test } from '../support/impeto.ts';
import { fillPushChannelV2, pushContent, readyToSend, shortTag } from '../support/momentums.ts';

/*
 * Issue #27 in the v2 form: a campaign's 'Horário de envio' (limit per minute, holidays, local time), the Resumo's
 * words and the expected end of a throttled campaign, and the options as the API stores them.
 */

const section = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

test('a throttled campaign that skips holidays shows its expected end, and a local-time one its hour', async ({
  page,
  request,
  testSite,
}) => {
  test.setTimeout(180_000);
  const { domain } = await readyToSend(page, request, testSite);
  const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
  // Three visitors of the site, so the audience is not empty.
  for (let i = 0; i < 3; i++) {
    const res = await request.post('/collect', {
      headers: {
        'content-type': 'text/plain',
        origin: testSite.url,
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      },
      data: JSON.stringify({ id: domain.gero_id, vid: `fuso-${shortTag()}`, e: [{ t: 'pv', u: `${testSite.url}/` }] }),
    });
    expect(res.status()).toBe(202);
  }

  const title = `Liquidação ${shortTag()}`;
  await page.goto(`/v2/campaign/create?domain=${domain.uuid}`);
  await expect(page.getByRole('heading', { name: 'Nova campanha' })).toBeVisible();
  await section(page, 'Título').getByRole('textbox', { name: 'Título', exact: true }).fill(title);
  await fillPushChannelV2(section(page, 'Canal'), pushContent(testSite));

  const timing = section(page, 'Horário de envio');
  await expect(timing.getByRole('radio', { name: 'Assim que a campanha começar' })).toBeChecked();
  const limit = timing.getByRole('textbox', { name: /Limite de envios por minuto/ });
  await limit.fill('0');
  await page.getByRole('button', { name: 'Seguir' }).click();
  await expect(timing.getByText(timingMessages.throttleInvalid)).toBeVisible();
  await limit.fill('100');
  await timing.getByRole('checkbox', { name: /Não enviar em feriados/ }).check();
  await page.getByRole('button', { name: 'Seguir' }).click();

  await expect(page.getByText('No máximo 100 envios por minuto, espaçados por igual.')).toBeVisible();
  await expect(page.getByText('Não envia em feriados: passa para o dia seguinte.')).toBeVisible();
  await expect(
    page.getByText(
      /^Término previsto: \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2} \(3 pessoas a 100 por minuto, começando agora\)\.$/,
    ),
  ).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: test.info().outputPath('timing-summary.png'), fullPage: true });

  // Back to the form: a local time instead, then saved as a draft (nothing sent).
  await page.getByRole('button', { name: 'Voltar' }).click();
  await timing.getByRole('radio', { name: 'Enviar às HH:MM no horário de cada visitante' }).check();
  await timing.getByRole('textbox', { name: 'Horário do visitante' }).fill('09:30');
  await page.getByRole('button', { name: 'Seguir' }).click();
  await expect(page.getByText('Às 09:30 no horário de cada visitante (nas próximas 24 horas).')).toBeVisible();
  await page.getByRole('button', { name: 'Planejar campanha' }).click();
  await page.getByRole('menuitem', { name: 'Rascunho' }).click();
  await expectToast(page, mm.draftSaved);

  const list = await request.get(`/api/momentum/list/${domain.uuid}?type=campaign`, { headers });
  const saved = ((await list.json()).data as Record<string, unknown>[]).find((m) => m.momentum_title === title)!;
  expect(saved).toMatchObject({ throttle_per_minute: 100, skip_holidays: true, send_at_local_time: '09:30' });
  expect(saved).not.toHaveProperty('best_time');
});
