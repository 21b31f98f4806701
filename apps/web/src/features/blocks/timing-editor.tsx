import {
  clockTimeSchema,
  type MomentumItem,
  type MomentumTiming,
  type MomentumType,
  timingMessages,
} from '@impeto/shared';
import { Checkbox, NumberInput, Radio, Stack, Text } from '@mantine/core';
import { TimeInput } from '@mantine/dates';

/*
 * 'Horário de envio' (issue #27): throttle, local time or best time (campaigns), holidays (campaigns and
 * recurrences) and the worktime's clock. Each option sent only when on: absent, the item is the spec's.
 */

export type SendMoment = 'start' | 'local' | 'best';

export interface TimingState {
  /** 'Limite de envios por minuto': '' = no limit. */
  throttle: number | string;
  moment: SendMoment;
  localTime: string;
  skipHolidays: boolean;
  visitorWorktime: boolean;
}

export const emptyTiming = (): TimingState => ({
  throttle: '',
  moment: 'start',
  localTime: '10:00',
  skipHolidays: false,
  visitorWorktime: false,
});

export const timingFromItem = (item: MomentumItem): TimingState => ({
  throttle: item.throttle_per_minute ?? '',
  moment: item.send_at_local_time ? 'local' : item.best_time ? 'best' : 'start',
  localTime: item.send_at_local_time ?? '10:00',
  skipHolidays: item.skip_holidays === true,
  visitorWorktime: item.worktime_zone === 'visitor',
});

/** Whether 'Não enviar em feriados' applies: campaigns and recurrences run on a calendar. */
export const takesHolidays = (type: MomentumType, triggerFilter: string) =>
  type === 'campaign' || triggerFilter === 'recurrence';

export type TimingErrors = Partial<Record<'throttle' | 'localTime', string>>;

/** The options beside `momentums` (only those that are on), or the fields' pt-BR errors. */
export function checkTiming(
  s: TimingState,
  type: MomentumType,
  triggerFilter: string,
): { ok: true; timing: MomentumTiming } | { ok: false; errors: TimingErrors } {
  const errors: TimingErrors = {};
  const timing: MomentumTiming = {};
  if (s.throttle !== '') {
    const n = Number(s.throttle);
    if (!Number.isInteger(n) || n < 1 || n > 1_000_000) errors.throttle = timingMessages.throttleInvalid;
    else timing.throttle_per_minute = n;
  }
  if (type === 'campaign' && s.moment === 'local') {
    const t = clockTimeSchema.safeParse(s.localTime);
    if (!t.success) errors.localTime = timingMessages.timeInvalid;
    else timing.send_at_local_time = t.data;
  }
  if (type === 'campaign' && s.moment === 'best') timing.best_time = true;
  if (s.skipHolidays && takesHolidays(type, triggerFilter)) timing.skip_holidays = true;
  if (s.visitorWorktime) timing.worktime_zone = 'visitor';
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, timing };
}

/** The summary's lines for the options that are on (`triggerFilter`: the item's trigger, 'recurrence' or another). */
export function describeTiming(t: MomentumTiming, triggerFilter = ''): string[] {
  const lines: string[] = [];
  if (t.send_at_local_time)
    lines.push(`Às ${t.send_at_local_time} no horário de cada visitante (nas próximas 24 horas).`);
  if (t.best_time) lines.push('No melhor horário de cada pessoa (nas próximas 24 horas).');
  if (t.throttle_per_minute)
    lines.push(`No máximo ${t.throttle_per_minute.toLocaleString('pt-BR')} envios por minuto, espaçados por igual.`);
  if (t.skip_holidays) lines.push('Não envia em feriados: passa para o dia seguinte.');
  if (t.worktime_zone === 'visitor')
    lines.push(
      triggerFilter === 'recurrence'
        ? 'Recorrência e Cronograma no horário de cada visitante.'
        : 'Cronograma no horário do visitante.',
    );
  return lines;
}

export interface TimingEditorProps {
  type: MomentumType;
  triggerFilter: string;
  value: TimingState;
  onChange: (value: TimingState) => void;
  errors?: TimingErrors;
}

export function TimingEditor({ type, triggerFilter, value, onChange, errors = {} }: TimingEditorProps) {
  const set = <K extends keyof TimingState>(key: K, v: TimingState[K]) => onChange({ ...value, [key]: v });
  return (
    <Stack gap="md">
      {type === 'campaign' ? (
        <Radio.Group
          label="Quando enviar"
          value={value.moment}
          onChange={(moment) => set('moment', moment as SendMoment)}
        >
          <Stack gap={8} mt={6}>
            <Radio value="start" label="Assim que a campanha começar" />
            <Radio value="local" label="Enviar às HH:MM no horário de cada visitante" />
            {value.moment === 'local' ? (
              <TimeInput
                label="Horário do visitante"
                maw={180}
                ml={30}
                value={value.localTime}
                onChange={(e) => set('localTime', e.currentTarget.value)}
                error={errors.localTime}
              />
            ) : null}
            <Radio value="best" label="Melhor horário de cada pessoa" />
            {value.moment === 'best' ? (
              <Text size="xs" c="dimmed" ml={30}>
                Cada pessoa recebe nas próximas 24 horas, na hora em que mais visitou o site nos últimos 30 dias (sem
                histórico, na hora de mais movimento do domínio).
              </Text>
            ) : null}
          </Stack>
        </Radio.Group>
      ) : null}
      <NumberInput
        label="Limite de envios por minuto"
        description="Opcional: espalha os envios por igual nesse ritmo. Vazio: sem limite."
        placeholder="Sem limite"
        maw={260}
        min={1}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        value={value.throttle}
        onChange={(v) => set('throttle', v)}
        error={errors.throttle}
      />
      {takesHolidays(type, triggerFilter) ? (
        <Checkbox
          label="Não enviar em feriados"
          description="Feriados nacionais e os do domínio: o envio passa para o dia seguinte que não for feriado."
          checked={value.skipHolidays}
          onChange={(e) => set('skipHolidays', e.currentTarget.checked)}
        />
      ) : null}
      <Checkbox
        label={
          triggerFilter === 'recurrence'
            ? 'Recorrência e Cronograma no horário do visitante'
            : 'Cronograma no horário do visitante'
        }
        description={
          triggerFilter === 'recurrence'
            ? 'O horário da recorrência e os do Cronograma valem no fuso de cada visitante: às 10:00 de cada um, não às 10:00 do domínio.'
            : 'Os dias e horários do Cronograma valem no fuso de cada visitante, não no do domínio.'
        }
        checked={value.visitorWorktime}
        onChange={(e) => set('visitorWorktime', e.currentTarget.checked)}
      />
    </Stack>
  );
}
