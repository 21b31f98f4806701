import { globalControlPercentSchema } from '../experiments/experiment.schema.ts';
import { msg } from '../messages.ts';
import { domainTimingShape, extraHolidaysSchema, type QuietHours, quietHoursSchema } from '../timing/timing.schema.ts';
import { z } from '../zod.ts';

export const DOMAIN_STATUSES = ['Active', 'Inactive'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** A domain as GET /domain/list/:company_uuid returns it (spec doc 1 §3). */
export interface DomainItem {
  uuid: string;
  name: string;
  domain: string;
  domain_root: string;
  gero_id: string;
  gero_validate: boolean;
  gero_version: string;
  cn_sw_version: string;
  status: DomainStatus;
  active: boolean;
  /** Events older than this many months are deleted by the daily retention job (default 13). */
  retention_months?: number;
  /** The IANA zone whose days the analytics count in (default America/Sao_Paulo). */
  timezone?: string;
  /** Quiet hours in the visitor's local time (issue #27): push, SMS and e-mail due inside wait for the end; null = off. */
  quiet_hours?: QuietHours | null;
  /** The domain's own holidays (YYYY-MM-DD) beside the national ones (issue #27). */
  extra_holidays?: string[];
  /** Share of the domain's persons (0–20 %) that receive no message from any momentum or campaign (issue #25). */
  control_group_percent?: number;
}

export { isDomainAllowed } from './domain-rules.ts';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost']);

/**
 * A site address as typed by the user: https:// is added when no scheme is given. Only https, unless
 * allowPrivate (tests and local test websites): then http://127.0.0.1:<port> and http://localhost:<port> too.
 * Returns the normalised URL, or null when it is not acceptable.
 */
export function normalizeSiteUrl(input: string, allowPrivate: boolean): string | null {
  const text = input.trim();
  if (!text || /\s/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const local = LOCAL_HOSTS.has(url.hostname);
  if (url.protocol === 'http:' && !(allowPrivate && local)) return null;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (!local && !/^([a-z0-9-]+\.)+[a-z]{2,}$/i.test(url.hostname)) return null;
  if (local && !allowPrivate) return null;
  url.hash = '';
  return url.toString();
}

export const siteUrlSchema = (allowPrivate: boolean) =>
  z
    .string({ error: msg.domain.urlInvalid })
    .max(2048, msg.domain.urlInvalid)
    .transform((v, ctx) => {
      const url = normalizeSiteUrl(v, allowPrivate);
      if (!url) {
        ctx.addIssue({ code: 'custom', message: msg.domain.urlInvalid });
        return z.NEVER;
      }
      return url;
    });

export const DEFAULT_RETENTION_MONTHS = 13;
export const retentionMonthsSchema = z
  .number({ error: msg.privacy.retentionInvalid })
  .int(msg.privacy.retentionInvalid)
  .min(1, msg.privacy.retentionInvalid)
  .max(120, msg.privacy.retentionInvalid);

export const DEFAULT_DOMAIN_TIMEZONE = 'America/Sao_Paulo';

/** An IANA zone name (America/Sao_Paulo, UTC, Etc/GMT+3) the runtime knows; offsets such as '-03:00' are not names. */
export function isIanaTimeZone(name: string): boolean {
  if (name.length > 64 || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const timezoneSchema = z
  .string({ error: msg.domain.timezoneInvalid })
  .trim()
  .refine(isIanaTimeZone, msg.domain.timezoneInvalid);

const domainName = z
  .string({ error: msg.domain.nameRequired })
  .trim()
  .min(1, msg.domain.nameRequired)
  .max(120, msg.domain.nameRequired);

export const createDomainSchema = (allowPrivate: boolean) =>
  z.object({
    domain: z.object({
      company_uuid: z.uuid(msg.common.notFound),
      name: domainName,
      domain: siteUrlSchema(allowPrivate),
    }),
  });
export type CreateDomainInput = z.infer<ReturnType<typeof createDomainSchema>>;

/**
 * Edit `{ name, address }`, enable `{ status: 'Active' }` (READINGS A-15), set the analytics' time zone
 * `{ timezone }` or the global control group `{ control_group_percent }`; uuid in the path or the body.
 */
export const updateDomainSchema = (allowPrivate: boolean) =>
  z.object({
    domain: z.union(
      [
        z.object({ uuid: z.uuid().optional(), status: z.literal('Active') }).strict(),
        z
          .object({
            uuid: z.uuid().optional(),
            name: domainName,
            address: siteUrlSchema(allowPrivate),
            retention_months: retentionMonthsSchema.optional(),
            timezone: timezoneSchema.optional(),
            ...domainTimingShape,
            control_group_percent: globalControlPercentSchema.optional(),
          })
          .strict(),
        z.object({ uuid: z.uuid().optional(), timezone: timezoneSchema }).strict(),
        // Quiet hours and the domain's own holidays (issue #27), alone or together.
        z.object({ uuid: z.uuid().optional(), ...domainTimingShape, quiet_hours: quietHoursSchema }).strict(),
        z.object({ uuid: z.uuid().optional(), ...domainTimingShape, extra_holidays: extraHolidaysSchema }).strict(),
        z.object({ uuid: z.uuid().optional(), control_group_percent: globalControlPercentSchema }).strict(),
      ],
      { error: msg.common.invalidInput },
    ),
  });

export const domainUuidBodySchema = z.object({ domain: z.object({ uuid: z.uuid(msg.common.notFound) }) });
export const validateScriptSchema = z.object({ gero: z.object({ domain_uuid: z.uuid(msg.common.notFound) }) });

export interface VersionItem {
  version: string;
}

/** What the URL field shows after the user leaves it: https:// added when no scheme was typed (doc 1 §5). */
export const ensureHttps = (url: string) => {
  const trimmed = url.trim();
  return trimmed === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
};
