import type { DomainOnboarding } from '@impeto/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DOMAIN, ok, renderPage } from '../../../test/render-page.tsx';

/** Issue #29: the card ends with the first message delivered, and 'Script instalado' follows the validation. */
const onboarding = (steps: Partial<DomainOnboarding['steps']>): DomainOnboarding => {
  const all: DomainOnboarding['steps'] = {
    script_installed: false,
    domain_validated: false,
    push_integrated: false,
    first_optin: false,
    momentum_active: false,
    first_delivery: false,
    ...steps,
  };
  const done = Object.values(all).filter(Boolean).length;
  return { domain_uuid: DOMAIN, steps: all, done_count: done, total: 6, complete: done === 6 };
};

const open = (steps: Partial<DomainOnboarding['steps']>) =>
  renderPage(`/?domain=${DOMAIN}`, {
    session: true,
    fetch: {
      [`/api/domain/onboarding/${DOMAIN}`]: ok(onboarding(steps)),
      [`/api/analytics/${DOMAIN}/count/visits`]: ok({ count: 0, previous: 0 }),
    },
  });
const card = () => screen.findByRole('region', { name: 'Primeiros passos' }, { timeout: 8000 });
const step = (region: HTMLElement, name: string) => within(region).getByRole('listitem', { name });

describe("analytics 'Primeiros passos' (the last step and the script step)", () => {
  it('stays open with an Active momentum until the first message is actually delivered', async () => {
    open({
      script_installed: true,
      domain_validated: true,
      push_integrated: true,
      first_optin: true,
      momentum_active: true,
    });
    const region = await card();
    await waitFor(() => expect(within(region).getByText('5 de 6 concluídos')).toBeTruthy());
    const active = step(region, 'Primeiro momentum ativo');
    expect(within(active).getByText('Concluído')).toBeTruthy();
    // Active says nothing about sending: that is the last step's to say.
    expect(within(active).queryByText(/enviando/)).toBeNull();
    const last = step(region, 'Primeira mensagem entregue');
    expect(last.dataset.done).toBe('false');
    expect(within(last).getByText('Pendente')).toBeTruthy();
    expect(within(last).getByRole('link', { name: 'Ver momentums' }).getAttribute('href')).toBe(
      `/v2/momentums?domain=${DOMAIN}`,
    );
  });

  it("lists 'Primeira mensagem entregue' last, done once a message went out", async () => {
    open({
      script_installed: true,
      domain_validated: true,
      push_integrated: true,
      first_optin: true,
      first_delivery: true,
    });
    const region = await card();
    const items = await within(region).findAllByRole('listitem', undefined, { timeout: 8000 });
    expect(items.at(-1)?.getAttribute('aria-label')).toBe('Primeira mensagem entregue');
    expect(items.at(-1)?.dataset.done).toBe('true');
  });

  it('stops asking for the push channel in the script modal once it is integrated', async () => {
    open({ script_installed: true, domain_validated: true, push_integrated: true });
    const region = await card();
    await waitFor(() => expect(step(region, 'Domínio validado').dataset.done).toBe('true'));
    await userEvent.click(within(region).getByRole('button', { name: 'Escolher modelo de opt-in' }));
    const modal = await screen.findByRole('dialog', { name: /Script de rastreamento/ });
    const next = within(modal).getByRole('region', { name: 'Próximos passos' });
    await waitFor(() => expect(within(next).getByText(/O canal push já está integrado/)).toBeTruthy());
    expect(within(next).queryByText(/falta integrar o canal push/)).toBeNull();
  });

  it('still asks for the push channel in the script modal while it is missing', async () => {
    open({ script_installed: true, domain_validated: true });
    const region = await card();
    await userEvent.click(
      await within(region).findByRole('button', { name: 'Escolher modelo de opt-in' }, { timeout: 8000 }),
    );
    const modal = await screen.findByRole('dialog', { name: /Script de rastreamento/ });
    const next = within(modal).getByRole('region', { name: 'Próximos passos' });
    await waitFor(() => expect(within(next).getByText(/falta integrar o canal push/)).toBeTruthy());
  });
});
