import {
  type AnalyticsRange,
  analyticsMessages as am,
  type DomainJourneyReport,
  type JourneyStep,
  type JourneyStepResult,
  type JourneyVariantResult,
  journeyMessages,
} from '@impeto/shared';
import { storedSteps } from '../../engine/journey.ts';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import * as q from './journey.queries.ts';

/** One journey's rows (JourneyStepResult) over the range. */
async function stepResults(
  ctx: AppContext,
  domainUuid: string,
  momentumUuid: string,
  steps: JourneyStep[],
  tz: string,
  r: AnalyticsRange,
): Promise<JourneyStepResult[]> {
  const withVariants = steps.some((s) => s.variants?.length);
  const [positions, deliveries, conversions, arms] = await Promise.all([
    q.positionCounts(ctx.db, momentumUuid, tz, r),
    q.deliveryCounts(ctx.db, momentumUuid, tz, r),
    q.conversionCounts(ctx.db, domainUuid, momentumUuid, tz, r),
    withVariants ? q.variantCounts(ctx.db, domainUuid, momentumUuid, tz, r) : [],
  ]);
  const armOf = new Map(arms.map((a) => [`${Number(a.step)}|${a.arm}`, a]));
  /** A step's A/B variants in their order (a variant nobody got yet: zeros). */
  const variantRows = (step: number, s: JourneyStep): JourneyVariantResult[] =>
    (s.variants ?? []).map((v) => {
      const a = armOf.get(`${step}|${v.name}`);
      return {
        name: v.name,
        sent: Number(a?.sent ?? 0),
        viewed: Number(a?.viewed ?? 0),
        clicked: Number(a?.clicked ?? 0),
        conversions: Number(a?.conversions ?? 0),
        revenue: Number(a?.revenue_cents ?? 0) / 100,
      };
    });
  const key = (step: number, branch: string) => `${step}|${branch}`;
  const sent = new Map(deliveries.map((d) => [key(Number(d.step), d.branch), d]));
  const converted = new Map(conversions.map((c) => [key(Number(c.step), c.branch), c]));
  const ended = new Map(positions.filter((p) => Number(p.step) > 0).map((p) => [Number(p.step), p]));
  const entered = positions.filter((p) => Number(p.step) === 0).reduce((n, p) => n + Number(p.entered), 0);

  const row = (step: number, branch: 'main' | 'otherwise', reached: number): JourneyStepResult => {
    const d = sent.get(key(step, branch));
    const c = converted.get(key(step, branch));
    const e = branch === 'main' ? ended.get(step) : undefined;
    return {
      step,
      branch,
      reached,
      left_by_condition: Number(e?.left_by_condition ?? 0),
      exited_conversion: Number(e?.exited_conversion ?? 0),
      sent: Number(d?.sent ?? 0),
      viewed: Number(d?.viewed ?? 0),
      clicked: Number(d?.clicked ?? 0),
      conversions: Number(c?.conversions ?? 0),
      revenue: Number(c?.revenue_cents ?? 0) / 100,
    };
  };
  const created = (step: number, branch: string) => Number(sent.get(key(step, branch))?.created ?? 0);
  const rows = [row(0, 'main', entered)];
  steps.forEach((s, i) => {
    const step = i + 1;
    const left = Number(ended.get(step)?.left_by_condition ?? 0);
    const main = row(step, 'main', created(step, 'main') + created(step, 'otherwise') + left);
    rows.push(s.variants?.length ? { ...main, variants: variantRows(step, s) } : main);
    if (s.otherwise?.length) rows.push(row(step, 'otherwise', created(step, 'otherwise')));
  });
  return rows;
}

/**
 * A journey's report (issue #26): one row per (step, branch) in the order they run (JourneyStepResult's doc in
 * packages/shared says what each figure counts).
 */
export async function journeyReport(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  momentumUuid: string,
  r: AnalyticsRange,
): Promise<{ steps: JourneyStepResult[] }> {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const momentum = await q.findMomentum(ctx.db, companyUuid, domainUuid, momentumUuid);
  if (!momentum) throw notFound(am.momentumNotFound, 'MOMENTUM_NOT_FOUND');
  const steps = storedSteps(momentum.steps);
  if (!steps) throw notFound(journeyMessages.noJourney, 'JOURNEY_NOT_FOUND');
  return { steps: await stepResults(ctx, domainUuid, momentumUuid, steps, momentum.timezone, r) };
}

/** Every journey of the domain over the range, oldest momentum first (the dashboard's CSV export, issue #26). */
export async function domainJourneys(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<DomainJourneyReport[]> {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const out: DomainJourneyReport[] = [];
  for (const m of await q.journeyMomentums(ctx.db, companyUuid, domainUuid)) {
    const steps = storedSteps(m.steps);
    if (!steps) continue;
    out.push({
      momentum_uuid: m.uuid,
      momentum_title: m.title,
      steps: await stepResults(ctx, domainUuid, m.uuid, steps, m.timezone, r),
    });
  }
  return out;
}
