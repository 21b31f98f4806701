import { Chip, Group, Input, Select, SimpleGrid, Stack } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { type FieldErrors, WORKTIME_OPTIONS, type WorktimeState } from './block-state.ts';

export const WEEKDAY_SHORT = ['Domingo', 'Segunda', 'Terça', 'Quarta', 'Quinta', 'Sexta', 'Sábado'];

export interface WorktimeEditorProps {
  value: WorktimeState;
  onChange: (value: WorktimeState) => void;
  errors?: FieldErrors;
  disabled?: boolean;
}

/** Cronograma: weekdays 0–6 from Sunday and a window in ten-minute steps; all three or none (spec doc 2 §5). */
export function WorktimeEditor({ value, onChange, errors = {}, disabled }: WorktimeEditorProps) {
  return (
    <Stack gap="md">
      <Input.Wrapper label="Dias da semana" error={errors.weekdays}>
        <Chip.Group
          multiple
          value={value.weekdays.map(String)}
          onChange={(days) => onChange({ ...value, weekdays: days.map(Number).sort((a, b) => a - b) })}
        >
          <Group gap={6} mt={6}>
            {WEEKDAY_SHORT.map((label, i) => (
              <Chip key={label} value={String(i)} size="sm" variant="outline" disabled={disabled}>
                {label}
              </Chip>
            ))}
          </Group>
        </Chip.Group>
      </Input.Wrapper>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" maw={480}>
        <Select
          label="Início"
          placeholder="00:00"
          data={WORKTIME_OPTIONS}
          searchable
          clearable
          value={value.start_at || null}
          onChange={(start_at) => onChange({ ...value, start_at: start_at ?? '' })}
          leftSection={<IconClock size={16} />}
          error={errors.start_at}
          disabled={disabled}
        />
        <Select
          label="Fim"
          placeholder="23:50"
          data={WORKTIME_OPTIONS}
          searchable
          clearable
          value={value.stop_at || null}
          onChange={(stop_at) => onChange({ ...value, stop_at: stop_at ?? '' })}
          leftSection={<IconClock size={16} />}
          error={errors.stop_at}
          disabled={disabled}
        />
      </SimpleGrid>
    </Stack>
  );
}
