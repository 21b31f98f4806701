import type { DcmStats } from '../dcm/dcm-rule.ts';
import {
  type Experiment,
  type ExperimentDecision,
  experimentMessages,
  experimentSchema,
} from '../experiments/experiment.schema.ts';
import {
  type JourneyExit,
  type JourneyStep,
  journeyExitSchema,
  journeyMessages,
  journeyStepsSchema,
} from '../journeys/journey.schema.ts';
import { type MomentumTiming, momentumTimingShape, refineTimingScope } from '../timing/timing.schema.ts';
import { z } from '../zod.ts';
import { isOnQuarterHour, momentumBlocksSchema } from './blocks.schema.ts';

export const MOMENTUM_TYPES = ['momentum', 'campaign', 'dcm'] as const;
export type MomentumType = (typeof MOMENTUM_TYPES)[number];
export const MOMENTUM_STATUSES = ['Active', 'Paused', 'Draft', 'Deleted', 'Done'] as const;
export type MomentumStatus = (typeof MOMENTUM_STATUSES)[number];

/** pt-BR labels; Paused with scheduled_at shows as Agendado (spec doc 2 §4, READINGS A-29). */
export const STATUS_LABELS: Record<MomentumStatus | 'Scheduled', string> = {
  Active: 'Ativo',
  Paused: 'Pausado',
  Scheduled: 'Agendado',
  Draft: 'Rascunho',
  Deleted: 'Removido',
  Done: 'Concluído',
};

export const momentumMessages = {
  titleRequired: (type: MomentumType) =>
    type === 'campaign'
      ? 'A campanha não pode ser salvo sem um título.'
      : type === 'dcm'
        ? 'O conteúdo do GCD não pode ser salvo sem um título.'
        : 'O momentum não pode ser salvo sem um título.',
  titleDuplicate: 'Já existe um item com este título neste domínio. Escolha outro título.',
  editActive: 'Não é permitido editar Momentums em andamento.',
  notFound: 'Momentum não encontrado.',
  draftSaved: 'Rascunho salvo com sucesso!',
  draftUpdated: 'Rascunho atualizado com sucesso!',
  created: (type: MomentumType) =>
    type === 'campaign'
      ? 'Sua campanha foi criada. Você será redirecionado em breve...'
      : type === 'dcm'
        ? 'Seu conteúdo do GCD foi criado. Você será redirecionado em breve...'
        : 'Seu momentum foi criado. Você será redirecionado em breve...',
  updated: (type: MomentumType) =>
    type === 'campaign'
      ? 'Sua campanha foi atualizada. Você será redirecionado em breve...'
      : type === 'dcm'
        ? 'Seu conteúdo do GCD foi atualizado. Você será redirecionado em breve...'
        : 'Seu momentum foi atualizado. Você será redirecionado em breve...',
  started: 'Seu momentum foi iniciado com sucesso!',
  paused: 'Seu momentum foi pausado com sucesso!',
  removed: 'Seu momentum foi removido com sucesso!',
  removeFailed: 'Não foi possível remover o momentum. Tente novamente mais tarde.',
  saveFailed: 'Não foi possível cadastrar seu Momentum. Tente novamente mais tarde.',
  statusFailed: 'Ocorreu um erro ao atualizar o status do seu momentum. Tente novamente mais tarde.',
  requestFailed: 'Ocorreu um erro ao executar sua solicitação. Tente novamente mais tarde.',
  incomplete: 'Preencha todos os campos corretamente',
  blocksRequired: (type: MomentumType) =>
    type === 'campaign'
      ? 'Uma campanha precisa de filtro e canal para ser salva fora do rascunho.'
      : type === 'dcm'
        ? 'Um conteúdo do GCD precisa de gatilho e de tags customizadas para ser salvo fora do rascunho.'
        : 'Um momentum precisa de filtro, gatilho e canal para ser salvo fora do rascunho.',
  /** GCD rules run in the visitor's page: a page view or event trigger with its comparison and values (spec doc 2 §5). */
  dcmTriggerIncomplete:
    'O gatilho do GCD precisa de uma visualização de página ou evento, com a comparação e ao menos um valor.',
  dcmDispatcherRequired: 'Um conteúdo do GCD usa o canal de conteúdo dinâmico (CELL_DCM).',
  scheduleRequired: 'Informe a data de agendamento.',
  schedulePast: 'A data de agendamento não pode estar no passado.',
  scheduleGrid: 'O agendamento deve usar horários em passos de 15 minutos (ex.: 14:00, 14:15, 14:30 ou 14:45).',
  identityMismatch: 'A empresa ou o usuário informado não corresponde à sua sessão. Entre novamente e tente outra vez.',
  finishPast: 'A data de finalização não pode estar no passado.',
  weekdayRequired: '* O dia da semana é obrigatório.',
  startRequired: '* O horário de início é obrigatório.',
  stopRequired: '* O horário de fim é obrigatório.',
  timeInvalid: 'Informe um horário no formato HH:mm, em passos de 10 minutos.',
  listed: 'Momentums carregados.',
  loaded: 'Momentum carregado.',
} as const;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]0$/, momentumMessages.timeInvalid);

