import { attributeKey, FILTER_KEYS, filterKeyInfo, msg } from '@impeto/shared';
import { and, eq, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { domains, eventCategories, persons } from '../../db/schema.ts';
import type { AppContext } from '../../lib/context.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { compileFilter } from '../../lib/filter/compile-filter.ts';
import { requireCompanyDomain } from '../../lib/tenancy.ts';
import { countryName, flagOf, stateInitials } from './brazil.ts';

const PAGE_SIZE = 50;
const SEARCH_LIMIT = 50;
const LABEL_SCAN_LIMIT = 2000;

/** Searches ignore case and accents: 'sao' finds São Paulo, 'BRA' finds Brasil. */
const fold = (text: string) =>
  text
    .trim()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
const ACCENTED = 'áàâãäåéèêëíìîïóòôõöúùûüçñý';
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucny';

export async function listFilters(ctx: AppContext, companyUuid: string, domainUuid: string) {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  return FILTER_KEYS.map(({ key, name, mask }) => ({ key, name, mask }));
}

const DEVICE_NAMES: Record<string, string> = { desktop: 'Computador', mobile: 'Celular', tablet: 'Tablet', tv: 'TV' };
const DEVICE_EMOJI: Record<string, string> = { desktop: '💻', mobile: '📱', tablet: '📱', tv: '📺' };

/** Distinct values of one attribute across the domain's persons, most frequent first (the filter pickers). */
export async function searchFilterValues(
  ctx: AppContext,
  companyUuid: string,
  domainUuid: string,
  filterKey: string,
  search?: string,
) {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const info = filterKeyInfo(filterKey);
  if (!info || info.key === 'all') throw notFound(msg.common.notFound, 'FILTER_NOT_FOUND');
  if (info.kind === 'boolean') {
    return [
      { name: 'Sim', value: 'Sim', emoji: '✅' },
      { name: 'Não', value: 'Não', emoji: '❌' },
    ];
  }
  const key = attributeKey(info.key);
  const wanted = fold(search ?? '');
  // Countries and states are found by their shown name, code and initials ('Bra', 'br', 'São'), which the stored
  // value (BR, Sao Paulo) does not hold: their few distinct values are matched here instead of in SQL.
  const byLabel = key === 'client.location.country' || key === 'client.location.region';
  const like = wanted && !byLabel ? `%${wanted.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const rows = await queryRows<{ value: string; n: number }>(
    ctx.db,
    sql`
      SELECT v.value, count(*)::int AS n
      FROM persons p,
        jsonb_array_elements_text(
          CASE jsonb_typeof(p.attributes -> ${key}) WHEN 'array' THEN p.attributes -> ${key}
          ELSE jsonb_build_array(p.attributes -> ${key}) END
        ) AS v(value)
      WHERE p.domain_uuid = ${domainUuid}::uuid AND v.value IS NOT NULL
        ${like ? sql`AND translate(lower(v.value), ${ACCENTED}, ${PLAIN}) LIKE ${like}` : sql``}
      GROUP BY v.value
      ORDER BY n DESC, v.value
      LIMIT ${byLabel && wanted ? LABEL_SCAN_LIMIT : SEARCH_LIMIT}`,
  );
  const options = rows.map(({ value }) => {
    if (key === 'client.location.country') {
      return { name: countryName(value), value, emoji: flagOf(value), code: value, initials: value, state: null };
    }
    if (key === 'client.location.region') {
      const initials = stateInitials(value) ?? null;
      return { name: value, value, emoji: '📍', code: initials, initials, state: value };
    }
    if (key === 'client.device.name')
      return { name: DEVICE_NAMES[value] ?? value, value, emoji: DEVICE_EMOJI[value] ?? '🖥️' };
    return { name: value, value, emoji: '' };
  });
  if (!byLabel || !wanted) return options;
  return options
    .filter((o) => [o.name, o.value, o.code, o.initials].some((field) => field && fold(field).includes(wanted)))
    .slice(0, SEARCH_LIMIT);
}

/** Share of the domain's base that the momentum's filter block selects, 0–100 with one decimal. */
/** Bases up to this size are counted exactly; larger ones from a uniform random sample of about SAMPLE_TARGET. */
const EXACT_LIMIT = 60_000;
const SAMPLE_TARGET = 25_000;

/**
 * The share of the domain's persons the filter selects. Exact on bases up to 60,000 persons; above that an
 * estimate from the persons whose random sample_key (0–999) falls under a cut sized for ~25,000 persons —
 * a uniform sample, ±0.6 percentage points at 95% — so the figure stays interactive on millions of
 * persons. Campaign fan-out always applies the exact filter.
 */
export async function peopleImpacted(ctx: AppContext, companyUuid: string, domainUuid: string, blocks: unknown[]) {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const filterBlock = blocks.find((b) => (b as { type?: unknown })?.type === 'filter');
  const filter = compileFilter(filterBlock ?? null);
  const [probe] = await queryRows<{ n: number }>(
    ctx.db,
    sql`SELECT count(*)::int AS n FROM persons WHERE domain_uuid = ${domainUuid}::uuid AND sample_key < 10`,
  );
  const estimate = Number(probe?.n ?? 0) * 100;
  const cut = estimate > EXACT_LIMIT ? Math.min(1000, Math.ceil((1000 * SAMPLE_TARGET) / estimate)) : 1000;
  const sample = cut < 1000 ? sql`AND persons.sample_key < ${cut}` : sql``;
  // One pass gives both counts. JIT only adds compile time to this scan (the filter is function calls).
  const [row] = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL jit = off`);
    return queryRows<{ total: number; hit: number }>(
      tx as unknown as Db,
      sql`SELECT count(*)::int AS total, (count(*) FILTER (WHERE ${filter.where}))::int AS hit
          FROM persons WHERE persons.domain_uuid = ${domainUuid}::uuid ${sample}`,
    );
  });
  const scale = 1000 / cut;
  const total = Math.round((row?.total ?? 0) * scale);
  const hit = Math.round((row?.hit ?? 0) * scale);
  return {
    percentualAtingido: total === 0 ? 0 : Math.round((hit / total) * 1000) / 10,
    total,
    impacted: hit,
    estimated: cut < 1000,
  };
}

