import { msg } from '@impeto/shared';
import { expect, type Page } from '@playwright/test';
import { createAccount } from '../support/accounts.ts';
import { createValidatedDomain, expectToast, signIn, test } from '../support/impeto.ts';
import { makePng } from '../support/png.ts';

/** The size as the gallery writes it: KB with one decimal, comma as the separator (below 1000 KB). */
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1).replace('.', ',')} KB`;

async function openEmptyGallery(page: Page) {
  await page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Mídias' }).click();
  await expect(page).toHaveURL(/\/media\?domain=/);
  await expect(page.getByText(msg.media.empty)).toBeVisible();
  await page.getByRole('button', { name: 'Adicionar mídia' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Adicionar mídia' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('two images are uploaded, shown and one is deleted', async ({ page, request, testSite }) => {
  const account = await createAccount(request);
  await signIn(page, account);
  await createValidatedDomain(page, request, account, testSite);

  const pixel = makePng(1, 1);
  const banner = makePng(48, 32, { noise: true, seed: 7 });
  const dialog = await openEmptyGallery(page);
  await dialog.getByLabel('Selecionar imagens').setInputFiles([
    { name: 'pixel.png', mimeType: 'image/png', buffer: pixel },
    { name: 'banner-promocao.png', mimeType: 'image/png', buffer: banner },
  ]);
  await expect(dialog.getByText('2 imagens selecionadas')).toBeVisible();
  await expect(dialog.getByText(kb(banner.length), { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Enviar (2)' }).click();
  await expectToast(page, msg.media.uploaded);
  await expect(dialog).toBeHidden();

  for (const [name, bytes] of [
    ['pixel.png', pixel],
    ['banner-promocao.png', banner],
  ] as const) {
    const image = page.getByRole('img', { name, exact: true });
    await expect(image).toBeVisible();
    // Served back by Ímpeto and decoded by the browser: not a broken image.
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    await expect(page.getByText(new RegExp(`^${kb(bytes.length)} · \\d{2}/\\d{2}/\\d{4}$`))).toBeVisible();
  }
  await expect(page.getByText(msg.media.empty)).toHaveCount(0);

  await page.getByRole('button', { name: 'Remover pixel.png' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remover mídia' });
  await expect(confirm.getByText('pixel.png')).toBeVisible();
  await confirm.getByRole('button', { name: 'Remover' }).click();
  await expectToast(page, msg.media.removed);
  await expect(page.getByRole('img', { name: 'pixel.png', exact: true })).toHaveCount(0);
  await expect(page.getByRole('img', { name: 'banner-promocao.png', exact: true })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('img', { name: 'banner-promocao.png', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Remover / })).toHaveCount(1);
});

test('a file that is not an image is refused, even named .png, and nothing is added', async ({
  page,
  request,
  testSite,
}) => {
  const account = await createAccount(request);
  await signIn(page, account);
  await createValidatedDomain(page, request, account, testSite);
  const dialog = await openEmptyGallery(page);
  const input = dialog.getByLabel('Selecionar imagens');

  // A text file is turned away by the picker itself.
  await input.setInputFiles({ name: 'lista.txt', mimeType: 'text/plain', buffer: Buffer.from('camisetas, tênis') });
  await expect(dialog.getByText(msg.media.notImage('lista.txt'))).toBeVisible();
  await expect(dialog.getByRole('button', { name: /^Enviar/ })).toBeDisabled();

  // A PDF renamed .png passes the picker (the browser trusts the name) and is refused by its content.
  await input.setInputFiles({
    name: 'nota-fiscal.png',
    mimeType: 'image/png',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n'),
  });
  await expect(dialog.getByText('1 imagem selecionada')).toBeVisible();
  await dialog.getByRole('button', { name: 'Enviar (1)' }).click();
  await expectToast(page, msg.media.uploadFailed, 'Erro');
  await expect(dialog.getByText(msg.media.notImage('nota-fiscal.png'))).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();

  await expect(page.getByText(msg.media.empty)).toBeVisible();
  await page.reload();
  await expect(page.getByText(msg.media.empty)).toBeVisible();
  await expect(page.getByRole('img', { name: 'nota-fiscal.png' })).toHaveCount(0);
});
