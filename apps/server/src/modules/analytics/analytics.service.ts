import {
  type AnalyticsRange,
  analyticsMessages as am,
  BASE_CHANNELS,
  type BaseChannelRow,
  type CategoryRow,
  type CountWithPrevious,
  type DailyImpactRow,
  type DeviceRow,
  daysInRange,
  type EventDailyRow,
  type MomentumDailyRow,
  type MomentumPerformanceRow,
  type OptinDailyRow,
} from '@impeto/shared';
import type { AppContext } from '../../lib/context.ts';
import { notFound } from '../../lib/errors.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import * as q from './analytics.queries.ts';
import { type PreviousCut, pageviewsBetween, previousCut, visitorsBetween } from './same-hours.ts';
import { countByKey, VisitorSketch, visitorHash } from './visitor-sketch.ts';

const DAY_MS = 86_400_000;
const LIVE_MINUTES = 5;

const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Every day from start to end, both included. */
const daysOf = (r: AnalyticsRange) =>
  Array.from({ length: daysInRange(r.start, r.end) }, (_, i) => shiftDay(r.start, i));

const todayIn = (timeZone: string) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/** Resolves the domain within the caller's company (404 otherwise). */
const domainOf = (ctx: AppContext, companyUuid: string, domainUuid: string) =>
  requireCompanyDomain(ctx, companyUuid, domainUuid);

const withPrevious = async (
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  dimension: string,
  r: AnalyticsRange,
): Promise<CountWithPrevious> => {
  const domain = await domainOf(ctx, companyUuid, domainUuid);
  const cut = await previousCut(ctx.db, r, ctx.clock.now(), domain.timezone);
  const [count, full, partial] = await Promise.all([
    q.sumDimension(ctx.db, domainUuid, dimension, r),
    cut.full ? q.sumDimension(ctx.db, domainUuid, dimension, cut.full) : 0,
    cut.partial ? partialCount(ctx, domainUuid, dimension, cut.partial) : 0,
  ]);
  return withCut({ count, previous: full + partial }, cut);
};

/** The cut day's part of a daily counter, from the events themselves. */
const partialCount = async (
  ctx: AppContext,
  domainUuid: string,
  dimension: string,
  part: NonNullable<PreviousCut['partial']>,
) =>
  dimension === 'pageviews'
    ? pageviewsBetween(ctx.db, domainUuid, part.from, part.until)
    : (await visitorsBetween(ctx.db, domainUuid, part.from, part.until)).length;

/** `previous_until` says the previous period was counted only until that instant (the same point as today's). */
const withCut = (counts: CountWithPrevious, cut: PreviousCut): CountWithPrevious =>
  cut.cut ? { ...counts, previous_until: cut.cut.toISOString() } : counts;

export const visits = (ctx: AppContext, companyUuid: string, domainUuid: string, r: AnalyticsRange) =>
  withPrevious(ctx, companyUuid, domainUuid, 'pageviews', r);

/** Distinct visitors of the range: the days' sketches merged, so a visitor who came on several days counts once. */
const distinctVisitors = async (ctx: AppContext, domainUuid: string, r: AnalyticsRange) => {
  const sketch = new VisitorSketch();
  for (const row of await q.sketchRows(ctx.db, domainUuid, 'visitors', r)) sketch.merge(row);
  return sketch.count();
};

