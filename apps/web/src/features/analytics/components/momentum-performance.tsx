import type { MomentumPerformanceRow } from '@impeto/shared';
import { ATTRIBUTION_WINDOWS } from '@impeto/shared/core';
import {
  ActionIcon,
  Anchor,
  Badge,
  Group,
  Paper,
  ScrollArea,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconTrophy } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { formatCount, formatDay, formatMoney, formatPercent, formatShortDay } from '../../../lib/format.ts';
import type { WidgetParams } from '../api/analytics-query.ts';
import { useMomentumJourney } from '../api/journey.ts';
import { useMomentumPerformance } from '../api/momentum-performance.ts';
import { useMomentumsDaily } from '../api/momentums-daily.ts';
import { JourneyStepsTable } from './journey-steps.tsx';
import { experimentHref, journeyHref, MOMENTUM_TYPE_LABELS, momentumHref } from './momentum-links.ts';
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

const formatPeriodShort = ({ start, end }: { start: string; end: string }) =>
  start === end ? formatShortDay(start) : `${formatShortDay(start)} a ${formatShortDay(end)}`;

/** 'de 01/11/2026 a 26/11/2026', or 'em 26/11/2026' for one day. */
export const periodLabel = ({ start, end }: { start: string; end: string }) =>
  start === end ? `em ${formatDay(start)}` : `de ${formatDay(start)} a ${formatDay(end)}`;

/**
 * Each momentum's first and last day with activity in the period, from the per-day rows the impact chart also
 * reads (one cached request): '03/11 a 24/11', or '10/11' for one day.
 */
function activeDaysOf(daily: { date: string; momentum_uuid: string }[]) {
  const span = new Map<string, { first: string; last: string }>();
  for (const row of daily) {
    const s = span.get(row.momentum_uuid);
    if (!s) span.set(row.momentum_uuid, { first: row.date, last: row.date });
    else {
      if (row.date < s.first) s.first = row.date;
      if (row.date > s.last) s.last = row.date;
    }
  }
  return (uuid: string) => {
    const s = span.get(uuid);
    if (!s) return '—';
    return s.first === s.last ? formatShortDay(s.first) : `${formatShortDay(s.first)} a ${formatShortDay(s.last)}`;
  };
}

function figuresOf(row: MomentumPerformanceRow): [string, string][] {
  return [
    ['Enviadas', formatCount(row.notifications_sent)],
    ['Visualizadas', formatCount(row.notifications_viewed)],
    ['Cliques', formatCount(row.notifications_clicked)],
    ['CTR', formatPercent(row.notifications_ctr)],
    ['Conversões', formatCount(row.not_convertion)],
    ['Receita (R$)', formatMoney(row.not_convertion_profit)],
    ['Acessos ao carrinho', formatCount(row.not_cart_access)],
    ['% carrinho', formatPercent(row.not_cart_access_percent)],
  ];
}

/** A journey's rows under its momentum (issue #26): read when the row is opened. */
function JourneyRows({ params, row }: { params: WidgetParams; row: MomentumPerformanceRow }) {
  const journey = useMomentumJourney(params.domainUuid, row.momentum_uuid, params.range);
  const title = row.momentum_title || 'Sem título';
  if (journey.isError)
    return (
      <Text size="sm" c="red">
        Não foi possível carregar as etapas da jornada.
      </Text>
    );
  if (!journey.data) return <Skeleton height={96} radius="sm" aria-label={`Carregando as etapas de ${title}`} />;
  return (
    <Stack gap={6}>
      <JourneyStepsTable rows={journey.data} label={`Etapas da jornada de ${title}`} compact />
      <Anchor component={Link} to={journeyHref(row.momentum_uuid, params.domainUuid)} size="xs">
        Ver o funil da jornada
      </Anchor>
    </Stack>
  );
}

