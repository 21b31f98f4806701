import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createMomentumSchema } from '../momentums/momentum.schema.ts';
import { evenWeights, experimentSchema, experimentMessages as m } from './experiment.schema.ts';

const refusal = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

const push = (title: string) => ({
  filter: 'CELL_NOTIFICATION',
  name: 'Oferta',
  title,
  message: 'Só hoje',
  icon_uri: 'https://loja.com.br/i.png',
  redirect_uri: 'https://loja.com.br/',
  intervalRecurrency: [],
});
const sms = { filter: 'ZENVIA', body: 'Oferta', intervalRecurrency: [] };
const variant = (name: string, weight: number, values: object = push(`Título ${name}`)) => ({
  name,
  weight,
  values: [values],
});

describe('experimentSchema', () => {
  it('accepts 2 to 5 variants whose shares add up to 100, and a control group of 0 to 50 %', () => {
    const parsed = experimentSchema.parse({ control_percent: 20, variants: [variant('A', 50), variant('B', 50)] });
    expect(parsed.control_percent).toBe(20);
    expect(parsed.variants.map((v) => [v.name, v.weight, v.values[0]?.filter])).toEqual([
      ['A', 50, 'CELL_NOTIFICATION'],
      ['B', 50, 'CELL_NOTIFICATION'],
    ]);
    const five = evenWeights(5).map((w, i) => variant('ABCDE'.charAt(i), w));
    expect(experimentSchema.safeParse({ variants: five }).success).toBe(true);
    expect(experimentSchema.parse({ control_percent: 10 })).toEqual({ control_percent: 10, variants: [] });
  });

  it('refuses each wrong experiment with its pt-BR message', () => {
    const cases: [string, unknown, string][] = [
      ['one variant', { variants: [variant('A', 100)] }, m.variantsCount],
      ['six variants', { variants: [...'ABCDEF'].map((n) => variant(n, 10)) }, m.variantName],
      ['shares adding up to 90', { variants: [variant('A', 50), variant('B', 40)] }, m.weightsSum],
      ['a zero share', { variants: [variant('A', 100), variant('B', 0)] }, m.weightInvalid],
      ['a fractional share', { variants: [variant('A', 50.5), variant('B', 49.5)] }, m.weightInvalid],
      ['names out of order', { variants: [variant('B', 50), variant('A', 50)] }, m.variantName],
      ['control above 50 %', { control_percent: 51, variants: [] }, m.controlInvalid],
      ['negative control', { control_percent: -1 }, m.controlInvalid],
      ['a variant on another channel', { variants: [variant('A', 50), variant('B', 50, sms)] }, m.variantChannel],
      [
        'a variant without a message',
        { variants: [variant('A', 50), { name: 'B', weight: 50, values: [] }] },
        m.valuesRequired,
      ],
    ];
    for (const [label, input, message] of cases) expect(refusal(experimentSchema, input), label).toContain(message);
  });

  it('takes send-the-winner options beside the variants, and without them is exactly as before', () => {
    const two = [variant('A', 50), variant('B', 50)];
    const winner = { test_percent: 20, hours: 4, metric: 'click_rate' };
    expect(experimentSchema.parse({ variants: two, winner }).winner).toEqual(winner);
    expect(experimentSchema.parse({ variants: two, winner: null }).winner).toBeNull();
    expect('winner' in experimentSchema.parse({ variants: two })).toBe(false);
    const cases: [string, unknown, string][] = [
      ['a test share of 4 %', { ...winner, test_percent: 4 }, m.winnerPercentInvalid],
      ['a test share of 51 %', { ...winner, test_percent: 51 }, m.winnerPercentInvalid],
      ['a fractional share', { ...winner, test_percent: 12.5 }, m.winnerPercentInvalid],
      ['0 hours', { ...winner, hours: 0 }, m.winnerHoursInvalid],
      ['73 hours', { ...winner, hours: 73 }, m.winnerHoursInvalid],
      ['hours as text', { ...winner, hours: '4' }, m.winnerHoursInvalid],
      ['another metric', { ...winner, metric: 'open_rate' }, m.winnerMetricInvalid],
    ];
    for (const [label, w, message] of cases)
      expect(refusal(experimentSchema, { variants: two, winner: w }), label).toContain(message);
    expect(refusal(experimentSchema, { control_percent: 10, winner })).toContain(m.winnerNeedsVariants);
  });

  it('checks each variant like a dispatcher block: a push title over 49 characters is refused', () => {
    const messages = refusal(experimentSchema, {
      variants: [variant('A', 50), variant('B', 50, push('x'.repeat(50)))],
    });
    expect(messages).toContain('O título da notificação pode ter no máximo 49 caracteres.');
  });

  it('splits evenly by default, the first variants taking the remainder', () => {
    expect(evenWeights(2)).toEqual([50, 50]);
    expect(evenWeights(3)).toEqual([34, 33, 33]);
    expect(evenWeights(5)).toEqual([20, 20, 20, 20, 20]);
  });
});

describe('a momentum body with experiment', () => {
  const body = (experiment: unknown, dispatcher: object = push('Título A')) => ({
    domain_uuid: '0b7e4d2c-1f9a-4e3b-8c6d-5a2f9e1b7c43',
    type: 'momentum',
    momentums: [{ type: 'dispatcher', values: [dispatcher] }],
    experiment,
  });

  it('is the spec momentum without it, and keeps it beside momentums with it', () => {
    expect(createMomentumSchema.parse(body(undefined)).experiment).toBeUndefined();
    expect(createMomentumSchema.parse(body(null)).experiment).toBeNull();
    const parsed = createMomentumSchema.parse(
      body({ control_percent: 20, variants: [variant('A', 50), variant('B', 50)] }),
    );
    expect(parsed.experiment?.variants).toHaveLength(2);
  });

  it("refuses variants for another channel than the dispatcher block's, and variants without a dispatcher", () => {
    const smsVariants = { variants: [variant('A', 50, sms), variant('B', 50, sms)] };
    expect(refusal(createMomentumSchema, body(smsVariants))).toContain(m.variantChannel);
    expect(refusal(createMomentumSchema, { ...body(smsVariants), momentums: [] })).toContain(m.noDispatcher);
  });
});
