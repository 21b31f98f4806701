import { z } from '../zod.ts';

/*
 * Timing options (issue #27). On the domain: quiet hours and its own holidays (the time zone is domain.schema.ts's).
 * Beside `momentums` in a momentum or campaign body: throttle, local-time send, best time, holidays, the worktime's
 * zone. Every option is optional and absent means the spec's behaviour exactly (DESIGN.md §13).
 */

export const timingMessages = {
  timeInvalid: 'Informe um horário no formato HH:MM (00:00 a 23:59).',
  quietHoursInvalid: 'Informe o início e o fim do horário de silêncio no formato HH:MM, ou null para desligá-lo.',
  quietHoursEmpty: 'O início e o fim do horário de silêncio devem ser diferentes.',
  holidayInvalid: 'Informe cada feriado próprio como uma data válida no formato AAAA-MM-DD.',
  holidaysTooMany: 'Informe no máximo 200 feriados próprios.',
  throttleInvalid: 'O limite de envios por minuto deve ser um número inteiro de 1 a 1.000.000.',
  localTimeCampaignOnly: 'O envio no horário de cada visitante vale só para campanhas.',
  bestTimeCampaignOnly: 'O melhor horário de cada pessoa vale só para campanhas.',
  localTimeAndBestTime:
    'Escolha o envio às HH:MM no horário de cada visitante ou o melhor horário de cada pessoa, não os dois.',
  skipHolidaysScope: 'Não enviar em feriados vale para campanhas e momentums com gatilho de recorrência.',
  dcmNotSupported:
    'As opções de horário de envio não valem para conteúdos do GCD, que aparecem na página do visitante.',
  worktimeZoneInvalid: "O fuso do horário de funcionamento deve ser 'visitor' (do visitante) ou 'domain' (do domínio).",
} as const;

/** HH:MM, any minute of the day. */
export const clockTimeSchema = z
  .string({ error: timingMessages.timeInvalid })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, timingMessages.timeInvalid);

/** 22:00–08:00 runs overnight; start and end may not be equal (a window of the whole day would hold every message). */
export const quietHoursSchema = z
  .object({ start: clockTimeSchema, end: clockTimeSchema }, { error: timingMessages.quietHoursInvalid })
  .strict()
  .refine((q) => q.start !== q.end, { message: timingMessages.quietHoursEmpty, path: ['end'] })
  .nullable();
export type QuietHours = NonNullable<z.infer<typeof quietHoursSchema>>;

const isCalendarDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** The domain's own holidays (state, city): YYYY-MM-DD, stored sorted without repeats. */
export const extraHolidaysSchema = z
  .array(
    z
      .string({ error: timingMessages.holidayInvalid })
      .regex(/^\d{4}-\d{2}-\d{2}$/, timingMessages.holidayInvalid)
      .refine(isCalendarDate, timingMessages.holidayInvalid),
    { error: timingMessages.holidayInvalid },
  )
  .max(200, timingMessages.holidaysTooMany)
  .transform((dates) => [...new Set(dates)].sort());

/** The domain's timing settings (`PUT /api/domain/update/:uuid { domain: { quiet_hours, extra_holidays } }`). */
export const domainTimingShape = {
  quiet_hours: quietHoursSchema.optional(),
  extra_holidays: extraHolidaysSchema.optional(),
};

export const WORKTIME_ZONES = ['visitor', 'domain'] as const;
export type WorktimeZone = (typeof WORKTIME_ZONES)[number];

/** The options of a momentum or campaign body, flat beside `momentums`. */
export const momentumTimingShape = {
  throttle_per_minute: z
    .number({ error: timingMessages.throttleInvalid })
    .int(timingMessages.throttleInvalid)
    .min(1, timingMessages.throttleInvalid)
    .max(1_000_000, timingMessages.throttleInvalid)
    .nullable()
    .optional(),
  send_at_local_time: clockTimeSchema.nullable().optional(),
  best_time: z.boolean().nullable().optional(),
  skip_holidays: z.boolean().nullable().optional(),
  /** 'visitor': worktime and a recurrence's time read on each visitor's clock ('no horário do visitante'). */
  worktime_zone: z.enum(WORKTIME_ZONES, { error: timingMessages.worktimeZoneInvalid }).nullable().optional(),
};

/** What a momentum stores in `timing` and its item returns; only the options that are on (a type: stored as JSON). */
export type MomentumTiming = {
  throttle_per_minute?: number;
  send_at_local_time?: string;
  best_time?: true;
  skip_holidays?: true;
  worktime_zone?: WorktimeZone;
};

type TimingInput = { [K in keyof typeof momentumTimingShape]?: z.infer<(typeof momentumTimingShape)[K]> };

/** The options that are on (false, null and absent are the spec's behaviour); null when none is. */
export function pickTiming(body: TimingInput): MomentumTiming | null {
  const out: MomentumTiming = {};
  if (body.throttle_per_minute) out.throttle_per_minute = body.throttle_per_minute;
  if (body.send_at_local_time) out.send_at_local_time = body.send_at_local_time;
  if (body.best_time) out.best_time = true;
  if (body.skip_holidays) out.skip_holidays = true;
  if (body.worktime_zone === 'visitor') out.worktime_zone = 'visitor';
  return Object.keys(out).length ? out : null;
}

const hasRecurrenceTrigger = (blocks: readonly { type: string; values: unknown[] }[]) =>
  blocks.some((b) => b.type === 'trigger' && (b.values[0] as { filter?: string } | undefined)?.filter === 'recurrence');

/** Which options fit which item: local time and best time are campaigns' (once each), holidays need a calendar. */
export function refineTimingScope(
  body: TimingInput & { type: string; momentums: readonly { type: string; values: unknown[] }[] },
  ctx: z.RefinementCtx,
) {
  if (body.type === 'dcm') {
    if (pickTiming(body)) ctx.addIssue({ code: 'custom', message: timingMessages.dcmNotSupported, path: [] });
    return;
  }
  const campaign = body.type === 'campaign';
  if (body.send_at_local_time && !campaign)
    ctx.addIssue({ code: 'custom', message: timingMessages.localTimeCampaignOnly, path: ['send_at_local_time'] });
  if (body.best_time && !campaign)
    ctx.addIssue({ code: 'custom', message: timingMessages.bestTimeCampaignOnly, path: ['best_time'] });
  if (body.send_at_local_time && body.best_time)
    ctx.addIssue({ code: 'custom', message: timingMessages.localTimeAndBestTime, path: ['best_time'] });
  if (body.skip_holidays && !campaign && !hasRecurrenceTrigger(body.momentums))
    ctx.addIssue({ code: 'custom', message: timingMessages.skipHolidaysScope, path: ['skip_holidays'] });
}
