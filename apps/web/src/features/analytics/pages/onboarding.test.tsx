import type { DomainOnboarding } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DOMAIN, type FetchHandler, ok, renderPage, testDomain } from '../../../test/render-page.tsx';

const domain = testDomain({
  domain: 'https://loja.example.com/',
  gero_id: 'G-ABCDEF123456',
  gero_version: '1.4.0',
});

const onboarding = (steps: Partial<DomainOnboarding['steps']>): DomainOnboarding => {
  const all = {
    script_installed: false,
    domain_validated: false,
    push_integrated: false,
    first_optin: false,
    momentum_active: false,
    first_delivery: false,
    ...steps,
  };
  const done = Object.values(all).filter(Boolean).length;
  return { domain_uuid: DOMAIN, steps: all, done_count: done, total: 5, complete: done === 5 };
};

type Answer = { status?: number; body: unknown };

/** The onboarding endpoint as `answer` says, and every analytics widget empty. */
function serve(answer: () => Answer): FetchHandler {
  return (url) => {
    if (url === `/api/domain/onboarding/${DOMAIN}`) return answer();
    if (url.startsWith(`/api/analytics/${DOMAIN}/count/visits`)) return ok({ count: 42, previous: 0 });
    return undefined;
  };
}

const card = () => screen.findByRole('region', { name: 'Primeiros passos' }, { timeout: 8000 });
const step = (region: HTMLElement, name: string) => within(region).getByRole('listitem', { name });

beforeEach(() => {
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('of chart should be greater than 0')) warn(...args);
  });
});

describe("analytics 'Primeiros passos'", () => {
  it('lists the five steps with their state and progress, each open one leading to where it is done', async () => {
    renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      domains: [domain],
      fetch: serve(() => ok(onboarding({ script_installed: true, domain_validated: true }))),
    });
    const region = await card();
    await waitFor(() => expect(within(region).getByText('2 de 5 concluídos')).toBeTruthy());
    expect(within(region).getByRole('progressbar', { name: 'Primeiros passos: 2 de 5 concluídos' })).toBeTruthy();

    for (const done of ['Script instalado', 'Domínio validado']) {
      const item = step(region, done);
      expect(item.dataset.done).toBe('true');
      expect(within(item).getByText('Concluído')).toBeTruthy();
      expect(within(item).queryByRole('button')).toBeNull();
      expect(within(item).queryByRole('link')).toBeNull();
    }
    for (const open of ['Canal push integrado', 'Primeiro opt-in recebido', 'Primeiro momentum ativo'])
      expect(within(step(region, open)).getByText('Pendente')).toBeTruthy();
    expect(
      within(step(region, 'Canal push integrado'))
        .getByRole('link', { name: 'Integrar canal push' })
        .getAttribute('href'),
    ).toBe(`/channels?domain=${DOMAIN}`);
    expect(
      within(step(region, 'Primeiro momentum ativo'))
        .getByRole('link', { name: 'Criar momentum' })
        .getAttribute('href'),
    ).toBe(`/v2/momentum/create?domain=${DOMAIN}`);
  });

  it("opens the script modal at 'Próximos passos': without a push channel the snippet has no opt-in line", async () => {
    renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      domains: [domain],
      fetch: serve(() => ok(onboarding({ script_installed: true, domain_validated: true }))),
    });
    const region = await card();
    await userEvent.click(
      await within(region).findByRole('button', { name: 'Escolher modelo de opt-in' }, { timeout: 8000 }),
    );
    const modal = await screen.findByRole('dialog', { name: /Script de rastreamento/ });
    const next = within(modal).getByRole('region', { name: 'Próximos passos' });
    expect(within(next).getByText(/Disponível depois de integrar o canal push/)).toBeTruthy();
    expect(modal.querySelector('pre')?.textContent).not.toContain("gero('optin'");
    expect(within(next).getByRole('link', { name: 'Integrar canal push' }).getAttribute('href')).toBe(
      `/channels?domain=${DOMAIN}`,
    );
  });

  it('puts the chosen opt-in model in the snippet once the push channel is integrated', async () => {
    renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      domains: [domain],
      fetch: serve(() => ({
        body: {
          message: 'ok',
          data: onboarding({ script_installed: true, domain_validated: true, push_integrated: true }),
        },
      })),
    });
    const region = await card();
    const push = await within(region).findByRole('listitem', { name: 'Canal push integrado' }, { timeout: 8000 });
    expect(within(push).getByText('Concluído')).toBeTruthy();
    await userEvent.click(within(region).getByRole('button', { name: 'Escolher modelo de opt-in' }));
    const modal = await screen.findByRole('dialog', { name: /Script de rastreamento/ });
    const snippet = () => modal.querySelector('pre')?.textContent ?? '';
    await waitFor(() => expect(snippet()).toContain("gero('optin', 'default');"));
    await userEvent.click(within(modal).getByText('Topbox'));
    await waitFor(() => expect(snippet()).toContain("gero('optin', 'topbox');"));
    expect(snippet()).not.toContain("'default'");
    // The init call stays first: the opt-in runs after it.
    expect(snippet().indexOf("gero('init'")).toBeLessThan(snippet().indexOf("gero('optin'"));
  });

  it('is hidden once every step is done, and the widgets still show', async () => {
    const all = {
      script_installed: true,
      domain_validated: true,
      push_integrated: true,
      first_optin: true,
      momentum_active: true,
    };
    const { calls } = renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      domains: [domain],
      fetch: serve(() => ok(onboarding(all))),
    });
    await waitFor(() => expect(calls.some((c) => c.url === `/api/domain/onboarding/${DOMAIN}`)).toBe(true));
    const views = await screen.findByRole('region', { name: 'Visualizações de página' }, { timeout: 8000 });
    await waitFor(() => expect(within(views).getByText('42')).toBeTruthy());
    expect(screen.queryByRole('region', { name: 'Primeiros passos' })).toBeNull();
  });

  it('shows its own error with a retry while the other widgets keep working', async () => {
    let fail = true;
    renderPage(`/?domain=${DOMAIN}`, {
      session: true,
      domains: [domain],
      fetch: serve(() =>
        fail
          ? { status: 503, body: { message: 'Serviço indisponível no momento.', code: 'UNAVAILABLE' } }
          : ok(onboarding({ script_installed: true })),
      ),
    });
    const region = await card();
    await within(region).findByText('Serviço indisponível no momento.', undefined, { timeout: 8000 });
    const views = screen.getByRole('region', { name: 'Visualizações de página' });
    await waitFor(() => expect(within(views).getByText('42')).toBeTruthy());
    fail = false;
    await userEvent.click(within(region).getByRole('button', { name: 'Tentar novamente' }));
    await waitFor(() => expect(within(region).getByText('1 de 5 concluídos')).toBeTruthy());
  });
});
