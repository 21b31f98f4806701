import { experimentMessages, momentumMessages } from '@impeto/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { message, openForm, PLAIN, paused, saveForm, setNumber } from './momentum-form-kit.ts';

/* The v2 form's 'Teste A/B' section (issue #25): variants of the push message, shares, control group. */

const TESTED = paused('aaaaaaaa-aaaa-4aaa-8aaa-000000000002', {
  experiment: {
    control_percent: 10,
    variants: [
      { name: 'A', weight: 34, values: [message('Esqueceu algo?')] },
      { name: 'B', weight: 33, values: [message('Seu carrinho sente sua falta')] },
      { name: 'C', weight: 33, values: [message('Frete grátis hoje')] },
    ],
  },
});
const open = (uuid: string) => openForm(TESTED, uuid);
const save = (calls: { url: string; json?: unknown }[], summary?: string) => saveForm(calls, { summary });

describe('momentum form: Teste A/B (issue #25)', { timeout: 60_000 }, () => {
  it('sends no experiment key when the section is left alone', async () => {
    const { calls } = await open(PLAIN.uuid);
    expect(screen.queryByRole('tab', { name: 'Variante A' })).toBeNull();
    const body = await save(calls);
    expect(body.momentums).toHaveLength(3);
    expect('experiment' in body).toBe(false);
  });

  it('turns the message into variants with their own message and preview, shares adding to 100 and a control group', async () => {
    const { calls } = await open(PLAIN.uuid);
    await userEvent.click(screen.getByRole('switch', { name: /Testar variantes da mensagem/ }));
    // Even split by default; B starts as a copy of A.
    expect((screen.getByRole('textbox', { name: 'Parcela da variante A' }) as HTMLInputElement).value).toBe('50 %');
    expect((screen.getByRole('textbox', { name: 'Parcela da variante B' }) as HTMLInputElement).value).toBe('50 %');
    await userEvent.click(screen.getByRole('tab', { name: 'Variante B' }));
    const title = screen.getByRole('textbox', { name: /Título da notificação/ }) as HTMLInputElement;
    expect(title.value).toBe('Esqueceu algo?');
    await userEvent.clear(title);
    await userEvent.type(title, 'Volte e ganhe frete');
    // The preview follows the variant shown.
    expect(screen.getAllByText('Volte e ganhe frete').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('tab', { name: 'Variante A' }));
    expect((screen.getByRole('textbox', { name: /Título da notificação/ }) as HTMLInputElement).value).toBe(
      'Esqueceu algo?',
    );
    expect(screen.queryByText('Volte e ganhe frete')).toBeNull();

    // Shares that do not add up, and a control group past 50 %: the shared schema's pt-BR messages.
    await setNumber('Parcela da variante A', '60');
    await setNumber('Grupo de controle', '60');
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(await screen.findByText(experimentMessages.weightsSum)).toBeTruthy();
    expect(screen.getByText(experimentMessages.controlInvalid)).toBeTruthy();
    expect(screen.queryByText('Resumo do momentum')).toBeNull();

    await setNumber('Parcela da variante B', '40');
    await setNumber('Grupo de controle', '20');
    const body = await save(calls, 'Variantes A 60 %, B 40 %. Grupo de controle: 20 % não recebe nada.');
    expect(body.experiment).toEqual({
      control_percent: 20,
      variants: [
        { name: 'A', weight: 60, values: [expect.objectContaining({ title: 'Esqueceu algo?' })] },
        { name: 'B', weight: 40, values: [expect.objectContaining({ title: 'Volte e ganhe frete' })] },
      ],
    });
    // The dispatcher block keeps variant A.
    const dispatcher = (body.momentums as { type: string; values: { title: string }[] }[]).find(
      (b) => b.type === 'dispatcher',
    );
    expect(dispatcher?.values[0]?.title).toBe('Esqueceu algo?');
  });

  it('a variant with an empty message is refused on its tab', async () => {
    await open(PLAIN.uuid);
    await userEvent.click(screen.getByRole('switch', { name: /Testar variantes da mensagem/ }));
    await userEvent.click(screen.getByRole('tab', { name: 'Variante B' }));
    await userEvent.clear(screen.getByRole('textbox', { name: /Título da notificação/ }));
    await userEvent.click(screen.getByRole('tab', { name: 'Variante A' }));
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(await screen.findByText(momentumMessages.incomplete)).toBeTruthy();
    expect(screen.queryByText('Resumo do momentum')).toBeNull();
    await userEvent.click(screen.getByRole('tab', { name: 'Variante B' }));
    const title = screen.getByRole('textbox', { name: /Título da notificação/ });
    expect(title.getAttribute('aria-invalid')).toBe('true');
  });

  it('loads an existing experiment back, adds and removes variants with even shares', async () => {
    const { calls } = await open(TESTED.uuid);
    const tabs = within(screen.getByRole('tablist', { name: 'Variantes da mensagem' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Variante A', 'Variante B', 'Variante C']);
    expect((screen.getByRole('textbox', { name: 'Grupo de controle' }) as HTMLInputElement).value).toBe('10 %');
    await userEvent.click(screen.getByRole('tab', { name: 'Variante C' }));
    expect((screen.getByRole('textbox', { name: /Título da notificação/ }) as HTMLInputElement).value).toBe(
      'Frete grátis hoje',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar variante' }));
    expect(
      ['A', 'B', 'C', 'D'].map(
        (v) => (screen.getByRole('textbox', { name: `Parcela da variante ${v}` }) as HTMLInputElement).value,
      ),
    ).toEqual(['25 %', '25 %', '25 %', '25 %']);
    await userEvent.click(screen.getByRole('button', { name: 'Remover variante B' }));
    const body = await save(calls);
    expect(body.experiment).toEqual({
      control_percent: 10,
      variants: [
        { name: 'A', weight: 34, values: [expect.objectContaining({ title: 'Esqueceu algo?' })] },
        { name: 'B', weight: 33, values: [expect.objectContaining({ title: 'Frete grátis hoje' })] },
        { name: 'C', weight: 33, values: [expect.objectContaining({ title: 'Esqueceu algo?' })] },
      ],
    });
  });
});
