import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createMomentumSchema } from '../momentums/momentum.schema.ts';
import {
  DEFAULT_JOURNEY_EXIT,
  describeWait,
  hasJourney,
  journeyExitSchema,
  journeyStepSchema,
  journeyStepsSchema,
  journeyMessages as m,
  waitMs,
} from './journey.schema.ts';

const refusal = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.message);
};

const topbar = (text: string) => ({
  filter: 'SUPERARE_WEBVIEW',
  webview_type: 'topbar',
  webview_mode: 'devices_all',
  webview_props: { topbarContent: text, topbarBtnText: 'Ver' },
  intervalRecurrency: [],
});
const step = (extra: Record<string, unknown> = {}) => ({
  wait: { amount: 1, unit: 'days' },
  condition: { kind: 'not_converted' },
  values: [topbar('Ainda pensando?')],
  ...extra,
});

describe('journeyStepSchema', () => {
  it('accepts each condition kind, a split, and a wait in minutes, hours or days', () => {
    const conditions = [
      { kind: 'not_converted' },
      { kind: 'not_clicked' },
      { kind: 'viewed_page', value: ['/produto'] },
      { kind: 'not_viewed_page', comparation: '==', value: ['https://loja.com.br/obrigado'] },
      { kind: 'event', category: 'carrinho', key: 'valor', comparation: '==', value: ['100'] },
      { kind: 'no_event', category: 'checkout' },
      { kind: 'filter', filter: { type: 'filter', values: [{ filter: 'all' }] } },
    ];
    for (const condition of conditions) expect(refusal(journeyStepSchema, step({ condition }))).toEqual([]);
    const parsed = journeyStepSchema.parse(
      step({ wait: { amount: 30, unit: 'minutes' }, otherwise: [topbar('Veja as ofertas')] }),
    );
    expect(parsed.wait).toEqual({ amount: 30, unit: 'minutes', worktime: false });
    expect(parsed.otherwise?.[0]?.filter).toBe('SUPERARE_WEBVIEW');
    // A page condition compares with 'contain' unless told.
    expect(journeyStepSchema.parse(step({ condition: { kind: 'viewed_page', value: ['/x'] } })).condition).toEqual({
      kind: 'viewed_page',
      comparation: 'contain',
      value: ['/x'],
    });
  });

  it('refuses each wrong step with its pt-BR message', () => {
    const cases: [object, string][] = [
      [step({ wait: { amount: 0, unit: 'days' } }), m.waitInvalid],
      [step({ wait: { amount: 1.5, unit: 'hours' } }), m.waitInvalid],
      [step({ wait: { amount: 91, unit: 'days' } }), m.waitInvalid],
      [step({ wait: { amount: 90 * 24 + 1, unit: 'hours' } }), m.waitInvalid],
      [step({ wait: { amount: 1, unit: 'weeks' } }), m.unitInvalid],
      [step({ condition: { kind: 'comprou' } }), m.conditionInvalid],
      [step({ condition: { kind: 'viewed_page', value: [] } }), m.pageRequired],
      [step({ condition: { kind: 'viewed_page', comparation: '~', value: ['/x'] } }), m.pageComparison],
      [step({ condition: { kind: 'no_event', category: ' ' } }), m.eventRequired],
      [step({ values: [] }), m.valuesRequired],
    ];
    for (const [input, message] of cases)
      expect(refusal(journeyStepSchema, input), JSON.stringify(input)).toContain(message);
    expect(
      refusal(
        journeyStepsSchema,
        Array.from({ length: 6 }, () => step()),
      ),
    ).toEqual([m.stepsTooMany]);
    expect(
      refusal(
        journeyStepsSchema,
        Array.from({ length: 5 }, () => step()),
      ),
    ).toEqual([]);
  });
});

describe('journeys in the momentum body', () => {
  const body = (extra: Record<string, unknown>) => ({
    domain_uuid: '4f7e1f0a-9c1e-4d38-9a57-0e4d3f2b6a11',
    type: 'momentum',
    momentum_title: 'Carrinho',
    momentums: [],
    ...extra,
  });
  it('are refused on campaigns and GCD items, and for a GCD message in a step', () => {
    expect(refusal(createMomentumSchema, body({ type: 'campaign', steps: [step()] }))).toEqual([
      m.campaignNotSupported,
    ]);
    expect(refusal(createMomentumSchema, body({ type: 'dcm', steps: [step()] }))).toEqual([m.dcmNotSupported]);
    // Without steps, a campaign is the spec's.
    expect(refusal(createMomentumSchema, body({ type: 'campaign', steps: [] }))).toEqual([]);
    expect(refusal(createMomentumSchema, body({ steps: [step()] }))).toEqual([]);
  });
});

describe('exit and helpers', () => {
  it('the exit defaults to leaving on conversion', () => {
    expect(journeyExitSchema.parse({})).toEqual(DEFAULT_JOURNEY_EXIT);
    expect(journeyExitSchema.parse({ on_opt_out: true })).toEqual({ on_conversion: true, on_opt_out: true });
  });
  it('waits in milliseconds and in words', () => {
    expect(waitMs({ amount: 3, unit: 'days' })).toBe(3 * 86_400_000);
    expect(waitMs({ amount: 2, unit: 'hours' })).toBe(7_200_000);
    expect(waitMs({ amount: 15, unit: 'minutes' })).toBe(900_000);
    expect(describeWait({ amount: 1, unit: 'days' })).toBe('Esperar 1 dia');
    expect(describeWait({ amount: 3, unit: 'hours', worktime: true })).toBe(
      'Esperar 3 horas (no horário de funcionamento)',
    );
  });
  it('a momentum has a journey only with at least one step', () => {
    expect(hasJourney(null)).toBe(false);
    expect(hasJourney([])).toBe(false);
    expect(hasJourney([journeyStepSchema.parse(step())])).toBe(true);
  });
});
