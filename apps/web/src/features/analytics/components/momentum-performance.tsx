import type { MomentumPerformanceRow } from '@impeto/shared';
import { ATTRIBUTION_WINDOWS } from '@impeto/shared/core';
import { Anchor, Badge, Group, ScrollArea, Table, Text } from '@mantine/core';
import { IconTrophy } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatCount, formatMoney, formatPercent } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useMomentumPerformance } from '../api/momentum-performance.ts';
import { MOMENTUM_TYPE_LABELS, momentumHref } from './momentum-links.ts';
import { WidgetCard, WidgetEmpty } from './widget-card.tsx';

const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

export const PERFORMANCE_COLUMNS = [
  'Enviadas',
  'Visualizadas',
  'Cliques',
  'CTR',
  'Conversões',
  'Receita (R$)',
  'Acessos ao carrinho',
  '% carrinho',
] as const;

function totalsOf(rows: MomentumPerformanceRow[]) {
  const sum = (key: keyof MomentumPerformanceRow) => rows.reduce((s, r) => s + (r[key] as number), 0);
  const sent = sum('notifications_sent');
  const clicked = sum('notifications_clicked');
  const cart = sum('not_cart_access');
  return {
    sent,
    viewed: sum('notifications_viewed'),
    clicked,
    ctr: percentOf(clicked, sent),
    conversions: sum('not_convertion'),
    revenue: Math.round(sum('not_convertion_profit') * 100) / 100,
    cart,
    cartPercent: percentOf(cart, sent),
  };
}

/** The title column stays in view while the figures scroll sideways on a phone. */
const sticky = {
  style: {
    position: 'sticky' as const,
    left: 0,
    zIndex: 1,
    background: 'var(--mantine-color-body)',
    boxShadow: 'inset -1px 0 0 var(--mantine-color-gray-2)',
  },
};

const num = { ta: 'right' as const, style: { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' as const } };

export function MomentumPerformance(params: WidgetParams) {
  const query = useMomentumPerformance(params);
  const rows = query.data ?? [];
  const totals = totalsOf(rows);
  return (
    <WidgetCard
      title="Desempenho dos momentums"
      description="Entregas, cliques e conversões atribuídas a cada momentum e campanha no período"
      icon={<IconTrophy size={18} />}
      query={query}
    >
      {() =>
        rows.length === 0 ? (
          <WidgetEmpty
            icon={<IconTrophy size={32} />}
            title="Nenhum envio no período"
            hint="Quando seus momentums e campanhas enviarem mensagens, os resultados de cada um aparecem aqui."
          />
        ) : (
          <>
            <ScrollArea type="auto" pb={4}>
              <Table verticalSpacing={8} fz="sm" miw={880}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th {...sticky}>Momentum</Table.Th>
                    {PERFORMANCE_COLUMNS.map((c) => (
                      <Table.Th key={c} ta="right">
                        {c}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Table.Tr key={row.momentum_uuid}>
                      <Table.Td maw={{ base: 150, sm: 280 }} {...sticky}>
                        <Group gap={6} wrap="nowrap">
                          <Anchor
                            component={Link}
                            to={momentumHref(row.type, row.momentum_uuid, params.domainUuid)}
                            size="sm"
                            fw={600}
                            truncate="end"
                          >
                            {row.momentum_title || 'Sem título'}
                          </Anchor>
                          {row.type !== 'momentum' ? (
                            <Badge size="xs" variant="light" color={row.type === 'campaign' ? 'orange' : 'cyan'}>
                              {MOMENTUM_TYPE_LABELS[row.type]}
                            </Badge>
                          ) : null}
                        </Group>
                      </Table.Td>
                      <Table.Td {...num}>{formatCount(row.notifications_sent)}</Table.Td>
                      <Table.Td {...num}>{formatCount(row.notifications_viewed)}</Table.Td>
                      <Table.Td {...num}>{formatCount(row.notifications_clicked)}</Table.Td>
                      <Table.Td {...num}>{formatPercent(row.notifications_ctr)}</Table.Td>
                      <Table.Td {...num}>{formatCount(row.not_convertion)}</Table.Td>
                      <Table.Td {...num} fw={600}>
                        {formatMoney(row.not_convertion_profit)}
                      </Table.Td>
                      <Table.Td {...num}>{formatCount(row.not_cart_access)}</Table.Td>
                      <Table.Td {...num}>{formatPercent(row.not_cart_access_percent)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
                {rows.length > 1 ? (
                  <Table.Tfoot>
                    <Table.Tr fw={700}>
                      <Table.Td {...sticky}>Total</Table.Td>
                      <Table.Td {...num}>{formatCount(totals.sent)}</Table.Td>
                      <Table.Td {...num}>{formatCount(totals.viewed)}</Table.Td>
                      <Table.Td {...num}>{formatCount(totals.clicked)}</Table.Td>
                      <Table.Td {...num}>{formatPercent(totals.ctr)}</Table.Td>
                      <Table.Td {...num}>{formatCount(totals.conversions)}</Table.Td>
                      <Table.Td {...num}>{formatMoney(totals.revenue)}</Table.Td>
                      <Table.Td {...num}>{formatCount(totals.cart)}</Table.Td>
                      <Table.Td {...num}>{formatPercent(totals.cartPercent)}</Table.Td>
                    </Table.Tr>
                  </Table.Tfoot>
                ) : null}
              </Table>
            </ScrollArea>
            <Text size="xs" c="dimmed" mt={6}>
              Conversões e acessos ao carrinho contam para a última mensagem clicada em até{' '}
              {ATTRIBUTION_WINDOWS.clickedDays} dias, ou vista em até {ATTRIBUTION_WINDOWS.viewedDays} dia.
            </Text>
          </>
        )
      }
    </WidgetCard>
  );
}
