/*
 * Brazil's national holidays, computed (no table to keep up to date): the fixed dates and the moveable ones counted
 * from Easter Sunday (Carnaval 48 and 47 days before it, Sexta-feira Santa 2 days before, Corpus Christi 60 days
 * after). Carnaval and Corpus Christi are "pontos facultativos" in the federal calendar, yet businesses plan around
 * them as holidays, so they are listed. Zod-free and pure: the server, the engine and the dashboard use it.
 */

export interface Holiday {
  /** YYYY-MM-DD. */
  date: string;
  name: string;
}

export const MIN_HOLIDAY_YEAR = 1900;
export const MAX_HOLIDAY_YEAR = 2199;

const FIXED: readonly [month: number, day: number, name: string, since?: number][] = [
  [1, 1, 'Confraternização Universal'],
  [4, 21, 'Tiradentes'],
  [5, 1, 'Dia do Trabalhador'],
  [9, 7, 'Independência do Brasil'],
  [10, 12, 'Nossa Senhora Aparecida'],
  [11, 2, 'Finados'],
  [11, 15, 'Proclamação da República'],
  // Lei 14.759/2023 made it national from 2024 on; before that it was a state or city holiday.
  [11, 20, 'Dia Nacional de Zumbi e da Consciência Negra', 2024],
  [12, 25, 'Natal'],
];

const MOVEABLE: readonly [daysFromEaster: number, name: string][] = [
  [-48, 'Carnaval (segunda-feira)'],
  [-47, 'Carnaval (terça-feira)'],
  [-2, 'Sexta-feira Santa'],
  [60, 'Corpus Christi'],
];

/** Easter Sunday of a Gregorian year (the anonymous algorithm of Meeus, Jones and Butcher), as a UTC midnight. */
export function easterSunday(year: number): Date {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return new Date(Date.UTC(year, month - 1, day));
}

const ymd = (d: Date) => d.toISOString().slice(0, 10);
const pad = (n: number) => String(n).padStart(2, '0');

/** The national holidays of `year`, in date order. */
export function brazilianHolidays(year: number): Holiday[] {
  const easter = easterSunday(year).getTime();
  const out: Holiday[] = [
    ...FIXED.filter(([, , , since]) => since === undefined || year >= since).map(([m, d, name]) => ({
      date: `${year}-${pad(m)}-${pad(d)}`,
      name,
    })),
    ...MOVEABLE.map(([offset, name]) => ({ date: ymd(new Date(easter + offset * 86_400_000)), name })),
  ];
  return out.sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0));
}

const cache = new Map<number, Set<string>>();

/**
 * Whether a local date (YYYY-MM-DD) is a national holiday or one of the domain's own dates (`extra`: state and
 * city holidays, YYYY-MM-DD).
 */
export function isHoliday(date: string, extra: readonly string[] = []): boolean {
  if (extra.includes(date)) return true;
  const year = Number(date.slice(0, 4));
  let dates = cache.get(year);
  if (!dates) {
    dates = new Set(brazilianHolidays(year).map((h) => h.date));
    cache.set(year, dates);
  }
  return dates.has(date);
}

/** `date` itself when it is not a holiday, else the next day that is not one (YYYY-MM-DD). */
export function nextNonHoliday(date: string, extra: readonly string[] = []): string {
  let at = new Date(`${date}T00:00:00Z`);
  for (let k = 0; k < 366 && isHoliday(ymd(at), extra); k++) at = new Date(at.getTime() + 86_400_000);
  return ymd(at);
}
