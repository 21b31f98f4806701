import { experimentMessages, experimentVariantSchema, VARIANT_NAMES } from '../experiments/experiment.schema.ts';
import { dispatcherValuesSchema } from '../momentums/blocks/dispatcher.schema.ts';
import { filterBlockSchema } from '../momentums/blocks/filter.schema.ts';
import { z } from '../zod.ts';

/*
 * Journeys (issue #26): follow-up steps after a momentum's message, beside `momentums` in its body. A momentum
 * without `steps` is exactly the spec's momentum (DESIGN.md §13). Step 0 is the message block itself; `steps[i]` is
 * step i + 1: after its wait, its condition is read on what the person did since the previous step; when it holds
 * the step's message goes out, when it fails the person leaves the journey, or gets `otherwise` (a two-way split).
 * `exit` ends the journey at once for a person who converts (default), opts out of the step's channel or matches a
 * filter.
 */

export const MAX_JOURNEY_STEPS = 5;
export const WAIT_UNITS = ['minutes', 'hours', 'days'] as const;
export type WaitUnit = (typeof WAIT_UNITS)[number];
export const CONDITION_KINDS = [
  'not_converted',
  'not_clicked',
  'viewed_page',
  'not_viewed_page',
  'event',
  'no_event',
  'filter',
] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];
export const PAGE_COMPARISONS = ['==', '!=', 'contain', 'notcontain'] as const;

/** The longest wait a step may have: 90 days, whatever its unit. */
export const MAX_WAIT_MINUTES = 90 * 24 * 60;
const UNIT_MINUTES: Record<WaitUnit, number> = { minutes: 1, hours: 60, days: 24 * 60 };

export const journeyMessages = {
  stepsTooMany: 'Uma jornada tem no máximo 5 etapas depois da primeira mensagem.',
  waitInvalid: 'Informe a espera de cada etapa: um número inteiro de 1 a 90 dias (em minutos, horas ou dias).',
  unitInvalid: "A unidade da espera deve ser 'minutes', 'hours' ou 'days'.",
  conditionInvalid:
    "Escolha a condição da etapa: 'not_converted', 'not_clicked', 'viewed_page', 'not_viewed_page', 'event', 'no_event' ou 'filter'.",
  pageRequired: 'Informe ao menos uma página para a condição de visualização.',
  pageComparison: "A comparação da página deve ser '==', '!=', 'contain' ou 'notcontain'.",
  eventRequired: 'Informe a categoria do evento da condição.',
  valuesRequired: 'Preencha a mensagem de cada etapa.',
  channelNotIntegrated: 'O canal de uma etapa não está integrado neste domínio.',
  noDispatcher: 'Uma jornada precisa de um bloco de canal (a primeira mensagem).',
  dcmNotSupported: 'Conteúdos do GCD não têm jornadas: eles aparecem na página do visitante.',
  campaignNotSupported: 'Campanhas não têm jornadas: use um momentum para mensagens de acompanhamento.',
  dcmChannel: 'As etapas de uma jornada usam push, mensagem no site, SMS ou e-mail.',
  /** The reasons stored with a journey that ends for a person (the delivery log and the funnel show them). */
  leftByCondition: 'condição da etapa não atendida',
  exitedConversion: 'saiu da jornada: converteu',
  exitedOptOut: 'saiu da jornada: descadastrou-se do canal',
  exitedFilter: 'saiu da jornada: atende ao filtro de saída',
  exitedRemoved: 'saiu da jornada: momentum removido',
  /** The journey report (GET /api/analytics/:domain/momentum/:momentum/journey). */
  reportLoaded: 'Resultados da jornada carregados.',
  noJourney: 'Este momentum não tem etapas de jornada.',
} as const;

const pageList = z
  .array(z.string().trim().min(1, journeyMessages.pageRequired).max(2000), { error: journeyMessages.pageRequired })
  .min(1, journeyMessages.pageRequired)
  .max(20, journeyMessages.pageRequired);

