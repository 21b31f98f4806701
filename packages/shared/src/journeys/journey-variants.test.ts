import { describe, expect, it } from 'vitest';
import { experimentMessages as em } from '../experiments/experiment.schema.ts';
import { journeyStepSchema } from './journey.schema.ts';

/* A/B variants on a journey step's message (issue #26 with #25's variants). */

const topbar = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
  intervalRecurrency: [],
});
const pushMessage = (title: string) => ({
  filter: 'CELL_NOTIFICATION',
  name: title,
  title,
  message: 'Seu carrinho está te esperando.',
  icon_uri: 'https://loja.com.br/icone.png',
  redirect_uri: 'https://loja.com.br/carrinho',
});
const variant = (name: string, weight: number, values: object[] = [topbar(`Variante ${name}`)]) => ({
  name,
  weight,
  values,
});
const step = (variants: unknown) => ({
  wait: { amount: 1, unit: 'days' },
  condition: { kind: 'not_converted' },
  values: [topbar('Variante A')],
  variants,
});
const refusal = (input: unknown) => {
  const r = journeyStepSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('journeyStepSchema variants', () => {
  it('accepts 2 to 5 variants A–E whose shares add up to 100, on the step channel; absent or null is one message', () => {
    const two = journeyStepSchema.parse(step([variant('A', 50), variant('B', 50)]));
    expect(two.variants?.map((v) => [v.name, v.weight, v.values[0]?.filter])).toEqual([
      ['A', 50, 'SUPERARE_WEBVIEW'],
      ['B', 50, 'SUPERARE_WEBVIEW'],
    ]);
    expect(journeyStepSchema.parse(step(['A', 'B', 'C', 'D', 'E'].map((n) => variant(n, 20)))).variants).toHaveLength(
      5,
    );
    expect(journeyStepSchema.parse(step(undefined)).variants).toBeUndefined();
    expect(journeyStepSchema.parse(step(null)).variants).toBeNull();
  });

  it('refuses, in pt-BR: one or six variants, names out of order, shares not adding up to 100, another channel', () => {
    expect(refusal(step([variant('A', 99)]))).toEqual([em.variantsCount]);
    expect(refusal(step(['A', 'B', 'C', 'D', 'E', 'A'].map((n) => variant(n, 10))))).toContain(em.variantsCount);
    expect(refusal(step([variant('B', 50), variant('A', 50)]))).toEqual([em.variantName, em.variantName]);
    expect(refusal(step([variant('A', 50), variant('B', 40)]))).toEqual([em.weightsSum]);
    expect(refusal(step([variant('A', 0), variant('B', 100)]))).toContain(em.weightInvalid);
    expect(refusal(step([variant('A', 50), variant('B', 50, [pushMessage('Oi')])]))).toEqual([em.variantChannel]);
    expect(refusal(step([variant('A', 50), variant('B', 50, [])]))).toEqual([em.valuesRequired]);
    expect(refusal(step('A/B'))).toEqual([em.variantsCount]);
  });
});
