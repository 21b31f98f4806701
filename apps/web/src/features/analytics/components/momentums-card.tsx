import { Anchor, Group, Text } from '@mantine/core';
import { IconBolt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatCount } from '../../../lib/format.ts';
import { withDomain } from '../../../lib/navigation.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useMomentumCounts } from '../api/count-momentums.ts';
import { StatSkeleton, StatValue } from './stat-value.tsx';
import { WidgetCard } from './widget-card.tsx';

/** Inactive momentums big (the spec's card), the active ones as the line under it. */
export function MomentumsCard(params: WidgetParams) {
  const query = useMomentumCounts(params);
  const active = query.data?.active ?? 0;
  return (
    <WidgetCard
      title="Momentums inativos"
      icon={<IconBolt size={18} />}
      query={query}
      skeleton={<StatSkeleton />}
      description="Pausados, rascunhos e concluídos"
    >
      {() => (
        <StatValue
          value={formatCount(query.data?.inactive ?? 0)}
          sub={
            <Group gap={6}>
              <Text size="xs" c={active > 0 ? 'teal.7' : 'dimmed'} fw={600}>
                {formatCount(active)} {active === 1 ? 'ativo' : 'ativos'} agora
              </Text>
              <Anchor component={Link} to={withDomain('/v2/momentums', params.domainUuid)} size="xs">
                Ver momentums
              </Anchor>
            </Group>
          }
        />
      )}
    </WidgetCard>
  );
}
