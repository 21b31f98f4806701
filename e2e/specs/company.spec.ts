import { msg } from '@impeto/shared';
import { expect, type Locator } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { expectToast, signIn, test } from '../support/impeto.ts';

const field = (dialog: Locator, label: string) => dialog.getByRole('textbox', { name: label, exact: true });

test('the company form refuses an invalid CNPJ and saves a valid one', async ({ page, request }) => {
  const account = await createAccount(request);
  await signIn(page, account);
  await expect(page.getByRole('dialog', { name: 'Adicionando um novo domínio' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Menu do usuário' }).click();
  await page.getByRole('menuitem', { name: 'Dados da empresa' }).click();
  await expect(page).toHaveURL(/\/settings/);
  await expect(page.getByRole('heading', { name: 'Configurações' })).toBeVisible();
  await expect(page.getByText('Cadastro incompleto', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Adicionar' }).click();

  const form = page.getByRole('dialog', { name: 'Cadastrar dados da empresa' });
  await expect(form).toBeVisible();
  await expect(form.getByText(account.company)).toBeVisible();
  // Masked fields are typed digit by digit, as a person would.
  await field(form, 'CNPJ').pressSequentially('11111111111111');
  await expect(field(form, 'CNPJ')).toHaveValue('11.111.111/1111-11');
  await field(form, 'Inscrição municipal').fill('1234567');
  await field(form, 'Razão social').fill(`${account.company} Comércio de Artigos Esportivos Ltda`);
  await field(form, 'Data de fundação').pressSequentially('15032012');
  await field(form, 'E-mail').fill('financeiro@correbem.com.br');
  await field(form, 'Telefone').pressSequentially('11987654321');
  await expect(field(form, 'Telefone')).toHaveValue('(11) 98765-4321');
  await field(form, 'CEP').pressSequentially('01310100');
  await field(form, 'Endereço').fill('Avenida Paulista');
  await field(form, 'Número').fill('1578');
  await field(form, 'Bairro').fill('Bela Vista');
  await field(form, 'Cidade').fill('São Paulo');
  await form.getByRole('combobox', { name: 'UF' }).fill('SP');
  await page.getByRole('option', { name: 'SP', exact: true }).click();
  await expect(form.getByRole('combobox', { name: 'UF' })).toHaveValue('SP');
  await expect(field(form, 'País')).toHaveValue('Brasil');

  await form.getByRole('button', { name: 'Cadastrar' }).click();
  await expect(form.getByText(msg.company.cnpjInvalid)).toBeVisible();
  await expect(form).toBeVisible();

  await field(form, 'CNPJ').clear();
  await field(form, 'CNPJ').pressSequentially('11222333000181');
  await expect(field(form, 'CNPJ')).toHaveValue('11.222.333/0001-81');
  await form.getByRole('button', { name: 'Cadastrar' }).click();
  await expectToast(page, msg.company.saved);
  await expect(form).toBeHidden();

  await expect(page.getByText('Cadastro completo', { exact: true })).toBeVisible();
  await expect(page.getByText('CNPJ 11.222.333/0001-81', { exact: true })).toBeVisible();
  await expect(page.getByText('(11) 98765-4321', { exact: true })).toBeVisible();
  await expect(page.getByText('São Paulo/SP', { exact: true })).toBeVisible();
  await expect(page.getByText('01310-100 · Brasil', { exact: true })).toBeVisible();

  // View mode: the saved values, nothing editable, no way to save.
  await page.getByRole('button', { name: 'Visualizar' }).click();
  const view = page.getByRole('dialog', { name: 'Dados da empresa' });
  await expect(view).toBeVisible();
  await expect(field(view, 'CNPJ')).toHaveValue('11.222.333/0001-81');
  await expect(field(view, 'Razão social')).toHaveValue(`${account.company} Comércio de Artigos Esportivos Ltda`);
  await expect(field(view, 'Data de fundação')).toHaveValue('15/03/2012');
  for (const label of [
    'CNPJ',
    'Inscrição municipal',
    'Razão social',
    'Data de fundação',
    'E-mail',
    'Telefone',
    'CEP',
    'Endereço',
    'Número',
    'Bairro',
    'Cidade',
    'País',
  ]) {
    await expect(field(view, label), label).not.toBeEditable();
  }
  await expect(view.getByRole('combobox', { name: 'UF' })).not.toBeEditable();
  await expect(view.getByRole('button', { name: /Salvar|Cadastrar/ })).toHaveCount(0);
  await field(view, 'Razão social').pressSequentially('xyz');
  await expect(field(view, 'Razão social')).toHaveValue(`${account.company} Comércio de Artigos Esportivos Ltda`);
  await view.getByRole('button', { name: 'Fechar' }).last().click();
  await expect(view).toBeHidden();

  await page.reload();
  await expect(page.getByText('CNPJ 11.222.333/0001-81', { exact: true })).toBeVisible();
});
