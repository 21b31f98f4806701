import { within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { journeySection, message, openForm, paused, saveForm, sms } from './momentum-form-kit.ts';

/* The v2 form's 'Jornada' list with a step whose message has A/B variants (made in the diagram): named and kept. */

const AB = [
  { name: 'A', weight: 50, values: [message('Ainda pensando?')] },
  { name: 'B', weight: 50, values: [message('10% de desconto para você')] },
];
const JOURNEY = paused('aaaaaaaa-aaaa-4aaa-8aaa-000000000002', {
  steps: [
    {
      wait: { amount: 1, unit: 'days' },
      condition: { kind: 'not_converted' },
      values: [message('Ainda pensando?')],
      variants: AB,
    },
    { wait: { amount: 3, unit: 'days' }, condition: { kind: 'not_clicked' }, values: [sms] },
  ],
  exit: { on_conversion: true, on_opt_out: true },
});

const open = (uuid: string) => openForm(JOURNEY, uuid);
const section = journeySection;
const save = saveForm;

describe('momentum form: Jornada with a step A/B test', { timeout: 60_000 }, () => {
  it("says 'Teste A/B: 2 variantes' for the step and saves its variants as they were", async () => {
    const { calls } = await open(JOURNEY.uuid);
    expect(
      within(section()).getByText(
        'Esperar 1 dia → Não converteu → Notificação push: Ainda pensando? · Teste A/B: 2 variantes',
      ),
    ).toBeTruthy();
    expect(within(section()).getByText('Esperar 3 dias → Não clicou na mensagem anterior → SMS (Zenvia)')).toBeTruthy();
    const body = await save(calls);
    const [first, second] = body.steps as Record<string, unknown>[];
    expect(first!.variants).toEqual([
      { name: 'A', weight: 50, values: [expect.objectContaining({ title: 'Ainda pensando?' })] },
      { name: 'B', weight: 50, values: [expect.objectContaining({ title: '10% de desconto para você' })] },
    ]);
    expect(second).not.toHaveProperty('variants');
  });
});
