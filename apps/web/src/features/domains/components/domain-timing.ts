import { type DomainItem, extraHolidaysSchema, type QuietHours, quietHoursSchema } from '@impeto/shared';

/** The edit modal's quiet-hours and own-holiday fields (issue #27), as the form holds them. */
export interface DomainTimingFields {
  quiet_on: boolean;
  quiet_start: string;
  quiet_end: string;
  /** dd/mm/aaaa, as typed. */
  holidays: string[];
}

const toDisplay = (ymd: string) => `${ymd.slice(8, 10)}/${ymd.slice(5, 7)}/${ymd.slice(0, 4)}`;
/** dd/mm/aaaa (or d/m/aaaa) → YYYY-MM-DD; anything else as typed, for the schema to refuse. */
const toIso = (typed: string) => {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(typed.trim());
  return m ? `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : typed.trim();
};

export const timingFieldsOf = (domain: DomainItem): DomainTimingFields => ({
  quiet_on: Boolean(domain.quiet_hours),
  quiet_start: domain.quiet_hours?.start ?? '22:00',
  quiet_end: domain.quiet_hours?.end ?? '08:00',
  holidays: (domain.extra_holidays ?? []).map(toDisplay),
});

export interface DomainTimingChange {
  quiet_hours?: QuietHours | null;
  extra_holidays?: string[];
}

/** The fields' errors (pt-BR, from the shared schemas), or what changed from the domain as saved. */
export function readTimingFields(
  values: DomainTimingFields,
  domain: DomainItem,
): { errors: Record<string, string> } | { change: DomainTimingChange } {
  const errors: Record<string, string> = {};
  const quiet = values.quiet_on
    ? quietHoursSchema.safeParse({ start: values.quiet_start, end: values.quiet_end })
    : ({ success: true, data: null } as const);
  if (!quiet.success)
    for (const issue of quiet.error.issues)
      errors[issue.path[0] === 'start' ? 'quiet_start' : 'quiet_end'] ??= issue.message;
  const holidays = extraHolidaysSchema.safeParse(values.holidays.map(toIso));
  if (!holidays.success) errors.holidays = holidays.error.issues[0]?.message ?? '';
  if (!quiet.success || !holidays.success) return { errors };
  const change: DomainTimingChange = {};
  if (JSON.stringify(quiet.data) !== JSON.stringify(domain.quiet_hours ?? null)) change.quiet_hours = quiet.data;
  if (JSON.stringify(holidays.data) !== JSON.stringify(domain.extra_holidays ?? []))
    change.extra_holidays = holidays.data;
  return { change };
}
