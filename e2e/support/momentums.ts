import { randomBytes } from 'node:crypto';
import type { DomainItem } from '@impeto/shared';
import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import type { TestSite } from '../test-site/site.ts';
import { type Account, createAccount } from './accounts.ts';
import { createValidatedDomain, sessionToken, signIn } from './impeto.ts';

export const shortTag = () => randomBytes(3).toString('hex');

/** POST /api/channel/create for the push channel (no credentials), as the Canais page does; returns its uuid. */
export async function integratePushChannel(page: Page, request: APIRequestContext, domainUuid: string) {
  const res = await request.post('/api/channel/create', {
    headers: { Authorization: `Bearer ${await sessionToken(page)}` },
    data: { channel: { domain_uuid: domainUuid, channel_type: 'CELL_NOTIFICATION', properties: {} } },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data.uuid as string;
}

/**
 * A new account signed in through the form, with a domain validated against the test site and the push channel
 * integrated: what a user has before building momentums and campaigns. The page is left on /domains.
 */
export async function readyToSend(
  page: Page,
  request: APIRequestContext,
  site: TestSite,
): Promise<{ account: Account; domain: DomainItem }> {
  const account = await createAccount(request);
  await signIn(page, account);
  const domain = await createValidatedDomain(page, request, account, site);
  await integratePushChannel(page, request, domain.uuid);
  return { account, domain };
}

export interface PushContent {
  name: string;
  title: string;
  message: string;
  icon: string;
  redirect: string;
}

export const pushContent = (site: TestSite, tag = shortTag()): PushContent => ({
  name: `Lembrete carrinho ${tag}`,
  title: 'Seu carrinho te espera',
  message: 'O tênis de corrida ainda está no carrinho. Conclua a compra com frete grátis!',
  icon: `${site.url}/icone-${tag}.png`,
  redirect: `${site.url}/carrinho`,
});

/** Picks an option of a Mantine Select (a combobox input) by its visible label. */
export async function choose(scope: Locator, label: string | RegExp, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await scope.page().getByRole('option', { name: option, exact: true }).click();
}

/** The push channel of the v2 form's Canal section: the integrated channel, then the notification's fields. */
export async function fillPushChannelV2(section: Locator, content: PushContent) {
  await choose(section, 'Canal', 'Notificação push');
  await section.getByRole('textbox', { name: 'Nome da notificação' }).fill(content.name);
  await section.getByRole('textbox', { name: 'Título da notificação' }).fill(content.title);
  await section.getByRole('textbox', { name: 'Mensagem da notificação' }).fill(content.message);
  await section.getByRole('textbox', { name: 'URL do ícone' }).fill(content.icon);
  await section.getByRole('textbox', { name: 'URL de redirecionamento' }).fill(content.redirect);
}

/** The v2 list's category tab (its name carries the count badge). */
export const listTab = (page: Page, label: string) => page.getByRole('tab', { name: new RegExp(`^${label}`) });

/** The list row of one momentum or campaign, by title. */
export const listRow = (page: Page, title: string) =>
  page.getByRole('row').filter({ has: page.getByText(title, { exact: true }) });

export async function openListTab(page: Page, label: string) {
  await listTab(page, label).click();
  await expect(listTab(page, label)).toHaveAttribute('aria-selected', 'true');
}

/** 'D MMMM YYYY' in pt-BR (the calendar's day labels), `days` calendar days from today in America/Sao_Paulo. */
export function calendarDayLabel(days: number, now = new Date()) {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone: 'America/Sao_Paulo',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).formatToParts(new Date(now.getTime() + days * 86_400_000));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')}`;
}

/**
 * Picks the day `days` ahead in a Mantine DateTimePicker (the `field` button), keeping the time it offers, and
 * closes it with its check button. Returns the day's label ('25 novembro 2026').
 */
export async function pickDayAhead(field: Locator, days: number) {
  const page = field.page();
  const label = calendarDayLabel(days);
  await field.click();
  const calendar = page
    .getByRole('dialog')
    .filter({ has: page.getByRole('table') })
    .last();
  await expect(calendar).toBeVisible();
  const day = calendar.getByRole('button', { name: label, exact: true });
  if (!(await day.isVisible())) {
    // The month arrows and the check button carry no accessible name (Mantine defaults): data-direction it is.
    await calendar.locator('button[data-direction="next"]').click();
  }
  await day.click();
  await calendar.locator('.mantine-DateTimePicker-submitButton').click();
  await expect(calendar).toBeHidden();
  return label;
}
