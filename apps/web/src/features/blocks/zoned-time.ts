import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Every date is shown and picked in the user's zone (READINGS A-30). */
export const APP_TIME_ZONE = 'America/Sao_Paulo';

export const inAppZone = (value: string | Date | number) => dayjs(value).tz(APP_TIME_ZONE);

/** '31/12/2026 18:30' in America/Sao_Paulo. */
export const formatZoned = (value: string | Date | number, format = 'DD/MM/YYYY HH:mm') =>
  inAppZone(value).format(format);

/** A picker's wall-clock 'YYYY-MM-DD HH:mm:ss' in America/Sao_Paulo → ISO instant ending .000Z. */
export const fromZonedInput = (value: string) => dayjs.tz(value, APP_TIME_ZONE).toISOString();

/** ISO instant → the picker's 'YYYY-MM-DD HH:mm:ss' in America/Sao_Paulo. */
export const toZonedInput = (iso: string) => inAppZone(iso).format('YYYY-MM-DD HH:mm:ss');

/** Now as a picker value, rounded up to the next 15 minutes (the pickers' step). */
export function nextQuarterInput(now = new Date()) {
  const zoned = inAppZone(now);
  const minutes = Math.ceil((zoned.minute() + 1) / 15) * 15;
  return zoned.startOf('hour').add(minutes, 'minute').format('YYYY-MM-DD HH:mm:ss');
}

export const nowZonedInput = (now = new Date()) => inAppZone(now).format('YYYY-MM-DD HH:mm:ss');

/**
 * A picker value on the 15-minute grid (spec doc 2 §5, §9): typed minutes such as :07 move up to the next quarter,
 * seconds are dropped. Empty stays empty.
 */
export function snapToQuarter(value: string): string {
  if (!value) return '';
  const at = dayjs(value);
  if (!at.isValid()) return value;
  const base = at.second(0).millisecond(0);
  const over = base.minute() % 15;
  return (over ? base.add(15 - over, 'minute') : base).format('YYYY-MM-DD HH:mm:ss');
}
