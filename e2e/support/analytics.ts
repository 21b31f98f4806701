import { type APIRequestContext, expect } from '@playwright/test';
import type { TestSite } from '../test-site/site.ts';

export const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
export const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Every widget endpoint that takes the dashboard's range (packages/shared analytics.schema.ts). */
export const RANGED_WIDGET_PATHS = [
  '/count/visits',
  '/count/visitors',
  '/count/momentums',
  '/pages/mostViewed',
  '/visitors/category',
  '/visitors/device',
  '/base/channel',
  '/momentums/performance',
  '/momentums/daily',
  '/optins/daily',
];

/** Today in America/Sao_Paulo, YYYY-MM-DD (the dashboard's default range). */
export const todayInSaoPaulo = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

export const shiftDay = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * One batch to the collector as the tag would send it from the site (its Origin, a browser's user agent):
 * how the screenshot test seeds a realistic day of data without driving a browser per visitor.
 */
export async function collect(
  request: APIRequestContext,
  site: TestSite,
  geroId: string,
  vid: string | undefined,
  events: object[],
  userAgent = DESKTOP_UA,
) {
  const res = await request.post('/collect', {
    headers: { origin: site.url, 'content-type': 'text/plain;charset=UTF-8', 'user-agent': userAgent },
    data: JSON.stringify({ id: geroId, ...(vid ? { vid } : {}), v: '1.3.0', e: events }),
  });
  expect(res.status(), await res.text()).toBe(202);
  return (await res.json()) as { accepted: number; onsite: { d: string }[] };
}

/** The on-site messages waiting for a visitor (GET /collect/pending), as the tag's poll takes them. */
export async function pendingOnsite(request: APIRequestContext, geroId: string, vid: string) {
  const res = await request.get(`/collect/pending?id=${encodeURIComponent(geroId)}&vid=${encodeURIComponent(vid)}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { onsite: { d: string }[] }).onsite;
}
