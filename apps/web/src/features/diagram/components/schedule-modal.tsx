import { momentumMessages as mm } from '@impeto/shared';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { fromZonedInput, nextQuarterInput, nowZonedInput } from '../../blocks/index.ts';
import type { DiagramKind } from '../graph.ts';

export const scheduleTitle = (kind: DiagramKind) => (kind === 'campaign' ? 'Agendar campanha' : 'Agendar momentum');

export interface ScheduleModalProps {
  kind: DiagramKind;
  opened: boolean;
  onClose: () => void;
  loading?: boolean;
  /** Receives the ISO instant ending .000Z. */
  onSchedule: (iso: string) => void;
}

/** 'Agendar momentum/campanha': dd/MM/yyyy HH:mm, minimum now, 15-minute steps (spec doc 2 §2.4). */
export function ScheduleModal({ kind, opened, onClose, loading, onSchedule }: ScheduleModalProps) {
  const [value, setValue] = useState(nextQuarterInput());
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!value) return setError(mm.scheduleRequired);
    const iso = fromZonedInput(value);
    if (dayjs(iso).isBefore(dayjs())) return setError(mm.schedulePast);
    setError(null);
    onSchedule(iso);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={scheduleTitle(kind)} size="sm" zIndex={400}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          O envio começa automaticamente na data e hora escolhidas (horário de Brasília).
        </Text>
        <DateTimePicker
          label="Data e hora"
          placeholder="dd/mm/aaaa hh:mm"
          valueFormat="DD/MM/YYYY HH:mm"
          minDate={nowZonedInput()}
          timePickerProps={{ minutesStep: 15 }}
          value={value || null}
          onChange={(v) => setValue(v ? String(v) : '')}
          leftSection={<IconCalendarEvent size={16} />}
          error={error}
          popoverProps={{ withinPortal: true, zIndex: 410 }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancelar
          </Button>
          <Button onClick={submit} loading={loading}>
            Agendar
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
