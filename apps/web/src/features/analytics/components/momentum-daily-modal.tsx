import type { AnalyticsRange } from '@impeto/shared';
import { Alert, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api.ts';
import { formatCount, formatDay, formatShortDay } from '../../../lib/format.ts';
import { useMomentumDailyImpact } from '../api/momentum-daily-impact.ts';
import { LineChart } from './charts.tsx';

/** One momentum's sent, viewed and clicked per day (`/analytics/momentum/:uuid/count/dailyPeopleImpacted`). */
export function MomentumDailyModal({
  domainUuid,
  momentumUuid,
  title,
  range,
  onClose,
}: {
  domainUuid: string;
  momentumUuid: string;
  title: string;
  range: AnalyticsRange;
  onClose: () => void;
}) {
  const query = useMomentumDailyImpact(domainUuid, momentumUuid, range);
  const rows = query.data ?? [];
  const total = (key: 'notifications_sent' | 'notifications_viewed' | 'notifications_clicked') =>
    formatCount(rows.reduce((s, r) => s + r[key], 0));
  return (
    <Modal opened onClose={onClose} size="xl" title={`Gráfico diário: ${title}`}>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          De {formatDay(range.start)} a {formatDay(range.end)}
        </Text>
        {query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="Não foi possível carregar">
            {errorMessage(query.error)}
          </Alert>
        ) : query.isPending ? (
          <Skeleton height={280} aria-label="Carregando gráfico" />
        ) : (
          <>
            <Group gap="xl">
              <Text size="sm">
                Enviadas: <b>{total('notifications_sent')}</b>
              </Text>
              <Text size="sm">
                Visualizadas: <b>{total('notifications_viewed')}</b>
              </Text>
              <Text size="sm">
                Cliques: <b>{total('notifications_clicked')}</b>
              </Text>
            </Group>
            <LineChart
              h={280}
              data={rows.map((r) => ({ ...r, label: formatShortDay(r.date) }))}
              dataKey="label"
              series={[
                { name: 'notifications_sent', label: 'Enviadas', color: 'brand.6' },
                { name: 'notifications_viewed', label: 'Visualizadas', color: 'cyan.6' },
                { name: 'notifications_clicked', label: 'Cliques', color: 'teal.6' },
              ]}
              curveType="monotone"
              withLegend
              legendProps={{ verticalAlign: 'bottom' }}
              valueFormatter={formatCount}
              tickLine="none"
              gridAxis="y"
              yAxisProps={{ allowDecimals: false, width: 44 }}
            />
          </>
        )}
      </Stack>
    </Modal>
  );
}
