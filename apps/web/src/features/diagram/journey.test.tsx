import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { itemOf, journeyCard, open, saveDraft, setUpDiagram, smsValues, steps } from './journey-test-kit.tsx';

/* Journeys in the diagram (issue #26): steps after the message block, the panel's editors, save and reopen. */

setUpDiagram();

describe('diagram journey (issue #26)', () => {
  it('a stored journey draws its steps in run order, the split side by side, and saves back unchanged', async () => {
    const bodies: Record<string, unknown>[] = [];
    open(
      () => itemOf({ steps, exit: { on_conversion: true, on_opt_out: false } }),
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    expect(within(card).getByText('2 etapas depois da primeira mensagem')).toBeTruthy();
    expect(within(card).getByTestId('panel-step-1').textContent).toContain(
      'Esperar 1 dia → Não converteu → SMS (Zenvia)',
    );
    expect(within(card).getByTestId('panel-step-2').textContent).toContain(
      'Esperar 3 horas (no horário de funcionamento) → Visualizou a página que contém “/checkout” → Notificação push: Esqueceu algo? → SMS (Zenvia)',
    );
    // The board: each step's wait, condition and message, and the split's 'senão' beside its message.
    for (const id of ['step-1-wait', 'step-1-condition', 'step-1-message', 'step-2-message', 'step-2-otherwise'])
      expect(screen.getByTestId(`diagram-node-${id}`)).toBeTruthy();
    // Once the domain's channels are read, the stored messages (channel type only) find their channel: complete.
    expect(
      await within(screen.getByTestId('diagram-node-step-2-otherwise')).findByText('Etapa 2 · senão'),
    ).toBeTruthy();
    expect(within(card).getByRole('checkbox', { name: /Converteu/ })).toHaveProperty('checked', true);

    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]!.steps).toEqual([
      { wait: { amount: 1, unit: 'days' }, condition: { kind: 'not_converted' }, values: [smsValues] },
      {
        wait: { amount: 3, unit: 'hours', worktime: true },
        condition: { kind: 'viewed_page', comparation: 'contain', value: ['/checkout'] },
        values: [expect.objectContaining({ filter: 'CELL_NOTIFICATION', title: 'Esqueceu algo?' })],
        otherwise: [smsValues],
      },
    ]);
    expect(bodies[0]!.exit).toEqual({ on_conversion: true, on_opt_out: false, filter: null });
  });

  it('adds a step with the panel, refuses it incomplete, and saves it with the exit rules; reopened it is the same', async () => {
    let stored = itemOf();
    const bodies: Record<string, unknown>[] = [];
    open(
      () => stored,
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    expect(within(card).getByText(/Mensagens de acompanhamento/)).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Adicionar etapa' }));
    // The new step opens on its wait.
    expect(await screen.findByRole('heading', { name: 'Etapa 1 · Espera' })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Esperar' }), { target: { value: '2' } });
    await userEvent.click(screen.getByRole('radio', { name: /Condição/ }));
    expect(screen.getByDisplayValue('Não converteu')).toBeTruthy();
    // The message is empty: a draft with it is refused and the message opens.
    await saveDraft();
    expect(
      await screen.findByText(
        'A etapa 1 da jornada está incompleta: falta a mensagem. Complete-a ou remova-a para salvar.',
      ),
    ).toBeTruthy();
    expect(bodies).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'Etapa 1 · Mensagem' })).toBeTruthy();
    const field = (label: string) => screen.getByRole('textbox', { name: new RegExp(`^${label}`) });
    fireEvent.change(field('Nome da notificação'), { target: { value: 'Lembrete' } });
    fireEvent.change(field('Título'), { target: { value: 'Ainda pensando?' } });
    fireEvent.change(field('Mensagem'), { target: { value: 'Seu carrinho continua aqui' } });
    fireEvent.change(field('URL do ícone'), { target: { value: 'https://loja.example.com/i.png' } });
    fireEvent.change(field('URL de redirecionamento'), { target: { value: 'https://loja.example.com/carrinho' } });
    await userEvent.click(screen.getByRole('button', { name: 'Blocos' }));
    const exitCard = await journeyCard();
    await userEvent.click(within(exitCard).getByRole('checkbox', { name: /Descadastrou-se do canal/ }));
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    const sent = bodies[0]!;
    expect(sent.steps).toEqual([
      {
        wait: { amount: 2, unit: 'days' },
        condition: { kind: 'not_converted' },
        values: [expect.objectContaining({ filter: 'CELL_NOTIFICATION', title: 'Ainda pensando?' })],
      },
    ]);
    expect(sent.exit).toEqual({ on_conversion: true, on_opt_out: true, filter: null });

    cleanup();
    stored = itemOf({ steps: sent.steps, exit: sent.exit });
    open(
      () => stored,
      (body) => bodies.push(body),
    );
    const again = await journeyCard();
    expect(within(again).getByTestId('panel-step-1').textContent).toContain('Esperar 2 dias → Não converteu');
    expect(within(again).getByRole('checkbox', { name: /Descadastrou-se do canal/ })).toHaveProperty('checked', true);
    // Removing the only step of a stored journey ends it: `steps: []`.
    await userEvent.click(within(again).getByRole('button', { name: 'Editar Etapa 1' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remover Etapa 1' }));
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]!.steps).toEqual([]);
  });

  it('a split: the condition offers the other message, drawn as the step’s senão', async () => {
    const bodies: Record<string, unknown>[] = [];
    open(
      () => itemOf({ steps: steps.slice(0, 1) }),
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Editar Etapa 1' }));
    await userEvent.click(screen.getByRole('radio', { name: /Condição/ }));
    await userEvent.click(screen.getByRole('switch', { name: /Quem não atende recebe outra mensagem/ }));
    expect(await screen.findByTestId('diagram-node-step-1-otherwise')).toBeTruthy();
    await userEvent.click(screen.getByRole('radio', { name: /Senão/ }));
    expect(screen.getByRole('heading', { name: 'Etapa 1 · Senão' })).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /^Texto do SMS/ }), { target: { value: 'Última chance' } });
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect((bodies[0]!.steps as { otherwise: unknown }[])[0]!.otherwise).toEqual([
      { filter: 'ZENVIA', body: 'Última chance', intervalRecurrency: [] },
    ]);
  });

  it('a momentum without steps sends no journey keys', async () => {
    const bodies: Record<string, unknown>[] = [];
    open(
      () => itemOf(),
      (body) => bodies.push(body),
    );
    await journeyCard();
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect('steps' in bodies[0]!).toBe(false);
    expect('exit' in bodies[0]!).toBe(false);
  });
});
