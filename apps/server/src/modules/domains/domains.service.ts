import { randomBytes, randomUUID } from 'node:crypto';
import { type DomainItem, type DomainOnboarding, msg, ONBOARDING_STEPS, type QuietHours } from '@impeto/shared';
import type { domains } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { SafeFetchError, safeFetchText } from '../../lib/safe-fetch.ts';
import { createSecretBox } from '../../lib/secret-box.ts';
import { newVapidKeys } from '../../lib/vapid.ts';
import * as q from './domains.queries.ts';

type DomainRow = typeof domains.$inferSelect;

export const toDomainItem = (row: DomainRow): DomainItem => ({
  uuid: row.uuid,
  name: row.name,
  domain: row.domain,
  domain_root: row.domainRoot,
  gero_id: row.geroId,
  gero_validate: row.geroValidate,
  gero_version: row.geroVersion,
  cn_sw_version: row.cnSwVersion,
  status: row.status,
  active: row.status === 'Active',
  retention_months: row.retentionMonths,
  timezone: row.timezone,
  quiet_hours: row.quietHours ?? null,
  extra_holidays: row.extraHolidays,
  control_group_percent: row.controlGroupPercent,
});

const domainNotFound = () => notFound(msg.common.notFound, 'DOMAIN_NOT_FOUND');

/** The path names a company; it must be the caller's own, or the answer is 404 as for any unknown uuid. */
export async function listCompanyDomains(ctx: AppContext, callerCompany: string, companyUuid: string) {
  if (callerCompany !== companyUuid) throw notFound();
  return (await q.listDomains(ctx.db, companyUuid)).map(toDomainItem);
}

const newGeroId = () => `G-${randomBytes(6).toString('hex').toUpperCase()}`;

export async function createDomain(
  ctx: AppContext,
  companyUuid: string,
  input: { company_uuid: string; name: string; domain: string },
) {
  if (input.company_uuid !== companyUuid) throw notFound(msg.common.notFound, 'COMPANY_NOT_FOUND');
  const domainRoot = new URL(input.domain).origin;
  if (await q.findDomainByRoot(ctx.db, companyUuid, domainRoot)) {
    throw new AppError('DOMAIN_DUPLICATE', 409, msg.domain.duplicate, { 'domain.domain': msg.domain.duplicate });
  }
  const keys = newVapidKeys();
  const box = createSecretBox(ctx.config.secretKey);
  for (let attempt = 0; ; attempt++) {
    try {
      const row = await q.insertDomain(ctx.db, {
        uuid: randomUUID(),
        companyUuid,
        name: input.name,
        domain: input.domain,
        domainRoot,
        geroId: newGeroId(),
        geroVersion: ctx.tag.latestGero,
        cnSwVersion: ctx.tag.latestCnsw,
        status: 'Active',
        vapidPublic: keys.publicKey,
        vapidPrivate: box.seal(keys.privateKey),
      });
      return toDomainItem(row);
    } catch (err) {
      // A gero_id collision (48 random bits) is all but impossible; retry once with a new id.
      if (!isUniqueViolation(err) || attempt > 2) throw err;
    }
  }
}

export async function editDomain(
  ctx: AppContext,
  companyUuid: string,
  uuid: string,
  input: {
    name: string;
    address: string;
    retention_months?: number | undefined;
    timezone?: string | undefined;
    quiet_hours?: QuietHours | null | undefined;
    extra_holidays?: string[] | undefined;
    control_group_percent?: number | undefined;
  },
) {
  const current = await q.findDomain(ctx.db, companyUuid, uuid);
  if (!current) throw domainNotFound();
  if (input.timezone !== undefined && input.timezone !== current.timezone) {
    await requireKnownZone(ctx, input.timezone);
    await q.setTimezone(ctx.db, companyUuid, uuid, input.timezone);
  }
  const domainRoot = new URL(input.address).origin;
  const other = await q.findDomainByRoot(ctx.db, companyUuid, domainRoot);
  if (other && other.uuid !== uuid) throw new AppError('DOMAIN_DUPLICATE', 409, msg.domain.duplicate);
  // A new address has not been checked for our script yet.
  const moved = domainRoot !== current.domainRoot;
  const row = await q.updateDomain(ctx.db, companyUuid, uuid, {
    name: input.name,
    domain: input.address,
    domainRoot,
    ...(moved ? { geroValidate: false } : {}),
    ...(input.retention_months !== undefined ? { retentionMonths: input.retention_months } : {}),
    ...timingSet(input),
    ...(input.control_group_percent !== undefined ? { controlGroupPercent: input.control_group_percent } : {}),
  });
  return toDomainItem(row!);
}

/** The database computes the days (AT TIME ZONE): a zone its own tz data lacks is refused like a malformed one. */
async function requireKnownZone(ctx: AppContext, timezone: string) {
  if (!(await q.isKnownTimeZone(ctx.db, timezone)))
    throw new AppError('TIMEZONE_INVALID', 400, msg.domain.timezoneInvalid);
}

/** The zone whose days the domain's analytics count in (`{ domain: { timezone } }`). */
export async function setTimezone(ctx: AppContext, companyUuid: string, uuid: string, timezone: string) {
  const current = await q.findDomain(ctx.db, companyUuid, uuid);
  if (!current) throw domainNotFound();
  await requireKnownZone(ctx, timezone);
  const row = await q.setTimezone(ctx.db, companyUuid, uuid, timezone);
  return toDomainItem(row!);
}

/**
 * The global control group (issue #25, `{ domain: { control_group_percent } }`): this share of the domain's persons
 * receives no message from any momentum or campaign (engine/arm.ts), from the next send on.
 */
