import { Stack } from '@mantine/core';
import { IconDevices } from '@tabler/icons-react';
import { formatCount } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useVisitorsByDevice } from '../api/visitors-by-device.ts';
import { DonutChart } from './charts.tsx';
import { LegendList } from './legend-list.tsx';
import { WidgetCard, WidgetEmpty } from './widget-card.tsx';

const DEVICE_LABELS: Record<string, string> = {
  desktop: 'Desktop',
  mobile: 'Celular',
  tablet: 'Tablet',
  tv: 'TV',
  console: 'Console',
  wearable: 'Vestível',
  desconhecido: 'Desconhecido',
};
const DEVICE_COLORS: Record<string, string> = { desktop: 'brand.6', mobile: 'teal.6', tablet: 'orange.6' };

export const deviceLabel = (device: string) => DEVICE_LABELS[device] ?? device;

export function VisitorsByDevice(params: WidgetParams) {
  const query = useVisitorsByDevice(params);
  const rows = (query.data ?? []).filter((r) => r.amount > 0);
  const items = rows.map((r) => ({
    label: deviceLabel(r.device),
    value: r.amount,
    color: DEVICE_COLORS[r.device] ?? 'gray.5',
  }));
  return (
    <WidgetCard
      title="Visitantes por dispositivo"
      description="Visitantes distintos por dia, somados no período"
      icon={<IconDevices size={18} />}
      query={query}
    >
      {() =>
        items.length === 0 ? (
          <WidgetEmpty icon={<IconDevices size={32} />} title="Nenhum visitante no período" />
        ) : (
          <Stack align="center" gap="md">
            <DonutChart
              size={170}
              thickness={26}
              withTooltip
              tooltipDataSource="segment"
              valueFormatter={formatCount}
              chartLabel={formatCount(items.reduce((s, i) => s + i.value, 0))}
              data={items.map((i) => ({ name: i.label, value: i.value, color: i.color }))}
            />
            <LegendList items={items} />
          </Stack>
        )
      }
    </WidgetCard>
  );
}