const pageCondition = {
  comparation: z.enum(PAGE_COMPARISONS, { error: journeyMessages.pageComparison }).optional().default('contain'),
  value: pageList,
};
const eventCondition = {
  category: z.string({ error: journeyMessages.eventRequired }).trim().min(1, journeyMessages.eventRequired).max(200),
  /** With `key` and `value`: the event's property `key` compared with `comparation` against any of `value`. */
  key: z.string().trim().max(200).optional(),
  comparation: z.enum(PAGE_COMPARISONS, { error: journeyMessages.pageComparison }).optional(),
  value: z.array(z.string().trim().min(1).max(2000)).max(20).optional(),
};

export const stepConditionSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('not_converted') }),
    z.object({ kind: z.literal('not_clicked') }),
    z.object({ kind: z.literal('viewed_page'), ...pageCondition }),
    z.object({ kind: z.literal('not_viewed_page'), ...pageCondition }),
    z.object({ kind: z.literal('event'), ...eventCondition }),
    z.object({ kind: z.literal('no_event'), ...eventCondition }),
    /** A person filter: the conditions of a filter block (the same editor and the same predicate). */
    z.object({ kind: z.literal('filter'), filter: filterBlockSchema }),
  ],
  { error: journeyMessages.conditionInvalid },
);
export type StepCondition = z.output<typeof stepConditionSchema>;
export type StepConditionInput = z.input<typeof stepConditionSchema>;

export const stepWaitSchema = z
  .object(
    {
      amount: z
        .number({ error: journeyMessages.waitInvalid })
        .int(journeyMessages.waitInvalid)
        .min(1, journeyMessages.waitInvalid),
      unit: z.enum(WAIT_UNITS, { error: journeyMessages.unitInvalid }),
      /** 'no horário de funcionamento': a wait that ends outside the momentum's worktime moves to its next opening. */
      worktime: z.boolean().optional().default(false),
    },
    { error: journeyMessages.waitInvalid },
  )
  .refine((w) => w.amount * UNIT_MINUTES[w.unit] <= MAX_WAIT_MINUTES, {
    message: journeyMessages.waitInvalid,
    path: ['amount'],
  });
export type StepWait = z.output<typeof stepWaitSchema>;

const firstValue = (v: unknown) => (Array.isArray(v) && v.length > 1 ? v.slice(0, 1) : v);
const messageValues = z.preprocess(
  firstValue,
  z
    .array(dispatcherValuesSchema, { error: journeyMessages.valuesRequired })
    .min(1, journeyMessages.valuesRequired)
    .max(1, journeyMessages.valuesRequired),
);

export const journeyStepSchema = z
  .object(
    {
      wait: stepWaitSchema,
      condition: stepConditionSchema,
      values: messageValues,
      /** A two-way split: the message for those whose condition failed (absent: they leave the journey). */
      otherwise: messageValues.nullable().optional(),
      /**
       * An A/B test of the step's message (issue #26 on #25's variants): 2 to 5, A to E in order, shares adding up to
       * 100, on the channel of `values` (which keeps the first variant's values, as the dispatcher block does). The
       * engine draws each person's arm over the momentum and the step (engine/journey.ts stepArm). Absent or null:
       * one message. No control group on steps: the momentum's holds people out of the whole journey.
       */
      variants: z.array(experimentVariantSchema, { error: experimentMessages.variantsCount }).nullable().optional(),
    },
    { error: journeyMessages.valuesRequired },
  )
  .superRefine((step, ctx) => {
    const variants = step.variants;
    if (!variants) return;
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
    const channel = step.values[0]?.filter;
    variants.forEach((v, i) => {
      if (v.values[0] && v.values[0].filter !== channel)
        ctx.addIssue({ code: 'custom', message: experimentMessages.variantChannel, path: ['variants', i, 'values'] });
    });
  });
export type JourneyStep = z.output<typeof journeyStepSchema>;
export type JourneyStepInput = z.input<typeof journeyStepSchema>;

