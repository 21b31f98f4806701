import { z } from 'zod';
import { requiredText } from '../auth/auth.schema.ts';
import { msg } from '../messages.ts';

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
}

/** Allowed = Active and script validated (spec doc 1 §4). */
export const isDomainAllowed = (d: Pick<DomainItem, 'status' | 'gero_validate'>) =>
  d.status === 'Active' && d.gero_validate;

/** A missing scheme gets https:// (doc 1 §5); other schemes are left for the URL check to refuse. */
export const ensureHttps = (url: string) => {
  const trimmed = url.trim();
  return trimmed === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
};

/** An https site address: a host name with a dot (or localhost), optional port and path. */
export const isSiteUrl = (url: string) => {
  if (!URL.canParse(url)) return false;
  const u = new URL(url);
  return u.protocol === 'https:' && (u.hostname === 'localhost' || /^[^.\s]+(\.[^.\s]+)+$/.test(u.hostname));
};

export const siteUrl = z
  .string({ error: msg.domain.urlInvalid })
  .transform(ensureHttps)
  .refine(isSiteUrl, msg.domain.urlInvalid);

export const createDomainSchema = z.object({
  domain: z.object({
    company_uuid: z.uuid(),
    name: requiredText(msg.domain.nameRequired).pipe(z.string().max(120)),
    domain: siteUrl,
  }),
});
export type CreateDomainInput = z.infer<typeof createDomainSchema>;
