import type { MomentumTiming } from '@impeto/shared';
import { Alert, Stack, Text } from '@mantine/core';
import { IconClockPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { formatCount } from '../../../lib/format.ts';
import { calculateImpact } from '../../blocks/api/calculate-impact.ts';
import { blockOf, formatZoned } from '../../blocks/index.ts';
import { describeTiming } from '../../blocks/timing-editor.tsx';

/** When a throttled send of `recipients` starting at `start` sends its last message: one every 60/rate seconds. */
export const throttledEnd = (start: Date, recipients: number, perMinute: number) =>
  new Date(start.getTime() + Math.max(0, recipients - 1) * (60_000 / perMinute));

/** '1 h 40 min', '25 min', 'menos de 1 min'. */
export function formatSpan(ms: number) {
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 1) return 'menos de 1 min';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return `${minutes} min`;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}

/**
 * The summary's 'Horário de envio' (issue #27): the options in words and, for a throttled campaign sent from its
 * start, the expected end from the filter's audience ('Término previsto'); for a throttled recurrence, how long each
 * occurrence takes to reach that audience; a momentum started by events has no end to foresee (its sends come as the
 * events do), which the summary says.
 */
export function TimingSummary(props: {
  timing: MomentumTiming;
  isCampaign: boolean;
  domainUuid: string;
  blocks: unknown[];
  scheduledAt?: string | null;
}) {
  const { timing, isCampaign, domainUuid, blocks } = props;
  const triggerFilter =
    (blockOf(blocks, 'trigger') as { values?: { filter?: string }[] } | undefined)?.values?.[0]?.filter ?? '';
  const lines = describeTiming(timing, triggerFilter);
  const filter = blockOf(blocks, 'filter');
  const rate = timing.throttle_per_minute;
  const throttled = isCampaign && rate && !timing.send_at_local_time && !timing.best_time && filter;
  const throttledRecurrence = !isCampaign && triggerFilter === 'recurrence' && rate && filter;
  const audience = useQuery({
    queryKey: ['people-impacted', domainUuid, JSON.stringify(filter)],
    queryFn: async () => (await calculateImpact(domainUuid, [filter])).data,
    enabled: Boolean((throttled || throttledRecurrence) && domainUuid),
    staleTime: 30_000,
  });
  if (!lines.length) return null;
  let end: string | null = null;
  const people = audience.data?.impacted ?? 0;
  const pace = `${formatCount(people)} ${people === 1 ? 'pessoa' : 'pessoas'} a ${formatCount(rate ?? 0)} por minuto`;
  if (throttled && audience.data) {
    const start = props.scheduledAt ? new Date(props.scheduledAt) : new Date();
    end = `Término previsto: ${formatZoned(throttledEnd(start, people, rate!), 'DD/MM/YYYY [às] HH:mm')} (${pace}${props.scheduledAt ? ', a partir do agendamento' : ', começando agora'}).`;
  } else if (throttledRecurrence && audience.data) {
    end = `Cada ocorrência termina cerca de ${formatSpan(throttledEnd(new Date(0), people, rate!).getTime())} depois de começar (${pace}).`;
  } else if (!isCampaign && rate && triggerFilter && triggerFilter !== 'recurrence') {
    end = 'Sem término previsto: os envios saem conforme os gatilhos acontecem, espaçados para não passar do limite.';
  }
  return (
    <Alert color="blue" variant="light" mt="lg" icon={<IconClockPlay />} title="Horário de envio">
      <Stack gap={4}>
        {lines.map((line) => (
          <Text key={line} size="sm">
            {line}
          </Text>
        ))}
        {end ? (
          <Text size="sm" fw={600}>
            {end}
          </Text>
        ) : (throttled || throttledRecurrence) && audience.isFetching ? (
          <Text size="sm" c="dimmed">
            Calculando o término previsto…
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
