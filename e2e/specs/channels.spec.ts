import { randomBytes } from 'node:crypto';
import { msg, SECRET_MASK } from '@impeto/shared';
import { expect, type Page } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, expectToast, signIn, test } from '../support/impeto.ts';

interface CredentialChannel {
  title: string;
  /** Label → value typed; `secret` ones must never come back to the browser. */
  fields: { label: string; value: string; secret: boolean; required: string }[];
}

const tag = () => randomBytes(4).toString('hex');

const credentialChannels = (): CredentialChannel[] => [
  {
    title: 'SMS Zenvia',
    fields: [
      { label: 'Usuário', value: `zenvia-user-${tag()}`, secret: true, required: msg.channel.zenviaLoginRequired },
      { label: 'Senha', value: `Zv#senha-${tag()}`, secret: true, required: msg.channel.zenviaPasswordRequired },
      { label: 'Remetente', value: 'CorreBem', secret: false, required: msg.channel.zenviaSenderRequired },
    ],
  },
  {
    title: 'E-mail Amazon SES',
    fields: [
      {
        label: 'Access Key ID',
        value: `AKIA${tag().toUpperCase()}${tag().toUpperCase()}`,
        secret: true,
        required: msg.channel.sesAccessKeyIdRequired,
      },
      {
        label: 'Secret Access Key',
        value: `wJalrXUtnFEMI/K7MDENG/${tag()}${tag()}`,
        secret: true,
        required: msg.channel.sesSecretRequired,
      },
      { label: 'Região', value: 'sa-east-1', secret: false, required: msg.channel.sesRegionRequired },
      {
        label: 'Remetente (Source)',
        value: 'contato@correbem.com.br',
        secret: false,
        required: msg.channel.sesSourceRequired,
      },
    ],
  },
  {
    title: 'E-mail Akna',
    fields: [
      { label: 'Usuário', value: `akna-user-${tag()}`, secret: true, required: msg.channel.aknaUsernameRequired },
      { label: 'Senha', value: `Ak!senha-${tag()}`, secret: true, required: msg.channel.aknaPasswordRequired },
      { label: 'Código do cliente', value: 'CLI-4821', secret: false, required: msg.channel.aknaClientRequired },
    ],
  },
];

const card = (page: Page, title: string) => page.getByRole('article', { name: title, exact: true });
const channelDialog = (page: Page, title: string) => page.getByRole('dialog', { name: new RegExp(title) });

/** The view mode of a credential channel: plain fields as saved, credentials masked, nothing editable. */
async function expectViewMode(page: Page, channel: CredentialChannel) {
  const dialog = channelDialog(page, channel.title);
  await expect(dialog.getByText('As credenciais ficam guardadas com criptografia e nunca são exibidas.')).toBeVisible();
  for (const field of channel.fields) {
    const input = dialog.getByRole('textbox', { name: field.label, exact: true });
    await expect(input).toHaveValue(field.secret ? SECRET_MASK : field.value);
    await expect(input).not.toBeEditable();
  }
  await expect(dialog.getByRole('button', { name: 'Editar' })).toBeVisible();
}

async function expectNoSecretsInPage(page: Page, channels: CredentialChannel[]) {
  const html = await page.content();
  for (const channel of channels) {
    for (const field of channel.fields.filter((f) => f.secret)) {
      expect(html, `${channel.title} · ${field.label} must never reach the page`).not.toContain(field.value);
    }
  }
}

test('each channel type is integrated, and view mode hides the credentials', async ({ page, request, testSite }) => {
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createValidatedDomain(page, request, account, testSite);

  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Canais' }).click();
  await expect(page).toHaveURL(new RegExp(`/channels\\?domain=${domain.uuid}`));
  await expect(page.getByRole('heading', { name: 'Canais' })).toBeVisible();
  await expect(page.getByText(`Conecte os canais de envio do domínio ${domain.name}.`)).toBeVisible();

  const channels = credentialChannels();
  for (const channel of channels) {
    await expect(page.getByRole('checkbox', { name: `${channel.title} integrado` })).not.toBeChecked();
    await card(page, channel.title).getByRole('button', { name: 'Integrar canal' }).click();
    const dialog = channelDialog(page, channel.title);
    await expect(dialog).toBeVisible();

    await dialog.getByRole('button', { name: 'Integrar' }).click();
    for (const field of channel.fields) await expect(dialog.getByText(field.required)).toBeVisible();

    for (const field of channel.fields)
      await dialog.getByRole('textbox', { name: field.label, exact: true }).fill(field.value);
    await dialog.getByRole('button', { name: 'Integrar' }).click();
    await expectToast(page, msg.channel.created);
    await expectViewMode(page, channel);

    await dialog.getByRole('button', { name: 'Fechar' }).last().click();
    await expect(dialog).toBeHidden();
    await card(page, channel.title)
      .getByRole('button', { name: `Visualizar ${channel.title}` })
      .click();
    await expectViewMode(page, channel);
    await expectNoSecretsInPage(page, [channel]);
    await dialog.getByRole('button', { name: 'Fechar' }).last().click();
    await expect(dialog).toBeHidden();
  }

  // Push: no credentials; integrating leads to the opt-in code.
  await card(page, 'Notificação push').getByRole('button', { name: 'Integrar canal' }).click();
  const push = channelDialog(page, 'Notificação push');
  await expect(push.getByText('cn_sw.min.js', { exact: false })).toBeVisible();
  await push.getByRole('button', { name: 'Integrar' }).click();
  await expectToast(page, msg.channel.created);
  await expect(push.getByText('Código de opt-in')).toBeVisible();
  await expect(push.getByText("gero('optin', 'default');")).toBeVisible();
  await expect(push.getByText("gero('optin', 'topbox');")).toBeVisible();
  await push.getByRole('button', { name: 'Fechar' }).last().click();
  await expect(push).toBeHidden();
  await card(page, 'Notificação push').getByRole('button', { name: 'Código de Notificação push' }).click();
  await expect(push.getByText("gero('optin', 'topbox');")).toBeVisible();
  await push.getByRole('button', { name: 'Fechar' }).last().click();

  // In-site messages: no credentials either.
  await card(page, 'Mensagem no site').getByRole('button', { name: 'Integrar canal' }).click();
  const webview = channelDialog(page, 'Mensagem no site');
  await webview.getByRole('button', { name: 'Integrar' }).click();
  await expectToast(page, msg.channel.created);
  await expect(webview.getByText('Canal integrado')).toBeVisible();
  await webview.getByRole('button', { name: 'Fechar' }).last().click();
  await expect(webview).toBeHidden();

  for (const title of ['Notificação push', 'SMS Zenvia', 'E-mail Amazon SES', 'E-mail Akna', 'Mensagem no site']) {
    const checkbox = page.getByRole('checkbox', { name: `${title} integrado` });
    await expect(checkbox).toBeChecked();
    await expect(checkbox).toBeDisabled();
    await expect(card(page, title).getByText('Ativo', { exact: true })).toBeVisible();
    await expect(card(page, title).getByRole('button', { name: 'Integrar canal' })).toHaveCount(0);
  }

  // A fresh load knows only what the server answers: still no credential anywhere in the page.
  await page.reload();
  for (const channel of channels) {
    await card(page, channel.title)
      .getByRole('button', { name: `Visualizar ${channel.title}` })
      .click();
    await expectViewMode(page, channel);
    await expectNoSecretsInPage(page, channels);
    await channelDialog(page, channel.title).getByRole('button', { name: 'Fechar' }).last().click();
    await expect(channelDialog(page, channel.title)).toBeHidden();
  }
});
