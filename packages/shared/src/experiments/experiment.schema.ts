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
  dcmTagTooOld: (since: string) =>
    `Teste A/B e grupo de controle no GCD precisam da tag ${since} ou mais nova: atualize a versão da tag do domínio.`,
  /** The reasons stored with a held-out delivery (the delivery log shows them). */
  heldOut: 'grupo de controle',
  heldOutGlobal: 'grupo de controle global',
  winnerPercentInvalid: 'A parcela do público em teste deve ser um número inteiro de 5 a 50 %.',
  winnerHoursInvalid: 'A duração do teste deve ser um número inteiro de 1 a 72 horas.',
  winnerMetricInvalid: 'Escolha a vencedora por taxa de cliques ou por taxa de conversão.',
  winnerNeedsVariants: 'Enviar a vencedora ao restante precisa de um teste A/B com 2 variantes ou mais.',
  winnerCampaignOnly: 'Só campanhas podem testar em parte do público e enviar a vencedora ao restante.',
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

export const WINNER_METRICS = ['click_rate', 'conversion_rate'] as const;
export type WinnerMetric = (typeof WINNER_METRICS)[number];
export const MIN_WINNER_TEST_PERCENT = 5;
export const MAX_WINNER_TEST_PERCENT = 50;
export const MAX_WINNER_HOURS = 72;

const boundedInt = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

/**
 * Send the winner (campaigns only): the campaign goes out to `test_percent` % of its audience (split among the
 * variants by their weights), and `hours` later the variant with the best `metric` goes to the rest.
 */
export const experimentWinnerSchema = z.object({
  test_percent: boundedInt(MIN_WINNER_TEST_PERCENT, MAX_WINNER_TEST_PERCENT, experimentMessages.winnerPercentInvalid),
  hours: boundedInt(1, MAX_WINNER_HOURS, experimentMessages.winnerHoursInvalid),
  metric: z.enum(WINNER_METRICS, { error: experimentMessages.winnerMetricInvalid }),
});
export type ExperimentWinner = z.output<typeof experimentWinnerSchema>;

export const experimentSchema = z
  .object({
    control_percent: controlPercentSchema.optional().default(0),
    variants: z.array(experimentVariantSchema, { error: experimentMessages.variantsCount }).optional().default([]),
    /** Absent or null: every person of the audience gets their variant at once, as before. */
    winner: experimentWinnerSchema.nullable().optional(),
  })
  .superRefine((e, ctx) => {
    const { variants } = e;
    if (e.winner && variants.length < 2)
      ctx.addIssue({ code: 'custom', message: experimentMessages.winnerNeedsVariants, path: ['winner'] });
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

/**
 * What a campaign's winner decision stored (momentums.experiment_decision): `planned_at` once the test share has gone
 * out (when the decision is due); then the decision itself: when, by which metric, the winner, each variant's rate (%)
 * at that moment with its counts, and how many persons of the rest were queued the winner.
 */
export interface ExperimentDecision {
  planned_at?: string;
  decided_at?: string;
  metric?: WinnerMetric;
  winner?: string;
  rates?: { arm: string; rate: number; successes: number; trials: number }[];
  rest?: number;
}
