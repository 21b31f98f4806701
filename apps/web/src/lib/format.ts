import dayjs from 'dayjs';

export const formatDate = (value: string | Date | number) => dayjs(value).format('DD/MM/YYYY');
export const formatTime = (value: string | Date | number) => dayjs(value).format('HH:mm');
export const formatDateTime = (value: string | Date | number) => dayjs(value).format('DD/MM/YYYY HH:mm');

const integer = new Intl.NumberFormat('pt-BR');
export const formatCount = (value: number) => integer.format(value);

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
/** 'R$ 1.234,56' (Intl puts a no-break space after R$; a plain space reads and copies the same everywhere). */
export const formatMoney = (value: number) => brl.format(value).replace(/\s/u, ' ');

const oneDecimal = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** 12.5 → '12,5%'. */
export const formatPercent = (value: number) => `${oneDecimal.format(value)}%`;

/** A calendar day 'YYYY-MM-DD' → 'DD/MM/YYYY', without passing through a time zone. */
export const formatDay = (day: string) => {
  const [y, m, d] = day.split('-');
  return y && m && d ? `${d}/${m}/${y}` : day;
};

/** A calendar day 'YYYY-MM-DD' → 'DD/MM' (chart axes). */
export const formatShortDay = (day: string) => formatDay(day).slice(0, 5);

/** Change of `count` against `previous` in percent, one decimal; null when there is no base to compare with. */
export const percentChange = (count: number, previous: number): number | null =>
  previous > 0 ? Math.round(((count - previous) / previous) * 1000) / 10 : null;

/** 12.5 → '+12,5%', -3 → '−3,0%', 0 → '0,0%'. */
export const formatSignedPercent = (value: number) =>
  value > 0 ? `+${formatPercent(value)}` : value < 0 ? `−${formatPercent(-value)}` : formatPercent(0);

/** The calendar day of an instant in a time zone, 'YYYY-MM-DD'. */
export const dayInZone = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);

const relative = new Intl.RelativeTimeFormat('pt-BR', { numeric: 'auto' });
/** 'agora', 'há 5 minutos', 'há 3 horas', 'ontem', 'há 12 dias' (pt-BR, from the browser's Intl). */
export function formatRelative(value: string | Date | number, now = Date.now()) {
  const seconds = Math.round((new Date(value).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'agora';
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86_400), 'day');
}
