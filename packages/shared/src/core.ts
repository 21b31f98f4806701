/*
 * `@impeto/shared/core`: the pieces the dashboard's first load (`/`) needs, none of which loads zod. The main
 * entry's `zod.ts` is a side-effect module (it configures zod's pt-BR messages), so importing anything from the
 * barrel brings all of zod along; code on the landing path imports from here instead.
 */
export {
  ANALYTICS_MAX_DAYS,
  ATTRIBUTION_WINDOWS,
  analyticsMessages,
  daysInRange,
  isAnalyticsRange,
  isIsoDay,
} from './analytics/constants.ts';
export { isDomainAllowed } from './domains/domain-rules.ts';
export { msg } from './messages.ts';
