import { dispatcherValuesSchema } from '../momentums/blocks/dispatcher.schema.ts';
import { z } from '../zod.ts';

/*
 * Experiments (issue #25): `experiment` beside `momentums` in a momentum's body. A momentum without it is exactly the
 * spec's momentum. `variants` are complete messages for the dispatcher block's channel (2 to 5, A to E in order,
 * shares adding up to 100); without variants the experiment is a control group alone. The dispatcher block keeps
 * the first variant's values.
 */

export const VARIANT_NAMES = ['A', 'B', 'C', 'D', 'E'] as const;
export const MAX_CONTROL_PERCENT = 50;
export const MAX_GLOBAL_CONTROL_PERCENT = 20;

export const experimentMessages = {
  controlInvalid: 'O grupo de controle deve ser um número inteiro de 0 a 50 %.',
  globalControlInvalid: 'O grupo de controle global deve ser um número inteiro de 0 a 20 %.',
  variantsCount: 'Um teste A/B tem de 2 a 5 variantes.',
  variantName: 'As variantes se chamam A, B, C, D e E, nesta ordem.',
  weightInvalid: 'A parcela de cada variante deve ser um número inteiro de 1 a 99 %.',
  weightsSum: 'As parcelas das variantes devem somar 100 %.',
  valuesRequired: 'Preencha a mensagem de cada variante.',
  variantChannel: 'Cada variante deve usar o canal do bloco de canal.',
  noDispatcher: 'Um teste A/B precisa de um bloco de canal.',
  dcmNotSupported: 'Conteúdos do GCD ainda não aceitam teste A/B nem grupo de controle.',
  /** The reasons stored with a held-out delivery (the delivery log shows them). */
  heldOut: 'grupo de controle',
  heldOutGlobal: 'grupo de controle global',
  reportLoaded: 'Resultado do teste carregado.',
  noExperiment: 'Este momentum não tem teste A/B nem grupo de controle.',
} as const;

const percent = (max: number, message: string) =>
  z.number({ error: message }).int(message).min(0, message).max(max, message);

export const controlPercentSchema = percent(MAX_CONTROL_PERCENT, experimentMessages.controlInvalid);
export const globalControlPercentSchema = percent(MAX_GLOBAL_CONTROL_PERCENT, experimentMessages.globalControlInvalid);

const firstValue = (v: unknown) => (Array.isArray(v) && v.length > 1 ? v.slice(0, 1) : v);

export const experimentVariantSchema = z.object({
  name: z.enum(VARIANT_NAMES, { error: experimentMessages.variantName }),
  weight: z
    .number({ error: experimentMessages.weightInvalid })
    .int(experimentMessages.weightInvalid)
    .min(1, experimentMessages.weightInvalid)
    .max(99, experimentMessages.weightInvalid),
  values: z.preprocess(
    firstValue,
    z
      .array(dispatcherValuesSchema, { error: experimentMessages.valuesRequired })
      .min(1, experimentMessages.valuesRequired)
      .max(1, experimentMessages.valuesRequired),
  ),
});
export type ExperimentVariant = z.output<typeof experimentVariantSchema>;

export const experimentSchema = z
  .object({
    control_percent: controlPercentSchema.optional().default(0),
    variants: z.array(experimentVariantSchema, { error: experimentMessages.variantsCount }).optional().default([]),
  })
  .superRefine((e, ctx) => {
    const { variants } = e;
    if (variants.length === 0) return;
    if (variants.length < 2 || variants.length > VARIANT_NAMES.length) {
      ctx.addIssue({ code: 'custom', message: experimentMessages.variantsCount, path: ['variants'] });
      return;
    }
    variants.forEach((v, i) => {
      if (v.name !== VARIANT_NAMES[i])
        ctx.addIssue({ code: 'custom', message: experimentMessages.variantName, path: ['variants', i, 'name'] });
    });
    if (variants.reduce((sum, v) => sum + v.weight, 0) !== 100)
      ctx.addIssue({ code: 'custom', message: experimentMessages.weightsSum, path: ['variants'] });
    const channel = variants[0]?.values[0]?.filter;
    variants.forEach((v, i) => {
      if (v.values[0]?.filter !== channel)
        ctx.addIssue({ code: 'custom', message: experimentMessages.variantChannel, path: ['variants', i, 'values'] });
    });
  });
export type ExperimentInput = z.input<typeof experimentSchema>;
export type Experiment = z.output<typeof experimentSchema>;

/** Even shares for n variants, the first ones taking the remainder: 34/33/33. */
export function evenWeights(n: number): number[] {
  const base = Math.floor(100 / n);
  return Array.from({ length: n }, (_, i) => base + (i < 100 - base * n ? 1 : 0));
}

/** Whether an experiment changes anything: a control group or variants. */
export const isExperimentActive = (e: Experiment | null | undefined): e is Experiment =>
  Boolean(e && (e.control_percent > 0 || e.variants.length > 0));
