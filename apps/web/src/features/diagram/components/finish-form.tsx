import { Radio, Stack } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import { type FieldErrors, nextQuarterInput, snapToQuarter } from '../../blocks/index.ts';
import type { FinishFormState } from '../diagram-state.ts';

export interface FinishFormProps {
  value: FinishFormState;
  onChange: (value: FinishFormState) => void;
  errors?: FieldErrors;
  readOnly?: boolean;
}

/** A day picked without a time ends at the day's last quarter hour (the finish sits on the 15-minute grid). */
export const END_OF_DAY = '23:45';

/** Finalização: the single option 'Finalizar por data', no earlier than now, 15-minute steps (spec doc 2 §2.4). */
export function FinishForm({ value, onChange, errors = {}, readOnly }: FinishFormProps) {
  return (
    <Stack gap="sm">
      <Radio.Group label="Como finalizar" value="stop_momentum" readOnly>
        <Radio value="stop_momentum" label="Finalizar por data" mt={6} />
      </Radio.Group>
      <DateTimePicker
        label="Data de finalização"
        placeholder="dd/mm/aaaa - hh:mm"
        valueFormat="DD/MM/YYYY - HH:mm"
        minDate={nextQuarterInput()}
        description={readOnly ? undefined : `Sem horário escolhido, vale o fim do dia: ${END_OF_DAY}.`}
        timePickerProps={{ minutesStep: 15 }}
        defaultTimeValue={END_OF_DAY}
        value={value.value || null}
        onChange={(v) => onChange({ value: v ? snapToQuarter(String(v)) : '' })}
        leftSection={<IconCalendarEvent size={16} />}
        error={errors.value ?? errors._}
        readOnly={readOnly}
        clearable={!readOnly}
        withAsterisk
      />
    </Stack>
  );
}
