import { createMomentumSchema } from '../momentums/momentum.schema.ts';
import { z } from '../zod.ts';

/*
 * Simulation (issue #28): a momentum as it stands in the editor, replayed over the domain's stored events and
 * persons of the last 1, 7 or 30 days by the engine's own decisions, writing nothing.
 */

export const SIMULATION_DAYS = [1, 7, 30] as const;
export type SimulationDays = (typeof SIMULATION_DAYS)[number];

/**
 * The funnel, in order: what a planned send must pass to go out. Options that land later join here, in the place
 * they take in the engine. `journey` (issue #26): a journey step's message is a planned send too, entered when the
 * person's wait for the step ends in the range (or they exit while waiting), removed there when they exit or fail the
 * step's condition; it is listed only for a momentum with steps (a momentum without them answers the stages it had).
 */
export const SIMULATION_STAGES = [
  'trigger',
  'journey',
  'filter',
  'channel',
  'schedule',
  'frequency_cap',
  'control_group',
] as const;
export type SimulationStage = (typeof SIMULATION_STAGES)[number];

export const SIMULATION_STAGE_LABELS: Record<SimulationStage, string> = {
  trigger: 'Gatilho',
  journey: 'Etapas da jornada (condição e regras de saída)',
  filter: 'Filtros',
  channel: 'Alcance no canal (inscrição, e-mail, telefone, descadastro)',
  schedule: 'Cronograma e agendamento',
  frequency_cap: 'Limite de frequência',
  control_group: 'Grupo de controle',
};

export const simulateMessages = {
  done: 'Simulação concluída.',
  days: 'Escolha o período da simulação: 1, 7 ou 30 dias.',
  busy: 'Você já tem uma simulação em andamento. Aguarde o resultado dela antes de simular de novo.',
  cancelled: 'Simulação cancelada.',
  incomplete:
    'Para simular, o momentum precisa de gatilho e canal (uma campanha, de canal). Complete o formulário e tente de novo.',
  noChannel: 'Este item não envia mensagens por um canal: não há o que simular.',
  invalidBlocks: 'Os blocos deste momentum não puderam ser lidos. Revise o formulário e tente de novo.',
  // Why a planned send stopped, as the simulation explains it beside the engine's own reasons.
  stillWaiting: 'Ainda aguardaria o envio no fim do período simulado.',
  waitingWindow: 'Aguardaria a abertura do cronograma depois do fim do período.',
  waitingCap: 'Aguardaria vaga no limite de frequência depois do fim do período.',
  waitingQuiet: 'Aguardaria o fim do horário de silêncio depois do fim do período.',
  waitingWinner: 'Aguardaria a escolha da vencedora depois do fim do período.',
} as const;

export const simulateMomentumSchema = z.object({
  /** The body of POST /momentum/create, saved or not; `uuid` (optional) names the saved item it stands for. */
  momentum: createMomentumSchema,
  days: z.union([z.literal(1), z.literal(7), z.literal(30)], { error: simulateMessages.days }),
});
export type SimulateMomentumInput = z.input<typeof simulateMomentumSchema>;
export type SimulateMomentumBody = z.output<typeof simulateMomentumSchema>;

const stageSchema = z.enum(SIMULATION_STAGES);

export const simulationSampleSchema = z.object({
  /** Masked like the delivery log: e-mail or phone for those channels, the visitor id otherwise. */
  recipient: z.string(),
  /** `sent`, or the stage where the person's first planned send stopped. */
  stage: z.union([z.literal('sent'), stageSchema]),
  /** Why it stopped (the engine's reason), null when sent. */
  reason: z.string().nullable(),
  /** When it would have been sent, or when it stopped. */
  at: z.string(),
  /** What the person would have received (subject, title and text, or the SMS), null when nothing was sent. */
  message: z.string().nullable(),
});
export type SimulationSample = z.infer<typeof simulationSampleSchema>;

/**
 * A journey's steps in the simulation, the rows of the journey report (JourneyStepResult): step 0 'main' (reached =
 * persons who entered: their first message went out), then for each step its 'main' row and, with `otherwise`, its
 * 'otherwise' row. On a step's main row `reached` counts persons whose wait ended in the range and whose exit rules and
 * condition were read; `exited`: persons who left the journey at that step, by a conversion while waiting (not in
 * `reached`), an opt-out or the exit filter; `left_by_condition`: the condition failed and there is no 'otherwise';
 * `waiting`: persons still waiting for the step when the range ends. `sent`: the row's messages sent (a step's message
 * may still be held by the cap, worktime or quiet hours); `variants`: per A/B variant.
 */
export const simulationJourneyStepSchema = z.object({
  step: z.number().int(),
  branch: z.enum(['main', 'otherwise']),
  reached: z.number().int(),
  exited: z.number().int(),
  left_by_condition: z.number().int(),
  waiting: z.number().int(),
  sent: z.number().int(),
  variants: z.array(z.object({ name: z.string(), sent: z.number().int() })).optional(),
});
export type SimulationJourneyStep = z.infer<typeof simulationJourneyStepSchema>;

export const simulationResultSchema = z.object({
  /** Distinct people reached. */
  persons: z.number().int(),
  /** Messages sent. */
  messages: z.number().int(),
  /** The momentum's channel type (a momentum sends through one). */
  channel: z.string().nullable(),
  /** Messages per channel. */
  by_channel: z.array(z.object({ channel: z.string(), messages: z.number().int() })),
  /** Distinct people reached per day of the domain's time zone, every day of the range (YYYY-MM-DD). */
  by_day: z.array(z.object({ date: z.string(), persons: z.number().int() })),
  /** The funnel in order: planned sends that reached each stage, and how many it removed. */
  stages: z.array(z.object({ stage: stageSchema, entered: z.number().int(), removed: z.number().int() })),
  sample: z.array(simulationSampleSchema),
  /** A momentum with journey steps (issue #26): each step's figures; absent without steps. */
  journey: z.array(simulationJourneyStepSchema).optional(),
  from: z.string(),
  to: z.string(),
  took_ms: z.number(),
});
export type SimulationResult = z.infer<typeof simulationResultSchema>;
