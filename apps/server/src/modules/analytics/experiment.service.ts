import {
  type AnalyticsRange,
  analyticsMessages as am,
  armLabel,
  armSubject,
  CONTROL_ARM,
  compareProportions,
  type ExperimentArmRow,
  type ExperimentComparison,
  type ExperimentReport,
  type ExperimentVsControl,
  type ExperimentWinnerReport,
  experimentMessages,
  experimentVerdict,
} from '@impeto/shared';
import { storedExperiment } from '../../engine/arm.ts';
import { storedDecision, winnerTest } from '../../engine/winner-decision.ts';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import * as q from './experiment.queries.ts';

const percent = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);
const finite = (n: number) => (Number.isFinite(n) ? n : null);

/**
 * An experiment's report (issue #25): the arms side by side from the per-arm daily counters, each variant against
 * the control (lift in p.p. of conversion rate, 95 % interval, p-value, incremental revenue, the verdict sentence)
 * and the variants against each other by click rate.
 */
export async function experimentReport(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  momentumUuid: string,
  r: AnalyticsRange,
): Promise<ExperimentReport> {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const momentum = await q.findMomentum(ctx.db, companyUuid, domainUuid, momentumUuid);
  if (!momentum) throw notFound(am.momentumNotFound, 'MOMENTUM_NOT_FOUND');
  const [totals, daily] = await Promise.all([
    q.armTotals(ctx.db, momentumUuid, r),
    q.armDaily(ctx.db, momentumUuid, r),
  ]);
  const experiment = storedExperiment(momentum.experiment);
  if (!experiment && totals.length === 0) throw notFound(experimentMessages.noExperiment, 'EXPERIMENT_NOT_FOUND');
  const hasVariants = (experiment?.variants.length ?? 0) > 0;
  const controlPercent = experiment?.control_percent ?? 0;
  // The arms the experiment has now, then any the counters hold from an earlier version of it.
  const names = [
    ...(controlPercent > 0 ? [CONTROL_ARM] : []),
    ...(hasVariants ? (experiment?.variants.map((v) => v.name) ?? []) : experiment ? ['A'] : []),
  ];
  for (const t of totals) if (t.arm !== 'global' && !names.includes(t.arm)) names.push(t.arm);
  const byArm = new Map(totals.map((t) => [t.arm, t]));
  const shareOf = (arm: string) => {
    if (arm === CONTROL_ARM) return controlPercent;
    const weight = hasVariants ? (experiment?.variants.find((v) => v.name === arm)?.weight ?? 0) : 100;
    return ((100 - controlPercent) * weight) / 100;
  };
  const arms: ExperimentArmRow[] = names.map((arm) => {
    const t = byArm.get(arm);
    const assigned = t?.assigned ?? 0;
    const sent = t?.sent ?? 0;
    return {
      arm,
      label: armLabel(arm, hasVariants || arm !== 'A'),
      share: shareOf(arm),
      assigned,
      sent,
      viewed: t?.viewed ?? 0,
      clicked: t?.clicked ?? 0,
      conversions: t?.conversions ?? 0,
      converted: t?.converted ?? 0,
      revenue: (t?.revenue_cents ?? 0) / 100,
      conversion_rate: percent(t?.converted ?? 0, assigned),
      click_rate: percent(t?.clicked ?? 0, sent),
    };
  });
  const control = arms.find((a) => a.arm === CONTROL_ARM);
  const variants = arms.filter((a) => a.arm !== CONTROL_ARM);
  const conversionOf = (a: ExperimentArmRow) => ({ successes: a.converted, trials: a.assigned });
  const againstControl: ExperimentVsControl[] = control
    ? variants.map((v) => {
        const c = compareProportions(conversionOf(v), conversionOf(control));
        const perPerson = (a: ExperimentArmRow) => (a.assigned > 0 ? a.revenue / a.assigned : 0);
        return {
          arm: v.arm,
          against: CONTROL_ARM,
          lift_pp: c.lift_pp,
          ci_low_pp: finite(c.ci_low_pp),
          ci_high_pp: finite(c.ci_high_pp),
          p_value: c.p_value,
          significant: c.significant,
          incremental_revenue: Math.round((perPerson(v) - perPerson(control)) * v.assigned * 100) / 100,
          verdict: experimentVerdict(armSubject(v.arm, hasVariants), conversionOf(v), conversionOf(control)),
        };
      })
    : [];
  const byClickRate: ExperimentComparison[] = [];
  for (let i = 0; i < variants.length; i++) {
    for (let j = i + 1; j < variants.length; j++) {
      const [a, b] = [variants[i]!, variants[j]!];
      const c = compareProportions({ successes: a.clicked, trials: a.sent }, { successes: b.clicked, trials: b.sent });
      byClickRate.push({
        arm: a.arm,
        against: b.arm,
        lift_pp: c.lift_pp,
        ci_low_pp: finite(c.ci_low_pp),
        ci_high_pp: finite(c.ci_high_pp),
        p_value: c.p_value,
        significant: c.significant,
      });
    }
  }
  return {
    momentum_uuid: momentum.uuid,
    momentum_title: momentum.title,
    type: momentum.type,
    control_percent: controlPercent,
    variants: experiment?.variants.map((v) => v.name) ?? [],
    arms,
    against_control: againstControl,
    by_click_rate: byClickRate,
    daily: daily.filter((d) => d.arm !== 'global').map(({ day, ...rest }) => ({ date: day, ...rest })),
    winner: winnerReport(momentum),
    start: r.start,
    end: r.end,
  };
}

/** Send the winner (campaigns): the test's options and, once taken, the decision stored on the momentum. */
function winnerReport(m: { type: string; experiment: unknown; experiment_decision: unknown }) {
  const test = winnerTest(m);
  if (!test) return null;
  const d = storedDecision(m.experiment_decision);
  const report: ExperimentWinnerReport = {
    ...test.winner,
    metric: d?.metric ?? test.winner.metric,
    planned_at: d?.planned_at ?? null,
    decided_at: d?.decided_at ?? null,
    winner: d?.decided_at ? (d.winner ?? null) : null,
    rates: d?.decided_at ? (d.rates ?? []) : [],
    rest: d?.decided_at ? (d.rest ?? null) : null,
  };
  return report;
}

/** The report of every momentum of the domain that has an experiment, oldest first (the dashboard's CSV export). */
export async function domainExperiments(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<ExperimentReport[]> {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const reports: ExperimentReport[] = [];
  for (const m of await q.experimentMomentums(ctx.db, domainUuid)) {
    reports.push(await experimentReport(ctx, companyUuid, domainUuid, m.uuid, r));
  }
  return reports;
}