export async function setControlGroup(ctx: AppContext, companyUuid: string, uuid: string, percent: number) {
  const row = await q.updateDomain(ctx.db, companyUuid, uuid, { controlGroupPercent: percent });
  if (!row) throw domainNotFound();
  return toDomainItem(row);
}

const timingSet = (input: { quiet_hours?: QuietHours | null | undefined; extra_holidays?: string[] | undefined }) => ({
  ...(input.quiet_hours !== undefined ? { quietHours: input.quiet_hours } : {}),
  ...(input.extra_holidays !== undefined ? { extraHolidays: input.extra_holidays } : {}),
});

/**
 * Quiet hours and the domain's own holidays (issue #27, `{ domain: { quiet_hours, extra_holidays } }`): the engine
 * reads them when it decides a delivery's due time, from the next decision on.
 */
export async function setDomainTiming(
  ctx: AppContext,
  companyUuid: string,
  uuid: string,
  input: { quiet_hours?: QuietHours | null | undefined; extra_holidays?: string[] | undefined },
) {
  const row = await q.updateDomain(ctx.db, companyUuid, uuid, timingSet(input));
  if (!row) throw domainNotFound();
  return toDomainItem(row);
}

export async function setDomainStatus(
  ctx: AppContext,
  companyUuid: string,
  uuid: string,
  status: 'Active' | 'Inactive',
) {
  const row = await q.updateDomain(ctx.db, companyUuid, uuid, { status });
  if (!row) throw domainNotFound();
  return toDomainItem(row);
}

/** Soft delete: the row stays for history, the domain leaves every list and stops collecting (READINGS A-15). */
export async function removeDomain(ctx: AppContext, companyUuid: string, uuid: string) {
  const row = await q.updateDomain(ctx.db, companyUuid, uuid, { status: 'Inactive', removedAt: ctx.clock.now() });
  if (!row) throw domainNotFound();
}

export interface ScriptCheck {
  loader: boolean;
  service_worker: boolean;
  installed: boolean;
}

/**
 * Found = the page references our loader and carries this domain's gero_id, and /cn_sw.min.js at the
 * root imports our service worker for it (DESIGN.md §11). Any failure, network ones included, is "not found".
 */
export async function checkScript(ctx: AppContext, row: DomainRow): Promise<ScriptCheck> {
  const fetchOptions = { allowPrivate: ctx.config.allowPrivateFetch };
  const get = async (url: string) => {
    try {
      const res = await safeFetchText(url, fetchOptions);
      return res.status >= 200 && res.status < 300 ? res.body : '';
    } catch (err) {
      ctx.log.info(
        { url, reason: err instanceof SafeFetchError ? err.reason : 'network' },
        'verificação do script falhou',
      );
      return '';
    }
  };
  const [page, sw] = await Promise.all([get(row.domain), get(`${row.domainRoot}/cn_sw.min.js`)]);
  const loader = page.includes(`${ctx.config.publicUrl}/t/loader.js`) && page.includes(row.geroId);
  const serviceWorker = sw.includes(`/t/sw.js?id=${row.geroId}`);
  return { loader, service_worker: serviceWorker, installed: loader && serviceWorker };
}

export async function validateScript(ctx: AppContext, companyUuid: string, uuid: string) {
  const row = await q.findDomain(ctx.db, companyUuid, uuid);
  if (!row) throw domainNotFound();
  const check = await checkScript(ctx, row);
  if (!check.installed) {
    throw new AppError('SCRIPT_NOT_FOUND', 422, msg.domain.validateFailed, {
      ...(check.loader ? {} : { script: msg.domain.validateFailed }),
      ...(check.service_worker ? {} : { service_worker: msg.domain.validateFailed }),
    });
  }
  const updated = await q.updateDomain(ctx.db, companyUuid, uuid, { geroValidate: true });
  return { domain: toDomainItem(updated!), check };
}

export async function changeVersion(
  ctx: AppContext,
  companyUuid: string,
  uuid: string,
  kind: 'gero' | 'cnsw',
  version: string,
) {
  const available = kind === 'gero' ? ctx.tag.gero : ctx.tag.cnsw;
  if (!available.includes(version)) {
    throw new AppError('VERSION_NOT_FOUND', 404, msg.version.changeFailed(kind));
  }
  const row = await q.updateDomain(
    ctx.db,
    companyUuid,
    uuid,
    kind === 'gero' ? { geroVersion: version } : { cnSwVersion: version },
  );
  if (!row) throw domainNotFound();
  return toDomainItem(row);
}

/** The domain's first steps (issue #14), each from real data; another company's domain answers 404. */
export async function onboarding(ctx: AppContext, companyUuid: string, uuid: string): Promise<DomainOnboarding> {
  const row = await q.findDomain(ctx.db, companyUuid, uuid);
  if (!row) throw domainNotFound();
  const facts = await q.onboardingFacts(ctx.db, row.uuid);
  const steps = {
    // The validation fetched the site and found the snippet and the service worker: the script is installed.
    script_installed: facts.collected || row.geroValidate,
    domain_validated: row.geroValidate,
    push_integrated: facts.pushIntegrated,
    first_optin: facts.optedIn,
    momentum_active: facts.momentumActive,
    first_delivery: facts.delivered,
  };
  const doneCount = ONBOARDING_STEPS.filter((step) => steps[step]).length;
  return {
    domain_uuid: row.uuid,
    steps,
    done_count: doneCount,
    total: ONBOARDING_STEPS.length,
    complete: doneCount === ONBOARDING_STEPS.length,
  };
}
