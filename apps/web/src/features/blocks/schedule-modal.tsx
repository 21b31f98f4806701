import { isOnQuarterHour, momentumMessages as mm } from '@impeto/shared';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { IconCalendarEvent } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { fromZonedInput, nextQuarterInput, snapToQuarter } from './zoned-time.ts';

export interface ScheduleModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  loading?: boolean;
  /** Above other overlays (the diagram's flowboard and panel). */
  zIndex?: number;
  /** Receives the ISO instant (ending .000Z). */
  onSchedule: (iso: string) => void;
}

/** Agendamento for the v2 form and the diagram: minimum now, 15-minute steps, dd/MM/yyyy - HH:mm (spec doc 2 §2.3). */
export function ScheduleModal({ opened, onClose, title, loading, zIndex, onSchedule }: ScheduleModalProps) {
  const [value, setValue] = useState<string>(nextQuarterInput());
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!value) return setError(mm.scheduleRequired);
    const iso = fromZonedInput(value);
    if (dayjs(iso).isBefore(dayjs())) return setError(mm.schedulePast);
    if (!isOnQuarterHour(iso)) return setError(mm.scheduleGrid);
    setError(null);
    onSchedule(iso);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="sm" zIndex={zIndex}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          O envio começa automaticamente na data e hora escolhidas (horário de Brasília).
        </Text>
        <DateTimePicker
          label="Data e hora"
          placeholder="dd/mm/aaaa - hh:mm"
          valueFormat="DD/MM/YYYY - HH:mm"
          minDate={nextQuarterInput()}
          timePickerProps={{ minutesStep: 15 }}
          value={value || null}
          onChange={(v) => setValue(v ? snapToQuarter(String(v)) : '')}
          leftSection={<IconCalendarEvent size={16} />}
          error={error}
          popoverProps={{ withinPortal: true, zIndex: zIndex ? zIndex + 10 : undefined }}
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
