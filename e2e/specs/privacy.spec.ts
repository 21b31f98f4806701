import { readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { collectBodies, expectToast, signedInWithDomain, test } from '../support/impeto.ts';

test('a visitor browses the test website, then the company finds, exports and erases them (LGPD)', async ({
  page,
  request,
  browser,
  testSite,
}) => {
  const { domain, headers, get } = await signedInWithDomain(page, request, testSite.url);
  testSite.setGeroId(domain.gero_id);

  // The visitor: two pages and an identification, as the shop's sign-up form would send.
  const visitor = await browser.newContext();
  const sent = collectBodies(visitor);
  const shop = await visitor.newPage();
  await shop.goto(`${testSite.url}/`);
  await expect.poll(() => sent.length, { message: 'the first page view is sent' }).toBeGreaterThan(0);
  await shop.getByRole('link', { name: 'Produtos' }).first().click();
  await shop.waitForURL('**/produtos');
  await expect.poll(() => shop.evaluate(() => Boolean((window as { __gero?: unknown }).__gero))).toBe(true);
  await shop.evaluate(() => {
    const gero = (window as unknown as { gero: (...a: unknown[]) => void }).gero;
    gero('identify', { email: 'titular@exemplo.com.br', phone: '(11) 91234-5678' });
  });
  const vid = await shop.evaluate(() => localStorage.getItem('_gero_vid'));
  expect(vid).toBeTruthy();
  await expect
    .poll(async () => (await get<{ email: string | null }[]>(`/api/person/list/${domain.uuid}`))[0]?.email, {
      timeout: 20_000,
    })
    .toBe('titular@exemplo.com.br');
  await visitor.close();

  // The company's DPO: Domínios › Opções › Privacidade (LGPD), search by e-mail.
  await page.goto('/domains');
  await page.getByRole('button', { name: `Opções de ${domain.name}` }).click();
  await page.getByRole('menuitem', { name: 'Privacidade (LGPD)' }).click();
  await expect(page.getByRole('heading', { name: 'Privacidade (LGPD)' })).toBeVisible();
  await expect(page.getByText('13 meses')).toBeVisible();
  await page.getByText('E-mail', { exact: true }).first().click();
  await page.getByRole('textbox', { name: 'E-mail' }).fill('Titular@Exemplo.com.br');
  await page.getByRole('button', { name: 'Buscar' }).click();
  const card = page.getByLabel(`Visitante ${vid}`);
  await expect(card).toBeVisible();
  await expect(card.getByText('11912345678')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('privacy-found.png'), fullPage: true });

  // The export: a JSON file with the attributes and the events.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Baixar dados (JSON)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('lgpd-titular@exemplo.com.br.json');
  const exported = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(exported.persons).toHaveLength(1);
  expect(exported.persons[0]).toMatchObject({ visitor_id: vid, email: 'titular@exemplo.com.br' });
  expect(exported.persons[0].user_stored_data['visited.url']).toEqual(
    expect.arrayContaining([`${testSite.url}/`, `${testSite.url}/produtos`]),
  );
  expect(exported.persons[0].events.map((e: { kind: string }) => e.kind)).toEqual(
    expect.arrayContaining(['pageview', 'identify']),
  );
  await expectToast(page, 'Dados do visitante exportados.');

  // The erasure, confirmed as final.
  await page.getByRole('button', { name: 'Apagar dados' }).click();
  const dialog = page.getByRole('dialog', { name: 'Apagar dados do visitante' });
  await expect(dialog.getByText('Esta ação é definitiva')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Apagar definitivamente' })).toBeDisabled();
  await dialog.getByLabel('Entendo que os dados serão apagados definitivamente.').check();
  await page.screenshot({ path: test.info().outputPath('privacy-confirm.png') });
  await dialog.getByRole('button', { name: 'Apagar definitivamente' }).click();
  await expect(page.getByText('Dados apagados definitivamente', { exact: true })).toBeVisible();
  await expectToast(page, 'Dados do visitante apagados definitivamente.');

  // The API no longer has them, by any key.
  for (const query of [`vid=${encodeURIComponent(vid!)}`, 'email=titular%40exemplo.com.br', 'phone=11912345678']) {
    const res = await request.get(`/api/person/export/${domain.uuid}?${query}`, { headers });
    expect(res.status()).toBe(404);
  }
  expect(await get<unknown[]>(`/api/person/list/${domain.uuid}`)).toEqual([]);
});
