import { Stack, Switch } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import type { FieldErrors, FinishState } from './block-state.ts';
import { nextQuarterInput, snapToQuarter } from './zoned-time.ts';

export interface FinishEditorProps {
  value: FinishState;
  onChange: (value: FinishState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
}

/** Finalização: 'Finalizar por data', no earlier than now, in 15-minute steps (spec doc 2 §2.4, §5). */
export function FinishEditor({ value, onChange, errors = {}, disabled }: FinishEditorProps) {
  return (
    <Stack gap="md">
      <Switch
        label="Finalizar por data"
        description="O envio para automaticamente na data escolhida."
        checked={value.enabled}
        onChange={(e) => onChange({ enabled: e.currentTarget.checked, value: '' })}
        disabled={disabled}
      />
      {value.enabled ? (
        <DateTimePicker
          label="Data de finalização"
          placeholder="dd/mm/aaaa - hh:mm"
          valueFormat="DD/MM/YYYY - HH:mm"
          minDate={nextQuarterInput()}
          timePickerProps={{ minutesStep: 15 }}
          value={value.value || null}
          onChange={(v) => onChange({ enabled: true, value: v ? snapToQuarter(String(v)) : '' })}
          leftSection={<IconCalendarEvent size={16} />}
          error={errors.value ?? errors._}
          disabled={disabled}
          maw={320}
          clearable
        />
      ) : null}
    </Stack>
  );
}
