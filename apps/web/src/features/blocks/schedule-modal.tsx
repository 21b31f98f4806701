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
  /** A picked time off the grid is moved to the next quarter: the user is told, never silently. */
  const [moved, setMoved] = useState<string | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const pick = (picked: string) => {
    const snapped = snapToQuarter(picked);
    const before = dayjs(picked);
    const after = dayjs(snapped);
    setMoved(
      picked && before.isValid() && before.format('HH:mm') !== after.format('HH:mm')
        ? `${before.format('HH:mm')} não está na grade de 15 minutos: o horário ficou ${after.format('HH:mm')}${
            before.isSame(after, 'day') ? '' : ` de ${after.format('DD/MM/YYYY')}`
          }.`
        : null,
    );
    setAcknowledged(false);
    setValue(snapped);
  };
  const submit = () => {
    if (!value) return setError(mm.scheduleRequired);
    if (snapToQuarter(value) !== value) return pick(value);
    // The time was just moved to the grid: this Agendar shows the note; the next one schedules.
    if (moved && !acknowledged) return setAcknowledged(true);
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
          // The day only: a minimum with a time makes Mantine's time fields drop a typed minute (':20' became ':00').
          minDate={nextQuarterInput().slice(0, 10)}
          description="Horários de 15 em 15 minutos (:00, :15, :30 ou :45)."
          timePickerProps={{ minutesStep: 15, hoursInputLabel: 'Horas', minutesInputLabel: 'Minutos' }}
          submitButtonProps={{ 'aria-label': 'Confirmar data e hora' }}
          value={value || null}
          // Snapped when the picker closes, not on every keystroke: snapping ':2' to ':15' while '20' was being typed
          // turned the next digit into ':00'.
          onChange={(v) => setValue(v ? String(v) : '')}
          onDropdownClose={() => pick(value)}
          leftSection={<IconCalendarEvent size={16} />}
          error={error}
          popoverProps={{ withinPortal: true, zIndex: zIndex ? zIndex + 10 : undefined }}
        />
        {moved ? (
          <Text size="sm" c="dark.6" role="status" aria-label="Ajuste do horário">
            {moved}
          </Text>
        ) : null}
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
