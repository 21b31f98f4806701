import { z } from '../zod.ts';
import { ANALYTICS_MAX_DAYS, analyticsMessages, daysInRange } from './constants.ts';

/**
 * The analytics service (spec doc 1 §2 "Analytics dashboard", §3 analytics rows, §7; READINGS ).
 * Every widget calls GET /api/analytics/:domainUuid/<path>?start=YYYY-MM-DD&end=YYYY-MM-DD; days are the
 * company's local days (America/Sao_Paulo by default). Answers are `{ message, data }`.
 */
export { ANALYTICS_MAX_DAYS, ATTRIBUTION_WINDOWS, analyticsMessages, daysInRange } from './constants.ts';

const isoDay = z
  .string({ error: analyticsMessages.dateInvalid })
  .regex(/^\d{4}-\d{2}-\d{2}$/, analyticsMessages.dateInvalid)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, analyticsMessages.dateInvalid);

export const analyticsRangeSchema = z
  .object({ start: isoDay, end: isoDay })
  .refine((r) => r.end >= r.start, { message: analyticsMessages.endBeforeStart, path: ['end'] })
  .refine((r) => r.end < r.start || daysInRange(r.start, r.end) <= ANALYTICS_MAX_DAYS, {
    message: analyticsMessages.rangeTooLong,
    path: ['end'],
  });
export type AnalyticsRange = z.infer<typeof analyticsRangeSchema>;

export const mostViewedQuerySchema = z
  .object({
    start: isoDay,
    end: isoDay,
    limit: z.coerce.number({ error: analyticsMessages.limitInvalid }).int().min(1).max(100).default(10),
  })
  .refine((r) => r.end >= r.start, { message: analyticsMessages.endBeforeStart, path: ['end'] })
  .refine((r) => r.end < r.start || daysInRange(r.start, r.end) <= ANALYTICS_MAX_DAYS, {
    message: analyticsMessages.rangeTooLong,
    path: ['end'],
  });

/** Impact by event: `period` days ending at `end` (default: today in the company's time zone). */
export const eventPeriodQuerySchema = z.object({
  period: z.coerce
    .number({ error: analyticsMessages.periodInvalid })
    .int(analyticsMessages.periodInvalid)
    .min(1, analyticsMessages.periodInvalid)
    .max(ANALYTICS_MAX_DAYS, analyticsMessages.periodInvalid),
  end: isoDay.optional(),
});

// ---- answers (the `data` of each endpoint) ----

/**
 * GET /count/visits: page views in the range, and in the previous range of the same length. When the range reaches
 * today, the previous one is counted only up to the same point (`previous_until`, an ISO instant), so a morning is
 * compared with the previous morning, not with a whole day (issue #29).
 */
export interface CountWithPrevious {
  count: number;
  previous: number;
  previous_until?: string;
}
/** GET /count/momentums: momentums and campaigns of the domain right now (Active vs Paused, Draft, Done). */
export interface MomentumCounts {
  active: number;
  inactive: number;
}
/** GET /count/live (no range): distinct visitors in the last 5 minutes. */
export interface LiveVisitors {
  count: number;
  at: string;
}
/** GET /pages/mostViewed?limit=10 (message 'Most viewed pages have been loaded.'). */
export interface MostViewedRow {
  url: string;
  mobile: number;
  desktop: number;
  count: number;
}
/** GET /visitors/category: distinct visitors per event category, summed per day. */
export interface CategoryRow {
  category_uuid: string;
  parent_category: string;
  amount: number;
}
/** GET /visitors/device: distinct visitors per device type ('desktop', 'mobile', 'tablet', …), summed per day. */
export interface DeviceRow {
  device: string;
  amount: number;
}
export const BASE_CHANNELS = ['push', 'onsite', 'email', 'sms'] as const;
export type BaseChannel = (typeof BASE_CHANNELS)[number];
/** GET /base/channel: persons reachable by each channel now, and how many of them were first seen in the range. */
export interface BaseChannelRow {
  channel: BaseChannel;
  amount: number;
  new: number;
}
/** GET /momentums/performance: one row per momentum or campaign with activity in the range (spec's analytics rows). */
export interface MomentumPerformanceRow {
  momentum_uuid: string;
  momentum_title: string;
  type: 'momentum' | 'campaign' | 'dcm';
  notifications_sent: number;
  notifications_viewed: number;
  notifications_clicked: number;
  /** clicked ÷ sent × 100, one decimal; 0 when nothing was sent. */
  notifications_ctr: number;
  not_convertion: number;
  /** Revenue of attributed conversions, in BRL (reais, two decimals). */
  not_convertion_profit: number;
  not_cart_access: number;
  /** cart accesses ÷ sent × 100, one decimal; 0 when nothing was sent. */
  not_cart_access_percent: number;
  /** Present (true) when the item has an A/B test or control group: its report is /v2/experiment (issue #25). */
  has_experiment?: true;
  /** Present (true) when the momentum has journey steps (issue #26): its rows per step come from …/journey. */
  journey?: true;
}
/** GET /momentums/daily: per day and momentum (days without activity are left out). */
export interface MomentumDailyRow {
  date: string;
  momentum_uuid: string;
  momentum_title: string;
  notifications_sent: number;
  notifications_viewed: number;
  notifications_clicked: number;
}
/** GET /api/analytics/momentum/:uuid/count/dailyPeopleImpacted?start&end: every day of the range. */
export interface DailyImpactRow {
  date: string;
  notifications_sent: number;
  notifications_viewed: number;
  notifications_clicked: number;
}
/** GET /api/analytics/event/:categoryUuid/:domainUuid/count/dailyPeopleImpacted?period=n&end=: every day. */
export interface EventDailyRow {
  date: string;
  amount: number;
}
/** GET /optins/daily: every day of the range. */
export interface OptinDailyRow {
  date: string;
  optins: number;
  optouts: number;
}

/** GET/PUT /api/analytics/:domainUuid/settings: what counts as a cart access (a page view whose URL contains it). */
export const conversionSettingsSchema = z.object({
  settings: z.object({
    cart_url: z.string({ error: analyticsMessages.cartRuleInvalid }).trim().max(200, analyticsMessages.cartRuleInvalid),
  }),
});
export type ConversionSettingsInput = z.infer<typeof conversionSettingsSchema>;
export interface ConversionSettings {
  cart_url: string;
}