/** A phone's version of the table: each momentum whole (its title wraps), its days and every figure labelled. */
function PerformanceList({
  rows,
  daysOf,
  domainUuid,
}: {
  rows: MomentumPerformanceRow[];
  daysOf: (uuid: string) => string;
  domainUuid: string;
}) {
  return (
    <Stack component="ul" gap="sm" m={0} p={0} aria-label="Desempenho dos momentums">
      {rows.map((row) => (
        <Paper
          key={row.momentum_uuid}
          component="li"
          aria-label={row.momentum_title || 'Sem título'}
          withBorder
          radius="md"
          p="sm"
          style={{ listStyle: 'none' }}
        >
          <Anchor component={Link} to={momentumHref(row.type, row.momentum_uuid, domainUuid)} size="sm" fw={600}>
            {row.momentum_title || 'Sem título'}
          </Anchor>
          <Text size="xs" c="dimmed" mb={6}>
            {daysOf(row.momentum_uuid)}
          </Text>
          {row.has_experiment ? (
            <Anchor
              component={Link}
              to={experimentHref(row.momentum_uuid, domainUuid)}
              size="xs"
              aria-label={`Teste A/B de ${row.momentum_title || 'Sem título'}`}
            >
              Teste A/B
            </Anchor>
          ) : null}
          {row.journey ? (
            <Anchor
              component={Link}
              to={journeyHref(row.momentum_uuid, domainUuid)}
              size="xs"
              ml={row.has_experiment ? 'sm' : 0}
              aria-label={`Jornada de ${row.momentum_title || 'Sem título'}`}
            >
              Jornada
            </Anchor>
          ) : null}
          <SimpleGrid cols={2} spacing={6} verticalSpacing={4}>
            {figuresOf(row).map(([label, value]) => (
              <Group key={label} justify="space-between" gap={4} wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text size="sm" fw={500} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                  {value}
                </Text>
              </Group>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}

export function MomentumPerformance(params: WidgetParams) {
  const query = useMomentumPerformance(params);
  const daily = useMomentumsDaily(params);
  const phone = useMediaQuery('(max-width: 47.99em)') ?? false;
  const rows = query.data ?? [];
  const totals = totalsOf(rows);
  const daysOf = activeDaysOf(daily.data ?? []);
  const [opened, setOpened] = useState<ReadonlySet<string>>(new Set());
  const toggle = (uuid: string) =>
    setOpened((o) => {
      const next = new Set(o);
      if (next.has(uuid)) next.delete(uuid);
      else next.add(uuid);
      return next;
    });
  return (
    <WidgetCard
      title="Desempenho dos momentums"
      description={`Entregas, cliques e conversões atribuídas a cada momentum e campanha ${periodLabel(params.range)}`}
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
        ) : phone ? (
          <PerformanceList rows={rows} daysOf={daysOf} domainUuid={params.domainUuid} />
        ) : (
          <>
            <ScrollArea type="auto" pb={4}>
              <Table verticalSpacing={8} fz="sm" miw={980}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th {...sticky}>Momentum</Table.Th>
                    <Table.Th style={{ whiteSpace: 'nowrap' }}>Dias com envio</Table.Th>
                    {PERFORMANCE_COLUMNS.map((c) => (
                      <Table.Th key={c} ta="right">
                        {c}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row) => (
                    <Fragment key={row.momentum_uuid}>
                      <Table.Tr>
                        <Table.Td maw={{ base: 150, sm: 280 }} {...sticky}>
                          <Group gap={6} wrap="nowrap">
                            {row.journey ? (
                              <ActionIcon
                                variant="subtle"
                                size="sm"
                                color="gray"
                                onClick={() => toggle(row.momentum_uuid)}
                                aria-expanded={opened.has(row.momentum_uuid)}
                                aria-label={`${opened.has(row.momentum_uuid) ? 'Ocultar' : 'Mostrar'} as etapas da jornada de ${row.momentum_title || 'Sem título'}`}
                              >
                                {opened.has(row.momentum_uuid) ? (
                                  <IconChevronDown size={16} />
                                ) : (
                                  <IconChevronRight size={16} />
                                )}
                              </ActionIcon>
                            ) : null}
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
                            {row.has_experiment ? (
                              <Anchor
                                component={Link}
                                to={experimentHref(row.momentum_uuid, params.domainUuid)}
                                size="xs"
                                style={{ whiteSpace: 'nowrap' }}
                                aria-label={`Teste A/B de ${row.momentum_title || 'Sem título'}`}
                              >
                                Teste A/B
                              </Anchor>
                            ) : null}
                          </Group>
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{daysOf(row.momentum_uuid)}</Table.Td>
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
                      {row.journey && opened.has(row.momentum_uuid) ? (
                        <Table.Tr>
                          <Table.Td colSpan={2 + PERFORMANCE_COLUMNS.length} bg="var(--mantine-color-gray-0)">
                            <JourneyRows params={params} row={row} />
                          </Table.Td>
                        </Table.Tr>
                      ) : null}
                    </Fragment>
                  ))}
                </Table.Tbody>
                {rows.length > 1 ? (
                  <Table.Tfoot>
                    <Table.Tr fw={700}>
                      <Table.Td {...sticky}>Total</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatPeriodShort(params.range)}</Table.Td>
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