export async function visitors(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<CountWithPrevious> {
  const domain = await domainOf(ctx, companyUuid, domainUuid);
  const cut = await previousCut(ctx.db, r, ctx.clock.now(), domain.timezone);
  const previousVisitors = async () => {
    const sketch = new VisitorSketch();
    if (cut.full) for (const row of await q.sketchRows(ctx.db, domainUuid, 'visitors', cut.full)) sketch.merge(row);
    if (cut.partial)
      for (const person of await visitorsBetween(ctx.db, domainUuid, cut.partial.from, cut.partial.until))
        sketch.addHash(visitorHash(person));
    return sketch.count();
  };
  const [count, previous] = await Promise.all([distinctVisitors(ctx, domainUuid, r), previousVisitors()]);
  return withCut({ count, previous }, cut);
}

export async function momentumCounts(ctx: AppContext, companyUuid: string, domainUuid: string) {
  await domainOf(ctx, companyUuid, domainUuid);
  return q.momentumCounts(ctx.db, domainUuid);
}

export async function liveVisitors(ctx: AppContext, companyUuid: string, domainUuid: string) {
  await domainOf(ctx, companyUuid, domainUuid);
  const now = ctx.clock.now();
  const count = await q.liveVisitors(ctx.db, domainUuid, new Date(now.getTime() - LIVE_MINUTES * 60_000));
  return { count, at: now.toISOString() };
}

export async function mostViewed(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange & { limit: number },
) {
  await domainOf(ctx, companyUuid, domainUuid);
  return q.mostViewed(ctx.db, domainUuid, r, r.limit);
}

/** Distinct visitors per event category over the range (a visitor counts once per category). */
export async function visitorsByCategory(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<CategoryRow[]> {
  await domainOf(ctx, companyUuid, domainUuid);
  const [rows, categories] = await Promise.all([
    q.sketchRows(ctx.db, domainUuid, 'event_visitors', r),
    q.categoriesByName(ctx.db, domainUuid),
  ]);
  const uuidOf = new Map(categories.map((c) => [c.name, c.uuid]));
  return [...countByKey(rows)]
    .filter(([name]) => uuidOf.has(name))
    .map(([name, sketch]) => ({ category_uuid: uuidOf.get(name)!, parent_category: name, amount: sketch.count() }))
    .sort((a, b) => b.amount - a.amount || a.parent_category.localeCompare(b.parent_category));
}

/**
 * Distinct visitors per device over the range, each visitor once: one seen on several devices in the range counts
 * under the most used of them (devices taken largest first, each adding the visitors the union gains), so the rows
 * add up to the range's visitors.
 */
export async function visitorsByDevice(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<DeviceRow[]> {
  await domainOf(ctx, companyUuid, domainUuid);
  const byDevice = [...countByKey(await q.sketchRows(ctx.db, domainUuid, 'visitors_device', r))]
    .map(([device, sketch]) => ({ device, sketch, alone: sketch.count() }))
    .sort((a, b) => b.alone - a.alone || a.device.localeCompare(b.device));
  const union = new VisitorSketch();
  for (const d of byDevice) union.merge(d.sketch.stored());
  const total = union.count();
  const running = new VisitorSketch();
  let counted = 0;
  const rows: DeviceRow[] = [];
  for (const d of byDevice) {
    running.merge(d.sketch.stored());
    const reached = Math.min(total, Math.max(counted, running.count()));
    rows.push({ device: d.device || 'desconhecido', amount: reached - counted });
    counted = reached;
  }
  return rows;
}

export async function baseByChannel(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<BaseChannelRow[]> {
  await domainOf(ctx, companyUuid, domainUuid);
  const base = await q.baseByChannel(ctx.db, domainUuid, r);
  return BASE_CHANNELS.map((channel) => ({ channel, ...base[channel] }));
}

export async function momentumPerformance(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<MomentumPerformanceRow[]> {
  await domainOf(ctx, companyUuid, domainUuid);
  const rows = await q.momentumPerformance(ctx.db, domainUuid, r);
  return rows.map((x) => ({
    momentum_uuid: x.uuid,
    momentum_title: x.title,
    type: x.type,
    notifications_sent: x.sent,
    notifications_viewed: x.viewed,
    notifications_clicked: x.clicked,
    notifications_ctr: percent(x.clicked, x.sent),
    not_convertion: x.conversions,
    not_convertion_profit: x.revenue_cents / 100,
    not_cart_access: x.cart_accesses,
    not_cart_access_percent: percent(x.cart_accesses, x.sent),
    ...(x.hasExperiment ? { has_experiment: true } : {}),
    ...(x.hasJourney ? { journey: true } : {}),
  }));
}

export async function momentumDaily(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<MomentumDailyRow[]> {
  await domainOf(ctx, companyUuid, domainUuid);
  const rows = await q.momentumDaily(ctx.db, domainUuid, r);
  return rows.map((x) => ({
    date: x.day,
    momentum_uuid: x.uuid,
    momentum_title: x.title,
    notifications_sent: x.sent,
    notifications_viewed: x.viewed,
    notifications_clicked: x.clicked,
  }));
}

/** One momentum's sent/viewed/clicked per day (every day of the range). Another company's momentum: 404. */
export async function oneMomentumDaily(
  ctx: AppContext,
  companyUuid: string,
  momentumUuid: string,
  r: AnalyticsRange,
): Promise<DailyImpactRow[]> {
  const momentum = await q.findMomentum(ctx.db, companyUuid, momentumUuid);
  if (!momentum) throw notFound(am.momentumNotFound, 'MOMENTUM_NOT_FOUND');
  const byDay = new Map((await q.oneMomentumDaily(ctx.db, momentumUuid, r)).map((x) => [x.day, x]));
  return daysOf(r).map((date) => ({
    date,
    notifications_sent: byDay.get(date)?.sent ?? 0,
    notifications_viewed: byDay.get(date)?.viewed ?? 0,
    notifications_clicked: byDay.get(date)?.clicked ?? 0,
  }));
}

/** Distinct visitors per day who sent events of one category: `period` days ending at `end` (default today). */
export async function eventDaily(
  ctx: AppContext,
  companyUuid: string,
  categoryUuid: string,
  domainUuid: string,
  query: { period: number; end?: string },
): Promise<EventDailyRow[]> {
  const domain = await domainOf(ctx, companyUuid, domainUuid);
  const category = await q.findCategory(ctx.db, domainUuid, categoryUuid);
  if (!category) throw notFound(am.categoryNotFound, 'CATEGORY_NOT_FOUND');
  const end = query.end ?? todayIn(domain.timezone);
  const r = { start: shiftDay(end, 1 - query.period), end };
  const rows = await q.dailyByDimension(ctx.db, domainUuid, ['event_visitors'], r, category.name);
  const byDay = new Map(rows.map((x) => [x.day, x.n]));
  return daysOf(r).map((date) => ({ date, amount: byDay.get(date) ?? 0 }));
}

export async function optinsDaily(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  r: AnalyticsRange,
): Promise<OptinDailyRow[]> {
  await domainOf(ctx, companyUuid, domainUuid);
  const rows = await q.dailyByDimension(ctx.db, domainUuid, ['optins', 'optouts'], r);
  const key = (day: string, dim: string) => `${day}|${dim}`;
  const n = new Map(rows.map((x) => [key(x.day, x.dimension), x.n]));
  return daysOf(r).map((date) => ({
    date,
    optins: n.get(key(date, 'optins')) ?? 0,
    optouts: n.get(key(date, 'optouts')) ?? 0,
  }));
}

export async function conversionSettings(ctx: AppContext, companyUuid: string, domainUuid: string) {
  const domain = await domainOf(ctx, companyUuid, domainUuid);
  return { cart_url: domain.cartUrl };
}

export async function saveConversionSettings(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  settings: { cart_url: string },
) {
  await domainOf(ctx, companyUuid, domainUuid);
  await q.setCartUrl(ctx.db, domainUuid, settings.cart_url);
  ctx.attribution?.forgetCartRule(domainUuid);
  return { cart_url: settings.cart_url };
}
