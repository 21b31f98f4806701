import type { AnalyticsRange } from '@impeto/shared';
import { ANALYTICS_MAX_DAYS, analyticsMessages, daysInRange } from '@impeto/shared/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { type Ref, useEffect, useState } from 'react';
import { shiftDay, todayInZone } from '../range.ts';

type Value = DatesRangeValue<string>;

function presets(today: string): { value: [string, string]; label: string }[] {
  const [y, m] = today.split('-');
  const monthStart = `${y}-${m}-01`;
  const lastMonthEnd = shiftDay(monthStart, -1);
  return [
    { value: [today, today], label: 'Hoje' },
    { value: [shiftDay(today, -1), shiftDay(today, -1)], label: 'Ontem' },
    { value: [shiftDay(today, -6), today], label: 'Últimos 7 dias' },
    { value: [shiftDay(today, -29), today], label: 'Últimos 30 dias' },
    { value: [shiftDay(today, -89), today], label: 'Últimos 90 dias' },
    { value: [monthStart, today], label: 'Este mês' },
    { value: [`${lastMonthEnd.slice(0, 8)}01`, lastMonthEnd], label: 'Mês passado' },
  ];
}

/** The dashboard's period: DD/MM/YYYY in pt-BR, days of America/Sao_Paulo, up to today and 366 days long. */
export default function RangePickerField({
  value,
  onChange,
  ref,
}: {
  value: AnalyticsRange;
  onChange: (range: AnalyticsRange) => void;
  ref?: Ref<HTMLButtonElement>;
}) {
  const [draft, setDraft] = useState<Value>([value.start, value.end]);
  const [error, setError] = useState<string | null>(null);
  const today = todayInZone();

  useEffect(() => {
    setDraft([value.start, value.end]);
  }, [value.start, value.end]);

  const change = (next: Value) => {
    setDraft(next);
    const [start, end] = next;
    if (!start || !end) return;
    if (daysInRange(start, end) > ANALYTICS_MAX_DAYS) {
      setError(analyticsMessages.rangeTooLong);
      return;
    }
    setError(null);
    if (start !== value.start || end !== value.end) onChange({ start, end });
  };

  return (
    <DatePickerInput
      ref={ref}
      type="range"
      aria-label="Período"
      value={draft}
      onChange={change}
      valueFormat="DD/MM/YYYY"
      labelSeparator="–"
      allowSingleDateInRange
      maxDate={today}
      presets={presets(today)}
      leftSection={<IconCalendar size={16} />}
      miw={230}
      error={error}
      onDropdownClose={() => {
        // A half-picked range falls back to the one in use.
        if (!draft[0] || !draft[1]) setDraft([value.start, value.end]);
      }}
      popoverProps={{ position: 'bottom-end' }}
    />
  );
}
