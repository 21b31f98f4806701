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

/**
 * The summary's 'Horário de envio' (issue #27): the options in words and, for a throttled campaign sent from its
 * start, the expected end from the filter's audience ('Término previsto').
 */
export function TimingSummary(props: {
  timing: MomentumTiming;
  isCampaign: boolean;
  domainUuid: string;
  blocks: unknown[];
  scheduledAt?: string | null;
}) {
  const { timing, isCampaign, domainUuid, blocks } = props;
  const lines = describeTiming(timing);
  const filter = blockOf(blocks, 'filter');
  const throttled =
    isCampaign && timing.throttle_per_minute && !timing.send_at_local_time && !timing.best_time && filter;
  const audience = useQuery({
    queryKey: ['people-impacted', domainUuid, JSON.stringify(filter)],
    queryFn: async () => (await calculateImpact(domainUuid, [filter])).data,
    enabled: Boolean(throttled && domainUuid),
    staleTime: 30_000,
  });
  if (!lines.length) return null;
  let end: string | null = null;
  if (throttled && audience.data) {
    const start = props.scheduledAt ? new Date(props.scheduledAt) : new Date();
    const people = audience.data.impacted;
    end = `Término previsto: ${formatZoned(throttledEnd(start, people, timing.throttle_per_minute!), 'DD/MM/YYYY [às] HH:mm')} (${formatCount(people)} ${people === 1 ? 'pessoa' : 'pessoas'} a ${formatCount(timing.throttle_per_minute!)} por minuto${props.scheduledAt ? ', a partir do agendamento' : ', começando agora'}).`;
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
        ) : throttled && audience.isFetching ? (
          <Text size="sm" c="dimmed">
            Calculando o término previsto…
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
