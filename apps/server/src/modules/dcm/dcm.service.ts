import type { DcmRule, DcmStats } from '@impeto/shared';
import type { AppContext } from '../../lib/context.ts';
import * as q from './dcm.queries.ts';
import { attributeKeysOf, toDcmRule } from './dcm.rules.ts';

export interface TagDomain {
  uuid: string;
  geroValidate: boolean;
}

// Rules built once per revision (the revision changes whenever they do); one small map per app.
const built = new WeakMap<AppContext, Map<string, { rev: string; rules: DcmRule[]; keys: string[] }>>();

/** The domain's GCD rules for the tag, with their revision (null and [] when it has no active item). */
export async function rulesFor(ctx: AppContext, domain: TagDomain) {
  const rev = await q.rulesRevision(ctx.db, domain.uuid, domain.geroValidate);
  if (!rev) return { rev: null, rules: [] as DcmRule[], keys: [] as string[] };
  let cache = built.get(ctx);
  if (!cache) {
    cache = new Map();
    built.set(ctx, cache);
  }
  const hit = cache.get(domain.uuid);
  if (hit?.rev === rev) return hit;
  const now = ctx.clock.now();
  const rules = (await q.activeItems(ctx.db, domain.uuid)).flatMap((row) => {
    try {
      const rule = toDcmRule(row, domain.geroValidate, now);
      return rule ? [rule] : [];
    } catch (err) {
      ctx.log.warn({ err, momentum: row.uuid }, 'item do GCD ignorado: blocos inválidos');
      return [];
    }
  });
  const entry = { rev, rules, keys: attributeKeysOf(rules) };
  if (cache.size > 10_000) cache.clear();
  cache.set(domain.uuid, entry);
  return entry;
}

export const revisionOf = (ctx: AppContext, domain: TagDomain) =>
  q.rulesRevision(ctx.db, domain.uuid, domain.geroValidate);

/**
 * What the rules' filters need to know of one visitor: their stored attributes (only the keys the filters read),
 * overlaid with what this request tells (device, place, language), as the person will be once this page view is
 * stored. A visitor not stored yet is judged on the request alone.
 */
export async function visitorProfile(
  ctx: AppContext,
  domain: TagDomain,
  visitorId: string,
  fromRequest: Record<string, unknown>,
) {
  const { keys } = await rulesFor(ctx, domain);
  if (keys.length === 0) return {};
  const stored = await q.visitorAttributes(ctx.db, domain.uuid, visitorId, keys);
  const profile: Record<string, unknown> = { ...(stored ?? {}) };
  for (const k of keys) if (fromRequest[k] !== undefined) profile[k] = fromRequest[k];
  if (!stored && keys.includes('createdAt')) profile.createdAt = ctx.clock.now().toISOString();
  return profile;
}

const toIso = (v: Date | string) => new Date(v).toISOString();

/** dcm_stats of each of the company's GCD items on the domain (items never reported get zeros). */
export async function statsByItem(ctx: AppContext, companyUuid: string, domainUuid: string) {
  const rows = await q.statsForDomain(ctx.db, companyUuid, domainUuid);
  return new Map<string, DcmStats>(
    rows.map((r) => [
      r.momentum_uuid,
      {
        shown: Number(r.shown),
        clicked: Number(r.clicked),
        missing:
          r.missing_page !== null && r.missing_at ? { page: r.missing_page, last_seen: toIso(r.missing_at) } : null,
      },
    ]),
  );
}

export const NO_STATS: DcmStats = { shown: 0, clicked: 0, missing: null };
