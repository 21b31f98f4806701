import {
  Anchor,
  Group,
  ScrollArea,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconChartPie, IconFileText, IconTable } from '@tabler/icons-react';
import { useState } from 'react';
import { formatCount } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useMostViewedPages } from '../api/most-viewed-pages.ts';
import { PieChart } from './charts.tsx';
import { pageLabel, seriesColor } from './palette.ts';
import { WidgetCard, WidgetEmpty } from './widget-card.tsx';

type View = 'table' | 'pie';

export function MostViewedPages(params: WidgetParams) {
  const query = useMostViewedPages(params);
  const [view, setView] = useState<View>('table');
  const rows = query.data?.rows ?? [];
  const total = rows.reduce((sum, r) => sum + r.count, 0);

  return (
    <WidgetCard
      title="Páginas mais visitadas"
      description="As 10 páginas com mais visualizações no período"
      icon={<IconFileText size={18} />}
      query={query}
      actions={
        rows.length > 0 ? (
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(v) => setView(v as View)}
            aria-label="Exibir como"
            data={[
              {
                value: 'table',
                label: (
                  <Group gap={4} wrap="nowrap">
                    <IconTable size={14} /> Tabela
                  </Group>
                ),
              },
              {
                value: 'pie',
                label: (
                  <Group gap={4} wrap="nowrap">
                    <IconChartPie size={14} /> Pizza
                  </Group>
                ),
              },
            ]}
          />
        ) : null
      }
      footer={
        // The endpoint answers the spec's English message verbatim (READINGS A-4); the page says it in pt-BR.
        query.data?.message ? (
          <Text size="xs" c="dimmed" role="status">
            Páginas mais vistas carregadas.
          </Text>
        ) : null
      }
    >
      {() =>
        rows.length === 0 ? (
          <WidgetEmpty
            icon={<IconFileText size={32} />}
            title="Nenhuma visita no período"
            hint="Se o site é novo por aqui, instale o script do Ímpeto (botão Copiar script, no menu lateral) e as páginas visitadas aparecerão nesta lista."
          />
        ) : view === 'table' ? (
          <ScrollArea type="auto" offsetScrollbars>
            <Table striped highlightOnHover verticalSpacing={6} fz="sm" miw={480}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Página</Table.Th>
                  <Table.Th ta="right">Mobile</Table.Th>
                  <Table.Th ta="right">Desktop</Table.Th>
                  <Table.Th ta="right">Total</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.url}>
                    <Table.Td maw={360}>
                      <Tooltip label={row.url} openDelay={400} withinPortal>
                        <Anchor
                          href={row.url}
                          target="_blank"
                          rel="noopener noreferrer"
                          size="sm"
                          display="block"
                          style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                        >
                          {pageLabel(row.url)}
                          <VisuallyHidden> ({row.url})</VisuallyHidden>
                        </Anchor>
                      </Tooltip>
                    </Table.Td>
                    <Table.Td ta="right">{formatCount(row.mobile)}</Table.Td>
                    <Table.Td ta="right">{formatCount(row.desktop)}</Table.Td>
                    <Table.Td ta="right" fw={600}>
                      {formatCount(row.count)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        ) : (
          <Stack align="center" gap="sm">
            <PieChart
              size={220}
              withTooltip
              tooltipDataSource="segment"
              valueFormatter={(v) => `${formatCount(v)} (${Math.round((v / Math.max(total, 1)) * 100)}%)`}
              data={rows.map((row, i) => ({ name: pageLabel(row.url), value: row.count, color: seriesColor(i) }))}
            />
            <Stack gap={4} w="100%">
              {rows.map((row, i) => (
                <Group key={row.url} gap="xs" wrap="nowrap" justify="space-between">
                  <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                    <span
                      aria-hidden
                      style={{
                        width: 10,
                        height: 10,
                        borderRadius: 3,
                        flex: 'none',
                        background: `var(--mantine-color-${seriesColor(i).replace('.', '-')})`,
                      }}
                    />
                    <Text size="xs" truncate="end">
                      {pageLabel(row.url)}
                    </Text>
                  </Group>
                  <Text size="xs" fw={600}>
                    {formatCount(row.count)}
                  </Text>
                </Group>
              ))}
            </Stack>
          </Stack>
        )
      }
    </WidgetCard>
  );
}
