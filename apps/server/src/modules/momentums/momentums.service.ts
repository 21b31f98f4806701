import { randomUUID } from 'node:crypto';
import {
  type CreateMomentumInput,
  DCM_EXPERIMENTS_SINCE,
  DEFAULT_JOURNEY_EXIT,
  type Experiment,
  type ExperimentDecision,
  experimentMessages,
  hasJourney,
  isChannelEditable,
  isExperimentActive,
  itemMessages,
  type JourneyExit,
  type JourneyStep,
  journeyMessages,
  type MomentumItem,
  type MomentumTiming,
  type MomentumType,
  momentumMessages as m,
  pickTiming,
  tagHonoursDcmExperiments,
  type UpdateMomentumInput,
} from '@impeto/shared';
import type { Principal } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import * as q from './momentums.queries.ts';

type Block = { type: string; values?: { filter?: string; value?: unknown }[] };

const blockOf = (blocks: unknown[], type: string) => (blocks as Block[]).find((b) => b.type === type);

export function toMomentumItem(row: q.MomentumRow): MomentumItem {
  const dispatcher = blockOf(row.blocks, 'dispatcher');
  const channelType = dispatcher?.values?.[0]?.filter;
  return {
    uuid: row.uuid,
    company_uuid: row.companyUuid,
    domain_uuid: row.domainUuid,
    user_uuid: row.userUuid,
    type: row.type,
    momentum_title: row.title,
    momentum_description: row.description,
    status: row.status,
    active: row.status === 'Active',
    scheduled_at: row.scheduledAt?.toISOString() ?? null,
    channel_uuid: row.channelUuid,
    channels: channelType ? { channel_type: channelType } : null,
    momentums: row.blocks,
    worktime: (row.worktime as MomentumItem['worktime']) ?? null,
    experiment: (row.experiment as Experiment | null) ?? null,
    ...(row.experimentDecision ? { experiment_decision: row.experimentDecision as ExperimentDecision } : {}),
    ...((row.timing as MomentumTiming | null) ?? {}),
    ...(hasJourney(row.steps as JourneyStep[] | null)
      ? {
          steps: row.steps as JourneyStep[],
          exit: { ...DEFAULT_JOURNEY_EXIT, ...((row.journeyExit as JourneyExit | null) ?? {}) },
        }
      : {}),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const momentumNotFound = () => notFound(m.notFound, 'MOMENTUM_NOT_FOUND');
const invalid = (message: string, field?: string) =>
  new AppError('MOMENTUM_INVALID', 400, message, field ? { [field]: message } : undefined);

/** The blocks a non-draft item needs: campaigns have no trigger (spec doc 2 §2.3). */
const REQUIRED_BLOCKS: Record<MomentumType, string[]> = {
  momentum: ['filter', 'trigger', 'dispatcher'],
  campaign: ['filter', 'dispatcher'],
  dcm: ['trigger', 'dispatcher'],
};

function assertComplete(ctx: AppContext, type: MomentumType, blocks: unknown[], scheduledAt: Date | null) {
  if (REQUIRED_BLOCKS[type].some((t) => !blockOf(blocks, t))) throw invalid(m.blocksRequired(type), 'momentums');
  if (type === 'dcm') assertDcmRule(blocks);
  const finish = blockOf(blocks, 'finish')?.values?.[0]?.value;
  const now = ctx.clock.now();
  if (typeof finish === 'string' && new Date(finish) < now) throw invalid(m.finishPast, 'momentums');
  if (scheduledAt && scheduledAt < now) throw invalid(m.schedulePast, 'scheduled_at');
}

/** The tag evaluates a GCD rule in the page: a page-view or event trigger with values, and a CELL_DCM dispatcher. */
function assertDcmRule(blocks: unknown[]) {
  const trigger = blockOf(blocks, 'trigger')?.values?.[0] as {
    filter?: string;
    comparation?: string;
    value?: unknown[];
  };
  const complete =
    (trigger?.filter === 'pageview' || trigger?.filter === 'events') &&
    Boolean(trigger.comparation) &&
    Array.isArray(trigger.value) &&
    trigger.value.length > 0;
  if (!complete) throw invalid(m.dcmTriggerIncomplete, 'momentums');
  if (blockOf(blocks, 'dispatcher')?.values?.[0]?.filter !== 'CELL_DCM')
    throw invalid(m.dcmDispatcherRequired, 'momentums');
}

async function assertTitle(
  ctx: AppContext,
  input: { domainUuid: string; type: MomentumType; title: string; except?: string },
) {
  if (!input.title) throw invalid(m.titleRequired(input.type), 'momentum_title');
  if (await q.findTitleClash(ctx.db, input)) {
    throw new AppError('MOMENTUM_TITLE_TAKEN', 409, m.titleDuplicate, { momentum_title: m.titleDuplicate });
  }
}

/**
 * The experiment to store (issue #25): null without one (absent, or no control group and no variants). GCD items
 * take one too: the tag's injector (release 1.7.0) draws the visitor's arm in the page (modules/dcm/dcm.rules.ts). With variants the dispatcher block carries the first
 * variant's message, so whatever reads the blocks alone sees variant A.
 */
function withExperiment(type: MomentumType, blocks: unknown[], experiment: Experiment | null | undefined) {
  if (!isExperimentActive(experiment)) return { blocks, experiment: null };
  if (experiment.winner && type !== 'campaign') throw invalid(experimentMessages.winnerCampaignOnly, 'experiment');
  const first = experiment.variants[0]?.values[0];
  if (!first) return { blocks, experiment };
  return {
    blocks: (blocks as Block[]).map((b) => (b.type === 'dispatcher' ? { ...b, values: [first] } : b)),
    experiment,
  };
}

/**
 * A GCD item's experiment is honoured by the tag's injector from release 1.7.0 on (it draws the arm in the page): on a
 * domain whose tag is older, every visitor would see variant A and nothing would be counted per arm, so it is refused.
 */
async function assertTagHonours(ctx: AppContext, type: MomentumType, domainUuid: string, experiment: unknown) {
  if (type !== 'dcm' || !experiment) return;
  const version = (await q.findDomainTagVersion(ctx.db, domainUuid)) ?? '';
  if (!tagHonoursDcmExperiments(version))
    throw invalid(experimentMessages.dcmTagTooOld(DCM_EXPERIMENTS_SINCE), 'experiment');
}

/**
 * The item's channel: the one sent, else the domain's channel of the dispatcher's type. The spec's create body
 * carries no channel_uuid (doc 2 §7) and the engine sends by the block's type, but the editors read the item's
 * channel_uuid: an item made through the API (the demo's) would open with no channel.
 */
async function resolveChannel(
  ctx: AppContext,
  domainUuid: string,
  channelUuid: string | null | undefined,
  blocks: unknown[],
) {
  if (!channelUuid) {
    const type = blockOf(blocks, 'dispatcher')?.values?.[0]?.filter;
    if (typeof type !== 'string' || !type || type === 'CELL_DCM') return null;
    return (await q.findDomainChannelOfType(ctx.db, domainUuid, type))?.uuid ?? null;
  }
  const channel = await q.findDomainChannel(ctx.db, domainUuid, channelUuid);
  if (!channel) throw invalid(m.saveFailed, 'channel_uuid');
  return channel.uuid;
}

/**
 * The journey to store (issue #26): null and null without steps (absent, null or []: the spec's momentum). Every
 * step's channel that needs the domain's credentials (SMS, e-mail, OneSignal) must be integrated in the domain, as
 * the engine sends it with that channel row.
 */
async function withJourney(
  ctx: AppContext,
  domainUuid: string,
  input: { steps?: JourneyStep[] | null; exit?: JourneyExit | null },
) {
  if (!hasJourney(input.steps)) return { steps: null, journeyExit: null };
  const types = new Set(
    input.steps.flatMap((s) => [s.values[0]?.filter, s.otherwise?.[0]?.filter]).filter((t) => t !== undefined),
  );
  for (const type of types) {
    if (!type || !isChannelEditable(type)) continue;
    if (!(await q.findDomainChannelOfType(ctx.db, domainUuid, type)))
      throw invalid(journeyMessages.channelNotIntegrated, 'steps');
  }
  return { steps: input.steps, journeyExit: input.exit ?? DEFAULT_JOURNEY_EXIT };
}

/** The finish date doubles as the worktime's end_date (spec doc 2 §3.1). */
const withEndDate = (worktime: CreateMomentumInput['worktime'], blocks: unknown[]) => {
  const finish = blockOf(blocks, 'finish')?.values?.[0]?.value;
  if (!worktime && typeof finish !== 'string') return worktime ?? null;
  return { ...(worktime ?? {}), end_date: typeof finish === 'string' ? finish : null };
};

export async function listForDomain(ctx: AppContext, principal: Principal, domainUuid: string, type: MomentumType) {
  await requireCompanyDomain(ctx, principal.companyUuid, domainUuid);
  const [rows, counts, dcm] = await Promise.all([
    q.listMomentums(ctx.db, principal.companyUuid, domainUuid, type),
    q.deliveryCounts(ctx.db, principal.companyUuid, domainUuid),
    type === 'dcm' ? ctx.dcm.stats(principal.companyUuid, domainUuid) : undefined,
  ]);
  const byMomentum = new Map(counts.map(({ momentum_uuid, ...c }) => [momentum_uuid, c]));
  const none = { waiting: 0, sent: 0, viewed: 0, clicked: 0, failed: 0 };
  return rows.map((row) => ({
    ...toMomentumItem(row),
    deliveries: byMomentum.get(row.uuid) ?? none,
    ...(dcm && { dcm_stats: dcm.get(row.uuid) ?? { shown: 0, clicked: 0, missing: null } }),
  }));
}

export async function getOne(ctx: AppContext, principal: Principal, uuid: string) {
  const row = await q.findMomentum(ctx.db, principal.companyUuid, uuid);
  if (!row) throw momentumNotFound();
  if (row.type !== 'dcm') return toMomentumItem(row);
  // A GCD item's showings and clicks (its deliveries in the page), as the list gives them.
  const stats = (await ctx.dcm.stats(principal.companyUuid, row.domainUuid)).get(row.uuid);
  return { ...toMomentumItem(row), dcm_stats: stats ?? { shown: 0, clicked: 0, missing: null } };
}

/** company_uuid and user_uuid in a body must be the caller's own: identity always comes from the token. */
function assertOwnIdentity(principal: Principal, input: { company_uuid?: string; user_uuid?: string }) {
  const other =
    (input.company_uuid !== undefined && input.company_uuid !== principal.companyUuid) ||
    (input.user_uuid !== undefined && input.user_uuid !== principal.userUuid);
  if (other) throw new AppError('MOMENTUM_IDENTITY_MISMATCH', 403, m.identityMismatch);
}

export async function create(ctx: AppContext, principal: Principal, input: CreateMomentumInput) {
  await requireCompanyDomain(ctx, principal.companyUuid, input.domain_uuid);
  assertOwnIdentity(principal, input);
  const title = input.momentum_title.trim();
  await assertTitle(ctx, { domainUuid: input.domain_uuid, type: input.type, title });
  // A create without a status is Paused (READINGS A-40); Agendamento is Paused with scheduled_at.
  const status = input.status ?? 'Paused';
  const scheduledAt = status === 'Paused' && input.scheduled_at ? new Date(input.scheduled_at) : null;
  if (status !== 'Draft') assertComplete(ctx, input.type, input.momentums, scheduledAt);
  const { blocks, experiment } = withExperiment(input.type, input.momentums, input.experiment);
  await assertTagHonours(ctx, input.type, input.domain_uuid, experiment);
  const journey = await withJourney(ctx, input.domain_uuid, input);
  const now = ctx.clock.now();
  const row = await q.insertMomentum(ctx.db, {
    ...journey,
    uuid: randomUUID(),
    companyUuid: principal.companyUuid,
    domainUuid: input.domain_uuid,
    userUuid: principal.userUuid,
    type: input.type,
    title,
    description: input.momentum_description ?? null,
    status,
    scheduledAt,
    channelUuid: await resolveChannel(ctx, input.domain_uuid, input.channel_uuid, blocks),
    blocks,
    experiment,
    timing: pickTiming(input),
    worktime: withEndDate(input.worktime, blocks),
    activatedAt: status === 'Active' ? now : null,
    createdAt: now,
    updatedAt: now,
  });
  await ctx.engine?.momentumChanged(row.uuid);
  return { item: toMomentumItem(row), message: status === 'Draft' ? m.draftSaved : m.created(input.type) };
}

/**
 * Active items cannot be edited; other non-draft items keep their status, title, filter and trigger
 * (READINGS A-33); drafts are fully editable.
 */
export async function update(ctx: AppContext, principal: Principal, input: UpdateMomentumInput) {
  const current = await q.findMomentum(ctx.db, principal.companyUuid, input.uuid);
  if (!current || current.status === 'Deleted' || current.domainUuid !== input.domain_uuid) throw momentumNotFound();
  assertOwnIdentity(principal, input);
  if (current.status === 'Active') throw new AppError('MOMENTUM_ACTIVE', 409, itemMessages(current.type).editActive);

  if (current.status === 'Draft') {
    const channelUuid = await resolveChannel(ctx, current.domainUuid, input.channel_uuid, input.momentums);
    const title = input.momentum_title.trim();
    await assertTitle(ctx, { domainUuid: current.domainUuid, type: current.type, title, except: current.uuid });
    const status = input.status ?? 'Draft';
    const scheduledAt = status === 'Paused' && input.scheduled_at ? new Date(input.scheduled_at) : null;
    if (status !== 'Draft') assertComplete(ctx, current.type, input.momentums, scheduledAt);
    const { blocks, experiment } = withExperiment(current.type, input.momentums, input.experiment);
    await assertTagHonours(ctx, current.type, current.domainUuid, experiment);
    const journey = await withJourney(ctx, current.domainUuid, input);
    const row = await q.updateMomentum(ctx.db, principal.companyUuid, current.uuid, {
      ...journey,
      title,
      description: input.momentum_description ?? null,
      status,
      scheduledAt,
      channelUuid,
      blocks,
      experiment,
      timing: pickTiming(input),
      worktime: withEndDate(input.worktime, blocks),
      activatedAt: status === 'Active' ? ctx.clock.now() : null,
    });
    await ctx.engine?.momentumChanged(current.uuid);
    return { item: toMomentumItem(row!), message: status === 'Draft' ? m.draftUpdated : m.updated(current.type) };
  }

  const locked = ['filter', 'trigger'];
  const kept = ['filter', 'trigger', 'dispatcher', 'finish']
    .map((type) => (locked.includes(type) ? blockOf(current.blocks, type) : blockOf(input.momentums, type)))
    .filter(Boolean) as unknown[];
  assertComplete(ctx, current.type, kept, null);
  const { blocks, experiment } = withExperiment(current.type, kept, input.experiment);
  await assertTagHonours(ctx, current.type, current.domainUuid, experiment);
  const channelUuid = await resolveChannel(ctx, current.domainUuid, input.channel_uuid, blocks);
  // A paused journey's persons keep their positions by step number (engine/journey.ts reads the steps when due).
  const journey = await withJourney(ctx, current.domainUuid, input);
  const row = await q.updateMomentum(ctx.db, principal.companyUuid, current.uuid, {
    ...journey,
    description: input.momentum_description ?? null,
    channelUuid,
    blocks,
    experiment,
    timing: pickTiming(input),
    worktime: withEndDate(input.worktime, blocks),
  });
  await ctx.engine?.momentumChanged(current.uuid);
  return { item: toMomentumItem(row!), message: m.updated(current.type) };
}

/** Iniciar on Paused, Scheduled and Done (READINGS A-32); Pausar on Active; Draft and Deleted have neither. */
export async function changeStatus(ctx: AppContext, principal: Principal, uuid: string, status: 'Active' | 'Paused') {
  const current = await q.findMomentum(ctx.db, principal.companyUuid, uuid);
  if (!current) throw momentumNotFound();
  const mt = itemMessages(current.type);
  const refuse = () => new AppError('MOMENTUM_STATUS_REFUSED', 409, mt.statusFailed);
  const now = ctx.clock.now();
  if (status === 'Paused') {
    if (current.status !== 'Active') throw refuse();
    const row = await q.updateMomentum(ctx.db, principal.companyUuid, uuid, { status: 'Paused', scheduledAt: null });
    await ctx.engine?.momentumChanged(uuid);
    return { item: toMomentumItem(row!), message: mt.paused };
  }
  if (!['Paused', 'Done'].includes(current.status)) throw refuse();
  const finish = blockOf(current.blocks, 'finish')?.values?.[0]?.value;
  if (typeof finish === 'string' && new Date(finish) <= now) throw refuse();
  const row = await q.updateMomentum(ctx.db, principal.companyUuid, uuid, {
    status: 'Active',
    scheduledAt: null,
    activatedAt: now,
    finishedAt: null,
  });
  await ctx.engine?.momentumChanged(uuid);
  return { item: toMomentumItem(row!), message: mt.started };
}

export async function remove(ctx: AppContext, principal: Principal, uuid: string) {
  const current = await q.findMomentum(ctx.db, principal.companyUuid, uuid);
  if (!current || current.status === 'Deleted') throw momentumNotFound();
  await q.updateMomentum(ctx.db, principal.companyUuid, uuid, { status: 'Deleted' });
  await ctx.engine?.momentumChanged(uuid);
  return { message: itemMessages(current.type).removed };
}