export const journeyStepsSchema = z
  .array(journeyStepSchema, { error: journeyMessages.stepsTooMany })
  .max(MAX_JOURNEY_STEPS, journeyMessages.stepsTooMany);

export const journeyExitSchema = z.object({
  on_conversion: z.boolean().optional().default(true),
  on_opt_out: z.boolean().optional().default(false),
  filter: filterBlockSchema.nullable().optional(),
});
export type JourneyExit = z.output<typeof journeyExitSchema>;
export type JourneyExitInput = z.input<typeof journeyExitSchema>;

/** The exit a journey has when the body names none: leave on conversion. */
export const DEFAULT_JOURNEY_EXIT: JourneyExit = { on_conversion: true, on_opt_out: false };

/** A wait in milliseconds. */
export const waitMs = (w: Pick<StepWait, 'amount' | 'unit'>) => w.amount * UNIT_MINUTES[w.unit] * 60_000;

/** Whether a momentum has follow-up steps (a journey); without, it is the spec's momentum. */
export const hasJourney = (steps: readonly JourneyStep[] | null | undefined): steps is JourneyStep[] =>
  Boolean(steps && steps.length > 0);

/** pt-BR labels of the condition kinds (the diagram, the v2 form and the funnel). */
export const CONDITION_LABELS: Record<ConditionKind, string> = {
  not_converted: 'Não converteu',
  not_clicked: 'Não clicou na mensagem anterior',
  viewed_page: 'Visualizou a página',
  not_viewed_page: 'Não visualizou a página',
  event: 'Enviou o evento',
  no_event: 'Não enviou o evento',
  filter: 'Atende ao filtro de pessoas',
};

export const WAIT_UNIT_LABELS: Record<WaitUnit, { one: string; many: string }> = {
  minutes: { one: 'minuto', many: 'minutos' },
  hours: { one: 'hora', many: 'horas' },
  days: { one: 'dia', many: 'dias' },
};

/** 'Esperar 1 dia', 'Esperar 3 horas (no horário de funcionamento)'. */
export function describeWait(w: Pick<StepWait, 'amount' | 'unit'> & { worktime?: boolean }): string {
  const label = WAIT_UNIT_LABELS[w.unit];
  const text = `Esperar ${w.amount} ${w.amount === 1 ? label.one : label.many}`;
  return w.worktime ? `${text} (no horário de funcionamento)` : text;
}

/**
 * Journey step results (the report's funnel, the dashboard's rows, the CSV). Step 0 is the first message. Rows come
 * in order: step 0 'main', then for each step i ≥ 1 its 'main' row and, when it has `otherwise`, its 'otherwise' row.
 * `reached`: on step 0, persons who entered the journey (its message went out); on a step's main row, persons whose
 * wait ended and whose condition was read (whichever branch they took, or none); on an 'otherwise' row, those who
 * took it. `left_by_condition` (main rows): the condition failed and there is no 'otherwise'. `exited_conversion`
 * (main rows): persons who bought while waiting for that step. sent/viewed/clicked and conversions/revenue (BRL):
 * of the row's own messages. Each figure counts what happened within the report's days.
 */
export interface JourneyStepResult {
  step: number;
  /** 'main' for the step's message, 'otherwise' for the split's other branch. */
  branch: 'main' | 'otherwise';
  reached: number;
  left_by_condition: number;
  exited_conversion: number;
  sent: number;
  viewed: number;
  clicked: number;
  conversions: number;
  revenue: number;
  /** A step whose message has an A/B test (main rows): the same figures per variant, from its deliveries' arm. */
  variants?: JourneyVariantResult[];
}

/** One variant of a step's A/B test in the journey report. */
export interface JourneyVariantResult {
  name: string;
  sent: number;
  viewed: number;
  clicked: number;
  conversions: number;
  revenue: number;
}

/** One journey of a domain (GET /api/analytics/:domainUuid/journeys: the dashboard's CSV export). */
export interface DomainJourneyReport {
  momentum_uuid: string;
  momentum_title: string;
  steps: JourneyStepResult[];
}
