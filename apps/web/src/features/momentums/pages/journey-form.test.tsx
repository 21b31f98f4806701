import { journeyMessages, momentumMessages } from '@impeto/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { journeySection, message, openForm, PLAIN, paused, saveForm, sms } from './momentum-form-kit.ts';

/* The v2 form's 'Jornada' section (issue #26): follow-up steps as a list, the exit rules, the Resumo's lines. */

const JOURNEY = paused('aaaaaaaa-aaaa-4aaa-8aaa-000000000002', {
  steps: [
    { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [message('Ainda pensando?')] },
    { wait: { amount: 3, unit: 'days' }, condition: { kind: 'not_clicked' }, values: [sms] },
  ],
  exit: { on_conversion: true, on_opt_out: true },
});

const open = (uuid: string) => openForm(JOURNEY, uuid);
const section = journeySection;
const save = saveForm;

describe('momentum form: Jornada (issue #26)', { timeout: 60_000 }, () => {
  it('sends no journey keys when the section is left alone', async () => {
    const { calls } = await open(PLAIN.uuid);
    expect(within(section()).getByText(/Nenhuma etapa/)).toBeTruthy();
    const body = await save(calls);
    expect('steps' in body).toBe(false);
    expect('exit' in body).toBe(false);
  });

  it('adds a step as a copy of the message, refuses an empty wait, and saves it with the Resumo naming it', async () => {
    const { calls } = await open(PLAIN.uuid);
    await userEvent.click(within(section()).getByRole('button', { name: 'Adicionar etapa' }));
    const step = screen.getByRole('region', { name: 'Etapa 1' });
    const title = within(step).getByRole('textbox', { name: /Título da notificação/ }) as HTMLInputElement;
    expect(title.value).toBe('Esqueceu algo?');
    fireEvent.change(title, { target: { value: 'Volte e ganhe frete' } });
    await userEvent.clear(within(step).getByRole('textbox', { name: 'Esperar' }));
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(await screen.findByText(journeyMessages.waitInvalid)).toBeTruthy();
    expect(screen.queryByText('Resumo do momentum')).toBeNull();
    fireEvent.change(within(step).getByRole('textbox', { name: 'Esperar' }), { target: { value: '2' } });
    expect(within(section()).getByRole('checkbox', { name: /Converteu/ })).toHaveProperty('checked', true);
    await userEvent.click(screen.getByRole('button', { name: 'Seguir' }));
    expect(
      await screen.findByText('Etapa 1: Esperar 2 dias → Não converteu → Notificação push: Volte e ganhe frete'),
    ).toBeTruthy();
    expect(screen.getByText('Sai da jornada quando converte.')).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText(momentumMessages.updated('momentum'))).toBeTruthy();
    const body = calls.find((c) => c.url === '/api/momentum/update')?.json as Record<string, unknown>;
    expect(body.steps).toEqual([
      {
        wait: { amount: 2, unit: 'days' },
        condition: { kind: 'not_converted' },
        values: [expect.objectContaining({ filter: 'CELL_NOTIFICATION', title: 'Volte e ganhe frete' })],
      },
    ]);
    expect(body.exit).toEqual({ on_conversion: true, on_opt_out: false, filter: null });
  });

  it('lists a stored journey (a diagram-made SMS step kept as it is); removing every step ends it', async () => {
    const { calls } = await open(JOURNEY.uuid);
    expect(
      within(section()).getByText('Esperar 1 dia → Não converteu → Notificação push: Ainda pensando?'),
    ).toBeTruthy();
    expect(within(section()).getByText('Esperar 3 dias → Não clicou na mensagem anterior → SMS (Zenvia)')).toBeTruthy();
    expect(within(section()).getByRole('checkbox', { name: /Descadastrou-se do canal/ })).toHaveProperty(
      'checked',
      true,
    );
    await userEvent.click(within(section()).getByRole('button', { name: 'Editar etapa 2' }));
    expect(within(section()).getByText(/esta mensagem foi criada no diagrama/)).toBeTruthy();
    await userEvent.click(within(section()).getByRole('button', { name: 'Remover etapa 2' }));
    let body = await save(calls);
    expect(body.steps).toEqual([
      {
        wait: { amount: 1, unit: 'days' },
        condition: { kind: 'not_converted' },
        values: [expect.objectContaining({ title: 'Ainda pensando?' })],
      },
    ]);
    expect(body.exit).toEqual({ on_conversion: true, on_opt_out: true, filter: null });
    await userEvent.click(screen.getByRole('button', { name: 'Voltar' }));
    await userEvent.click(within(section()).getByRole('button', { name: 'Remover etapa 1' }));
    calls.length = 0;
    body = await save(calls);
    expect(body.steps).toEqual([]);
  });
});
