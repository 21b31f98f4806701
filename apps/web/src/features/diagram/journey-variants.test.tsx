import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fromGraphSteps, toGraph } from './graph.ts';
import { itemOf, journeyCard, open, saveDraft, setUpDiagram, steps } from './journey-test-kit.tsx';

/* A/B variants on a journey step's message in the diagram (issue #26 with #25): the panel's 'Teste A/B', save, reopen. */

setUpDiagram();

const sms = (body: string) => ({ filter: 'ZENVIA', body, intervalRecurrency: [] });
const abStep = {
  wait: { amount: 1, unit: 'days' },
  condition: { kind: 'not_converted' },
  values: [sms('Variante A: volte')],
  variants: [
    { name: 'A', weight: 60, values: [sms('Variante A: volte')] },
    { name: 'B', weight: 40, values: [sms('Variante B: cupom VOLTA10')] },
  ],
};

describe('journey step variants in the diagram', () => {
  it('toGraph / fromGraphSteps keep a step’s variants on its message node', () => {
    const blocks = itemOf().momentums as never;
    const graph = toGraph(blocks, { steps: [abStep, steps[1]] as never });
    expect(fromGraphSteps(graph)).toEqual([abStep, steps[1]]);
  });

  it('a stored step with variants shows them; the panel has Teste A/B without a control group; saved unchanged', async () => {
    const bodies: Record<string, unknown>[] = [];
    open(
      () => itemOf({ steps: [abStep], exit: { on_conversion: true, on_opt_out: false } }),
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    await waitFor(() => expect(within(card).getByTestId('panel-step-1').textContent).not.toContain('Incompleto'));
    expect(within(card).getByTestId('panel-step-1').textContent).toContain(
      'Esperar 1 dia → Não converteu → SMS (Zenvia): Variante A: volte · Teste A/B: 2 variantes',
    );
    await userEvent.click(within(card).getByRole('button', { name: 'Editar Etapa 1' }));
    await userEvent.click(screen.getByRole('radio', { name: /Mensagem/ }));
    const section = await screen.findByRole('region', { name: 'Teste A/B' });
    expect(within(section).getByRole('switch', { name: /Testar variantes da mensagem/ })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(section).getByRole('textbox', { name: 'Parcela da variante B' })).toHaveProperty('value', '40 %');
    expect(within(section).queryByRole('textbox', { name: /Grupo de controle/ })).toBeNull();
    // Variant B's tab shows its own message.
    await userEvent.click(screen.getByRole('tab', { name: /B/ }));
    expect(screen.getByDisplayValue('Variante B: cupom VOLTA10')).toBeTruthy();

    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]!.steps).toEqual([abStep]);
  });

  it('turning the test on gives B a copy of A at 50/50, edited on its own tab', async () => {
    const bodies: Record<string, unknown>[] = [];
    const plain = { ...abStep, variants: undefined };
    open(
      () => itemOf({ steps: [plain] }),
      (body) => bodies.push(body),
    );
    const card = await journeyCard();
    await userEvent.click(within(card).getByRole('button', { name: 'Editar Etapa 1' }));
    await userEvent.click(screen.getByRole('radio', { name: /Mensagem/ }));
    const section = await screen.findByRole('region', { name: 'Teste A/B' });
    await userEvent.click(within(section).getByRole('switch', { name: /Testar variantes da mensagem/ }));
    await userEvent.click(screen.getByRole('tab', { name: /B/ }));
    fireEvent.change(screen.getByRole('textbox', { name: /^Texto do SMS/ }), { target: { value: 'Última chance' } });
    await saveDraft();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect((bodies[0]!.steps as { variants: unknown }[])[0]!.variants).toEqual([
      { name: 'A', weight: 50, values: [sms('Variante A: volte')] },
      { name: 'B', weight: 50, values: [sms('Última chance')] },
    ]);
  });
});