export async function listEventCategories(ctx: AppContext, companyUuid: string, domainUuid: string) {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  const rows = await ctx.db
    .select({ uuid: eventCategories.uuid, name: eventCategories.name, seen: eventCategories.seenCount })
    .from(eventCategories)
    .where(eq(eventCategories.domainUuid, domainUuid))
    .orderBy(eventCategories.name);
  return rows.map((r) => ({ uuid: r.uuid, parent_category: r.name, seen_count: r.seen }));
}

/** A category of the caller's company, or 404. */
async function requireCategory(ctx: AppContext, companyUuid: string, categoryUuid: string) {
  const [row] = await ctx.db
    .select({ uuid: eventCategories.uuid })
    .from(eventCategories)
    .innerJoin(domains, eq(domains.uuid, eventCategories.domainUuid))
    .where(and(eq(eventCategories.uuid, categoryUuid), eq(domains.companyUuid, companyUuid)))
    .limit(1);
  if (!row) throw notFound(msg.common.notFound, 'CATEGORY_NOT_FOUND');
}

export async function listEventKeys(ctx: AppContext, companyUuid: string, categoryUuid: string) {
  await requireCategory(ctx, companyUuid, categoryUuid);
  const rows = await queryRows<{ key: string; n: number }>(
    ctx.db,
    sql`SELECT key, sum(seen_count)::int AS n FROM event_catalog WHERE category_uuid = ${categoryUuid}::uuid GROUP BY key ORDER BY key`,
  );
  return rows.map((r) => ({ key: r.key, name: r.key, seen_count: r.n }));
}

export async function listEventValues(ctx: AppContext, companyUuid: string, categoryUuid: string, key: string) {
  await requireCategory(ctx, companyUuid, categoryUuid);
  const rows = await queryRows<{ value: string; n: number }>(
    ctx.db,
    sql`SELECT value, seen_count::int AS n FROM event_catalog
        WHERE category_uuid = ${categoryUuid}::uuid AND key = ${key} ORDER BY seen_count DESC, value LIMIT 200`,
  );
  return rows.map((r) => ({ value: r.value, name: r.value, seen_count: r.n }));
}

export async function listPersons(ctx: AppContext, companyUuid: string, domainUuid: string, page: number) {
  await requireCompanyDomain(ctx, companyUuid, domainUuid);
  if (page < 1 || page > 100_000) throw new AppError('INVALID_PAGE', 400, msg.common.invalidInput);
  const rows = await ctx.db
    .select()
    .from(persons)
    .where(eq(persons.domainUuid, domainUuid))
    .orderBy(sql`${persons.lastSeen} DESC`)
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE);
  return rows.map((p) => ({
    uuid: p.uuid,
    visitor_id: p.visitorId,
    email: p.email,
    phone: p.phone,
    name: p.name,
    push_status: p.pushStatus,
    first_seen: p.firstSeen.toISOString(),
    last_seen: p.lastSeen.toISOString(),
    user_stored_data: p.attributes,
  }));
}
