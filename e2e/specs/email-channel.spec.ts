import { msg } from '@impeto/shared';
import { expect } from '@playwright/test';
import { startSesPeer } from '../../apps/server/test/peers/ses-peer.ts';
import { sesPeerPort } from '../playwright.config.ts';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, expectToast, sessionToken, signIn, test } from '../support/impeto.ts';
import { shortTag } from '../support/momentums.ts';

/*
 * E-mail end to end: the user integrates an Amazon SES channel through the Canais page, a visitor of the test
 * website identifies with an e-mail address through the tag, a campaign goes out, the local SES peer (SigV4
 * checked with the keys typed in the form) receives the e-mail, and the campaign's delivery log shows it.
 */

const KEYS = {
  accessKeyId: `AKIAE2E${shortTag().toUpperCase()}`,
  secretAccessKey: `e2e/segredo+${shortTag()}${shortTag()}`,
};

test('an SES channel integrated in the dashboard sends a campaign e-mail, and the delivery log shows it', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const ses = await startSesPeer({ credentials: { [KEYS.accessKeyId]: KEYS.secretAccessKey }, port: sesPeerPort });
  try {
    const account = await createAccount(request);
    await signIn(page, account);
    const domain = await createValidatedDomain(page, request, account, testSite);
    testSite.setGeroId(domain.gero_id);

    await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Canais' }).click();
    const card = page.getByRole('article', { name: 'E-mail Amazon SES', exact: true });
    await card.getByRole('button', { name: 'Integrar canal' }).click();
    const dialog = page.getByRole('dialog', { name: /E-mail Amazon SES/ });
    await dialog.getByRole('textbox', { name: 'Access Key ID', exact: true }).fill(KEYS.accessKeyId);
    await dialog.getByRole('textbox', { name: 'Secret Access Key', exact: true }).fill(KEYS.secretAccessKey);
    await dialog.getByRole('textbox', { name: 'Região', exact: true }).fill('sa-east-1');
    await dialog.getByRole('textbox', { name: 'Remetente (Source)', exact: true }).fill('ofertas@correbem.com.br');
    await dialog.getByRole('button', { name: 'Integrar' }).click();
    await expectToast(page, msg.channel.created);
    await dialog.getByRole('button', { name: 'Fechar' }).last().click();

    // The frequency cap across channels, set on the same page.
    const cap = page.getByRole('region', { name: 'Limite de frequência' });
    await cap.getByRole('textbox', { name: 'Por dia (24 horas)' }).fill('3');
    await cap.getByRole('button', { name: 'Salvar limite' }).click();
    await expectToast(page, msg.frequencyCap.updated);
    await page.screenshot({ path: test.info().outputPath('channels.png'), fullPage: true });

    // A visitor tells the site who they are; the tag sends it with its next beacon.
    const email = `cliente.${shortTag()}@exemplo.com.br`;
    const visitor = await browser.newContext();
    const shop = await visitor.newPage();
    await shop.goto(`${testSite.url}/produto/tenis-corrida`);
    await shop.waitForFunction(() => typeof (window as unknown as { gero?: unknown }).gero === 'function');
    const identified = shop.waitForRequest(
      (req) => new URL(req.url()).pathname === '/collect' && (req.postData() ?? '').includes('"t":"id"'),
    );
    await shop.evaluate((address) => {
      (window as unknown as { gero: (...args: unknown[]) => void }).gero('identify', { email: address, name: 'Ana' });
    }, email);
    await identified;
    const headers = { Authorization: `Bearer ${await sessionToken(page)}` };
    await expect
      .poll(
        async () => {
          const res = await request.get(`/api/person/list/${domain.uuid}`, { headers });
          return ((await res.json()).data as { email: string | null }[]).some((p) => p.email === email);
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await visitor.close();

    const title = `Semana do frete grátis ${shortTag()}`;
    const created = await request.post('/api/momentum/create', {
      headers,
      data: {
        domain_uuid: domain.uuid,
        type: 'campaign',
        momentum_title: title,
        status: 'Active',
        momentums: [
          { type: 'filter', values: [{ filter: 'all' }] },
          {
            type: 'dispatcher',
            values: [
              {
                filter: 'AWS_SES',
                subject: 'Frete grátis só esta semana',
                body: '<h1>Olá, Ana!</h1><p>Frete grátis em <b>todo o site</b>.</p><script>alert(1)</script>',
              },
            ],
          },
        ],
      },
    });
    expect(created.status(), await created.text()).toBe(200);

    await expect.poll(() => ses.received.filter((e) => e.to.includes(email)).length, { timeout: 60_000 }).toBe(1);
    const received = ses.received.find((e) => e.to.includes(email))!;
    expect(received).toMatchObject({
      from: 'ofertas@correbem.com.br',
      subject: 'Frete grátis só esta semana',
      region: 'sa-east-1',
      accessKeyId: KEYS.accessKeyId,
    });
    expect(received.html).toContain('<b>todo o site</b>');
    expect(received.html).not.toContain('<script');
    expect(received.text).toContain('Frete grátis em todo o site.');
    expect(received.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    await page.goto(`/v2/campaigns?domain=${domain.uuid}`);
    await page.getByRole('button', { name: `Entregas de ${title}` }).click();
    await expect(page.getByRole('heading', { name: 'Entregas' })).toBeVisible();
    const log = page.getByRole('table', { name: 'Entregas' });
    const masked = `${email[0]}***${email.split('@')[0]!.slice(-1)}@e***o.com.br`;
    const row = log.getByRole('row').filter({ hasText: masked });
    await expect(row).toBeVisible();
    await expect(row.getByText('Enviada')).toBeVisible();
    await expect(row.getByText('E-mail (SES)')).toBeVisible();
    await expect(page.getByText(email)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('delivery-log.png'), fullPage: true });

    await page.getByText('Falhas', { exact: true }).click();
    await expect(page).toHaveURL(/status=failed/);
    await expect(page.getByText('Nenhuma entrega com este status')).toBeVisible();
  } finally {
    await ses.close();
  }
});
