import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export interface Account {
  company: string;
  companyUuid: string;
  name: string;
  username: string;
  email: string;
  password: string;
}

export const newAccountData = () => {
  const tag = randomBytes(3).toString('hex');
  return {
    company: `Loja ${tag}`,
    name: `Maria ${tag}`,
    username: `maria_${tag}`,
    email: `maria_${tag}@exemplo.com.br`,
    password: `senha-segura-${tag}`,
  };
};

/** The newest link mailed to `to` (the development outbox stands in for the inbox). */
export async function mailedLink(request: APIRequestContext, to: string, path: string) {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get('/api/dev/outbox');
      const mails = (await res.json()).data as { to: string; links: string[] }[];
      link = mails
        .find((m) => m.to === to && m.links.some((l) => l.includes(path)))
        ?.links.find((l) => l.includes(path));
      return link;
    })
    .toBeTruthy();
  return new URL(link!);
}

/** A validated account made through the public API, as a returning user would have. */
export async function createAccount(request: APIRequestContext): Promise<Account> {
  const data = newAccountData();
  const company = await request.post('/api/company/create', { data: { company: { name: data.company } } });
  const companyUuid = (await company.json()).data.company.uuid as string;
  const signup = await request.post('/api/users/signup', {
    data: {
      user: {
        company_uuid: companyUuid,
        name: data.name,
        username: data.username,
        email: data.email,
        password: data.password,
        password_confirmation: data.password,
      },
    },
  });
  expect(signup.status()).toBe(200);
  const link = await mailedLink(request, data.email, '/validate');
  const validated = await request.put('/api/users/validate', { data: { user: { cid: link.searchParams.get('cid') } } });
  expect(validated.status()).toBe(200);
  return { ...data, companyUuid };
}

/** Signs in through the form, solving the ALTCHA proof of work in the page like a person clicking it. */
export async function signInThroughForm(page: Page, account: Pick<Account, 'username' | 'password'>) {
  await page.getByLabel('Nome de usuário').fill(account.username);
  await page.getByLabel('Senha', { exact: true }).fill(account.password);
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/** Clicks the ALTCHA box and waits until the widget reports a solved proof of work. */
export async function solveCaptcha(page: Page) {
  const widget = page.getByTestId('captcha');
  await widget.getByText('Eu não sou um robô').click();
  await expect
    .poll(() => widget.evaluate((el) => (el as HTMLElement & { getState(): string }).getState()), { timeout: 60_000 })
    .toBe('verified');
}