/** Cronograma: weekdays, start and stop are required together (spec doc 2 §5). */
export const worktimeSchema = z
  .object({
    weekdays: z.array(z.number().int().min(0).max(6)).max(7).optional(),
    start_at: hhmm.or(z.literal('')).optional(),
    stop_at: hhmm.or(z.literal('')).optional(),
    end_date: z.iso.datetime().nullable().optional(),
  })
  .superRefine((w, ctx) => {
    const any = Boolean(w.weekdays?.length || w.start_at || w.stop_at);
    if (!any) return;
    if (!w.weekdays?.length)
      ctx.addIssue({ code: 'custom', message: momentumMessages.weekdayRequired, path: ['weekdays'] });
    if (!w.start_at) ctx.addIssue({ code: 'custom', message: momentumMessages.startRequired, path: ['start_at'] });
    if (!w.stop_at) ctx.addIssue({ code: 'custom', message: momentumMessages.stopRequired, path: ['stop_at'] });
  });
export type Worktime = z.infer<typeof worktimeSchema>;

const base = {
  company_uuid: z.uuid(momentumMessages.identityMismatch).optional(),
  user_uuid: z.uuid(momentumMessages.identityMismatch).optional(),
  domain_uuid: z.uuid(momentumMessages.notFound),
  type: z.enum(MOMENTUM_TYPES),
  momentum_title: z.string().max(120).optional().default(''),
  momentum_description: z.string().max(2000).nullable().optional(),
  status: z.enum(['Active', 'Paused', 'Draft']).optional(),
  scheduled_at: z.iso.datetime().refine(isOnQuarterHour, momentumMessages.scheduleGrid).nullable().optional(),
  channel_uuid: z.uuid().nullable().optional(),
  momentums: momentumBlocksSchema.optional().default([]),
  worktime: worktimeSchema.nullable().optional(),
  /** A/B variants and a control group (issue #25); absent or null: the spec's momentum. */
  experiment: experimentSchema.nullable().optional(),
  /** Timing (issue #27): throttle_per_minute, send_at_local_time, best_time, skip_holidays, worktime_zone; absent: the spec's. */
  ...momentumTimingShape,
  /** Follow-up steps and exit rules (issue #26); absent, null or []: the spec's momentum, one message. */
  steps: journeyStepsSchema.nullable().optional(),
  exit: journeyExitSchema.nullable().optional(),
};

