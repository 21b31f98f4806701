/*
 * Analytics constants without zod: the dashboard's first load (`@impeto/shared/core`) reads them without
 * pulling zod into `/` (analytics.schema.ts re-exports them for everyone else).
 */
export const ANALYTICS_MAX_DAYS = 366;

export const analyticsMessages = {
  loaded: 'Dados carregados.',
  mostViewedLoaded: 'Most viewed pages have been loaded.',
  dateInvalid: 'Informe a data no formato AAAA-MM-DD.',
  endBeforeStart: 'A data final deve ser igual ou posterior à data inicial.',
  rangeTooLong: `O período pode ter no máximo ${ANALYTICS_MAX_DAYS} dias.`,
  periodInvalid: `Informe um período entre 1 e ${ANALYTICS_MAX_DAYS} dias.`,
  limitInvalid: 'Informe um limite entre 1 e 100.',
  momentumNotFound: 'Momentum não encontrado.',
  categoryNotFound: 'Categoria de evento não encontrada.',
  cartRuleInvalid: 'Informe um trecho de endereço de até 200 caracteres, ou deixe em branco.',
  settingsSaved: 'Configurações de conversão salvas com sucesso!',
} as const;

/** Days from start to end, both included. */
export const daysInRange = (start: string, end: string) =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

/** Attribution windows (README): the person's latest clicked delivery within 7 days, else viewed within 1 day. */
export const ATTRIBUTION_WINDOWS = { clickedDays: 7, viewedDays: 1 } as const;

/** A real calendar day written YYYY-MM-DD (what analyticsRangeSchema's days accept). */
export const isIsoDay = (s: unknown): s is string => {
  if (typeof s !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** The range rule of analyticsRangeSchema, for code that must not load zod: both days valid, end ≥ start, ≤ 366 days. */
export const isAnalyticsRange = (start: unknown, end: unknown): boolean =>
  isIsoDay(start) && isIsoDay(end) && end >= start && daysInRange(start, end) <= ANALYTICS_MAX_DAYS;
