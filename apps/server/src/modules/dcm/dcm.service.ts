import { type DcmRule, type DcmStats, inGlobalControl } from '@impeto/shared';
import type { AppContext, DcmDomain, DcmHooks } from '../../lib/context.ts';
import * as q from './dcm.queries.ts';
import { attributeKeysOf, toDcmRule } from './dcm.rules.ts';

const toIso = (v: Date | string) => new Date(v).toISOString();

/** GCD on the server side (AppContext.dcm): the tag's rules and visitor profile, the items' counters. */
export function createDcm(ctx: Pick<AppContext, 'db' | 'clock' | 'log'>): DcmHooks {
  // Rules built once per revision (the revision changes whenever they do).
  const built = new Map<string, { rev: string; rules: DcmRule[]; keys: string[]; global: number }>();

  const rulesFor = async (domain: DcmDomain) => {
    const rev = await q.rulesRevision(ctx.db, domain.uuid, domain.geroValidate);
    if (!rev) return { rev: null, rules: [] as DcmRule[], keys: [] as string[], global: 0 };
    const hit = built.get(domain.uuid);
    if (hit?.rev === rev) return hit;
    const now = ctx.clock.now();
    const rows = await q.activeItems(ctx.db, domain.uuid);
    const rules = rows.flatMap((row) => {
      try {
        const rule = toDcmRule(row, domain.geroValidate, now);
        return rule ? [rule] : [];
      } catch (err) {
        ctx.log.warn({ err, momentum: row.uuid }, 'item do GCD ignorado: blocos inválidos');
        return [];
      }
    });
    // The domain's global control group matters here only to the items with an A/B test (globalControl).
    const global = rules.some((r) => r.x) ? Math.max(0, ...rows.map((r) => Number(r.control_group_percent) || 0)) : 0;
    const entry = { rev, rules, keys: attributeKeysOf(rules), global };
    if (built.size > 10_000) built.clear();
    built.set(domain.uuid, entry);
    return entry;
  };

  return {
    revision: (domain) => q.rulesRevision(ctx.db, domain.uuid, domain.geroValidate),
    rules: async (domain) => {
      const { rev, rules } = await rulesFor(domain);
      return { rev, rules };
    },
    /**
     * The visitor's stored attributes (only the keys the filters read), overlaid with what this request tells
     * (device, place, language), as the person will be once this page view is stored. A visitor not stored yet is
     * judged on the request alone.
     */
    async visitorProfile(domain, visitorId, fromRequest) {
      const { keys } = await rulesFor(domain);
      if (keys.length === 0) return {};
      const stored = await q.visitorAttributes(ctx.db, domain.uuid, visitorId, keys);
      const profile: Record<string, unknown> = { ...(stored ?? {}) };
      for (const k of keys) if (fromRequest[k] !== undefined) profile[k] = fromRequest[k];
      if (!stored && keys.includes('createdAt')) profile.createdAt = ctx.clock.now().toISOString();
      return profile;
    },
    /**
     * Whether the visitor's person is in the domain's global control group, drawn as the engine draws it (the person's
     * uuid), so the items with an A/B test hold out the same persons as every momentum. A visitor not stored yet has
     * no person: not held out on that first page (from the next one on, their person decides).
     */
    async globalControl(domain, visitorId) {
      const { global } = await rulesFor(domain);
      if (!global) return false;
      const person = await q.visitorPersonUuid(ctx.db, domain.uuid, visitorId);
      return person !== null && inGlobalControl(person, domain.uuid, global);
    },
    async stats(companyUuid, domainUuid) {
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
    },
  };
}
