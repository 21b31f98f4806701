import { z } from '../zod.ts';
import { MAX_HOLIDAY_YEAR, MIN_HOLIDAY_YEAR } from './holidays.ts';

export const calendarMessages = {
  yearInvalid: `Informe o ano com quatro dígitos, de ${MIN_HOLIDAY_YEAR} a ${MAX_HOLIDAY_YEAR} (ex.: 2026).`,
  holidaysLoaded: 'Feriados nacionais carregados.',
} as const;

/** `GET /api/calendar/holidays?year=YYYY` (public); without `year`, the current year in São Paulo. */
export const holidaysQuerySchema = z.object({
  year: z
    .string({ error: calendarMessages.yearInvalid })
    .regex(/^\d{4}$/, calendarMessages.yearInvalid)
    .transform(Number)
    .refine((y) => y >= MIN_HOLIDAY_YEAR && y <= MAX_HOLIDAY_YEAR, calendarMessages.yearInvalid)
    .optional(),
});

export const holidaySchema = z.object({ date: z.string(), name: z.string() });
