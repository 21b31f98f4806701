import { Box, Group, Text } from '@mantine/core';
import { IconBroadcast } from '@tabler/icons-react';
import { formatCount, formatTime } from '../../../lib/format.ts';
import { useLiveVisitors } from '../api/count-live.ts';
import classes from './analytics.module.css';
import { StatSkeleton, StatValue } from './stat-value.tsx';
import { WidgetCard } from './widget-card.tsx';

/** Distinct visitors in the last 5 minutes, refreshed every 30 s whatever the selected range. */
export function LiveVisitorsCard({ domainUuid }: { domainUuid: string }) {
  const query = useLiveVisitors(domainUuid);
  const count = query.data?.count ?? 0;
  return (
    <WidgetCard
      title="Visitantes agora"
      icon={<IconBroadcast size={18} />}
      query={query}
      skeleton={<StatSkeleton />}
      description="Últimos 5 minutos"
    >
      {() => (
        <StatValue
          value={
            <Group gap="sm" wrap="nowrap" component="span">
              <Box
                component="span"
                className={count > 0 ? classes.liveDot : classes.idleDot}
                aria-hidden
                data-live={count > 0 ? 'true' : 'false'}
              />
              <span aria-live="polite">{formatCount(count)}</span>
            </Group>
          }
          sub={
            <Text size="xs" c="dimmed">
              {query.data?.at ? `Atualizado às ${formatTime(query.data.at)} · a cada 30 s` : 'Atualiza a cada 30 s'}
            </Text>
          }
        />
      )}
    </WidgetCard>
  );
}