/** Journeys belong to momentums with a message block; campaigns and GCD items have none. */
const journeyFitsType = (
  body: {
    type: MomentumType;
    momentums: { type: string; values: unknown[] }[];
    steps?: JourneyStep[] | null | undefined;
  },
  ctx: z.RefinementCtx,
) => {
  if (!body.steps?.length) return;
  if (body.type === 'dcm') {
    ctx.addIssue({ code: 'custom', message: journeyMessages.dcmNotSupported, path: ['steps'] });
    return;
  }
  if (body.type === 'campaign') {
    ctx.addIssue({ code: 'custom', message: journeyMessages.campaignNotSupported, path: ['steps'] });
    return;
  }
  body.steps.forEach((step, i) => {
    for (const branch of ['values', 'otherwise'] as const)
      if (step[branch]?.[0]?.filter === 'CELL_DCM')
        ctx.addIssue({ code: 'custom', message: journeyMessages.dcmChannel, path: ['steps', i, branch] });
  });
};

/** The variants are messages for the dispatcher block's channel (the experiment checks they share one). */
const variantsMatchDispatcher = (
  body: { momentums: { type: string; values: unknown[] }[]; experiment?: Experiment | null | undefined },
  ctx: z.RefinementCtx,
) => {
  const variants = body.experiment?.variants ?? [];
  if (variants.length === 0) return;
  const dispatcher = body.momentums.find((b) => b.type === 'dispatcher');
  const channel = (dispatcher?.values[0] as { filter?: string } | undefined)?.filter;
  if (!channel) {
    ctx.addIssue({ code: 'custom', message: experimentMessages.noDispatcher, path: ['experiment', 'variants'] });
    return;
  }
  if (variants[0]?.values[0]?.filter !== channel)
    ctx.addIssue({ code: 'custom', message: experimentMessages.variantChannel, path: ['experiment', 'variants'] });
};

/**
 * Momentum bodies are flat (spec doc 2 §7). The dashboard sends company_uuid and user_uuid (§3.1); the server
 * still takes both from the token and refuses a body that names someone else.
 */
export const createMomentumSchema = z
  .looseObject(base)
  .superRefine(variantsMatchDispatcher)
  .superRefine(refineTimingScope)
  .superRefine(journeyFitsType);
export const updateMomentumSchema = z
  .looseObject({ ...base, uuid: z.uuid(momentumMessages.notFound) })
  .superRefine(variantsMatchDispatcher)
  .superRefine(refineTimingScope)
  .superRefine(journeyFitsType);
export const momentumStatusSchema = z.looseObject({ status: z.enum(['Active', 'Paused']) });
export type CreateMomentumInput = z.output<typeof createMomentumSchema>;
export type UpdateMomentumInput = z.output<typeof updateMomentumSchema>;

/** The timing options that are on come flat beside `momentums` (issue #27); none of them without any. */
export interface MomentumItem extends MomentumTiming {
  uuid: string;
  company_uuid: string;
  domain_uuid: string;
  user_uuid: string;
  type: MomentumType;
  momentum_title: string;
  momentum_description: string | null;
  status: MomentumStatus;
  active: boolean;
  scheduled_at: string | null;
  channel_uuid: string | null;
  channels: { channel_type: string } | null;
  momentums: unknown[];
  worktime: Worktime | null;
  /** A/B variants and control group (issue #25); null without. */
  experiment?: Experiment | null;
  /** Send the winner (issue #25): when the decision is due, then the decision; absent before the campaign went out. */
  experiment_decision?: ExperimentDecision | null;
  /** Follow-up steps and exit rules (issue #26); absent without a journey. */
  steps?: JourneyStep[];
  exit?: JourneyExit;
  created_at: string;
  updated_at: string;
  /** What the engine did with it so far (lists only): waiting, sent, viewed and clicked messages, failures. */
  deliveries?: DeliveryCounts;
  /** GCD items (lists only): showings and clicks the tag reported, and a broken selector. */
  dcm_stats?: DcmStats;
}

export interface DeliveryCounts {
  waiting: number;
  sent: number;
  viewed: number;
  clicked: number;
  failed: number;
}
