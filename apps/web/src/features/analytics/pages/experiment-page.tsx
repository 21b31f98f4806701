import type { AnalyticsRange, ExperimentArmRow, ExperimentReport, ExperimentVsControl } from '@impeto/shared';
import { isAnalyticsRange } from '@impeto/shared/core';
import { Alert, Badge, Box, Button, Card, Group, ScrollArea, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconCircleCheck, IconHourglass } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatCount, formatMoney, formatPercent } from '../../../lib/format.ts';
import { useDomainNavigate } from '../../../lib/navigation.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useMomentum } from '../../momentums/api/get-momentum.ts';
import { useMomentumExperiment } from '../api/experiments.ts';
import { LineChart } from '../components/charts.tsx';
import { seriesColor } from '../components/palette.ts';
import { RangePicker } from '../components/range-picker.tsx';
import { WinnerDecision } from '../components/winner-decision.tsx';
import { daysOf, shiftDay, todayInZone } from '../range.ts';

const pp = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const formatPp = (n: number) => `${n > 0 ? '+' : ''}${pp.format(n)} p.p.`;
const formatP = (p: number | null) =>
  p === null ? '—' : p < 0.001 ? '< 0,001' : p.toLocaleString('pt-BR', { maximumFractionDigits: 3 });

/** The range in the URL, else the last 30 days (an experiment runs for weeks, not a day). */
function rangeOf(params: URLSearchParams): AnalyticsRange {
  const start = params.get('start');
  const end = params.get('end');
  if (isAnalyticsRange(start, end)) return { start: start as string, end: end as string };
  const today = todayInZone();
  return { start: shiftDay(today, -29), end: today };
}

function ArmsTable({ report }: { report: ExperimentReport }) {
  const columns: [string, (a: ExperimentArmRow) => string][] = [
    ['Parcela', (a) => formatPercent(a.share)],
    ['Pessoas', (a) => formatCount(a.assigned)],
    ['Enviadas', (a) => formatCount(a.sent)],
    ['Cliques', (a) => formatCount(a.clicked)],
    ['Taxa de cliques', (a) => formatPercent(a.click_rate)],
    ['Converteram', (a) => formatCount(a.converted)],
    ['Taxa de conversão', (a) => formatPercent(a.conversion_rate)],
    ['Conversões', (a) => formatCount(a.conversions)],
    ['Receita', (a) => formatMoney(a.revenue)],
  ];
  return (
    <ScrollArea>
      <Table striped withTableBorder aria-label="Grupos do teste" miw={760}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Grupo</Table.Th>
            {columns.map(([label]) => (
              <Table.Th key={label} ta="right">
                {label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.arms.map((a) => (
            <Table.Tr key={a.arm}>
              <Table.Td fw={600}>{a.label}</Table.Td>
              {columns.map(([label, value]) => (
                <Table.Td key={label} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {value(a)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** The lift and its 95 % interval drawn on one scale shared by every variant, zero marked. */
function LiftBars({ comparisons, labelOf }: { comparisons: ExperimentVsControl[]; labelOf: (arm: string) => string }) {
  const ends = comparisons.flatMap((c) => [c.ci_low_pp ?? c.lift_pp, c.ci_high_pp ?? c.lift_pp, 0]);
  const span = Math.max(...ends.map(Math.abs), 0.5);
  const at = (v: number) => `${50 + (v / span) * 45}%`;
  return (
    <Stack gap="md">
      {comparisons.map((c) => (
        <Box key={c.arm} role="group" aria-label={`Diferença da ${labelOf(c.arm)} para o controle`}>
          <Group justify="space-between" mb={4}>
            <Text size="sm" fw={600}>
              {labelOf(c.arm)}
            </Text>
            <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatPp(c.lift_pp)}
              {c.ci_low_pp !== null && c.ci_high_pp !== null
                ? ` (IC 95 %: ${pp.format(c.ci_low_pp)} a ${pp.format(c.ci_high_pp)} p.p.)`
                : ''}
            </Text>
          </Group>
          <Box pos="relative" h={18} bg="var(--mantine-color-gray-1)" style={{ borderRadius: 4 }}>
            <Box pos="absolute" top={0} bottom={0} left="50%" w={1} bg="var(--mantine-color-gray-6)" />
            {c.ci_low_pp !== null && c.ci_high_pp !== null ? (
              <Box
                pos="absolute"
                top={6}
                h={6}
                left={at(c.ci_low_pp)}
                w={`calc(${at(c.ci_high_pp)} - ${at(c.ci_low_pp)})`}
                bg={c.significant ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-gray-5)'}
                style={{ borderRadius: 3 }}
              />
            ) : null}
            <Box
              pos="absolute"
              top={2}
              h={14}
              w={4}
              left={`calc(${at(c.lift_pp)} - 2px)`}
              bg="var(--mantine-color-dark-6)"
              style={{ borderRadius: 2 }}
            />
          </Box>
          <Group justify="space-between" mt={2}>
            <Text size="xs" c="dimmed">
              {pp.format(-span)} p.p.
            </Text>
            <Text size="xs" c="dimmed">
              0
            </Text>
            <Text size="xs" c="dimmed">
              +{pp.format(span)} p.p.
            </Text>
          </Group>
          <Text size="xs" c="dimmed" mt={2}>
            Valor-p: {formatP(c.p_value)} · Receita incremental: {formatMoney(c.incremental_revenue)}
          </Text>
        </Box>
      ))}
    </Stack>
  );
}

/**
 * One line per distinct verdict: variants that share the same sentence ('ainda não há conversões para comparar') are
 * named together once instead of repeating it; a sentence that does not name its variant gets the name in front.
 */
function verdicts(
  comparisons: ExperimentReport['against_control'],
  labelOf: (arm: string) => string,
): { text: string; significant: boolean }[] {
  const groups = new Map<string, { arms: string[]; significant: boolean }>();
  for (const c of comparisons) {
    const g = groups.get(c.verdict) ?? { arms: [], significant: c.significant };
    g.arms.push(labelOf(c.arm));
    groups.set(c.verdict, g);
  }
  return [...groups].map(([verdict, g]) => {
    const named = g.arms.length === 1 && verdict.includes(g.arms[0]!.replace(/^Variante /, 'variante '));
    if (named) return { text: verdict, significant: g.significant };
    const who = g.arms.length === 1 ? g.arms[0]! : `${g.arms.slice(0, -1).join(', ')} e ${g.arms.at(-1)}`;
    return { text: `${who}: ${verdict}`, significant: g.significant };
  });
}

function DailyChart({ report, range }: { report: ExperimentReport; range: AnalyticsRange }) {
  const byDay = new Map<string, Record<string, number>>();
  for (const d of report.daily) {
    const label = report.arms.find((a) => a.arm === d.arm)?.label ?? d.arm;
    byDay.set(d.date, { ...(byDay.get(d.date) ?? {}), [label]: d.converted });
  }
  const data = daysOf(range).map((date) => ({
    date: date.split('-').reverse().slice(0, 2).join('/'),
    ...Object.fromEntries(report.arms.map((a) => [a.label, byDay.get(date)?.[a.label] ?? 0])),
  }));
  if (!report.daily.some((d) => d.converted > 0))
    return (
      <Text size="sm" c="dimmed">
        Nenhuma conversão no período: o gráfico aparece quando alguém de um dos grupos comprar.
      </Text>
    );
  return (
    <LineChart
      h={240}
      data={data}
      dataKey="date"
      series={report.arms.map((a, i) => ({ name: a.label, color: seriesColor(i) }))}
      withLegend
      curveType="linear"
      valueFormatter={(v) => formatCount(v)}
    />
  );
}

/** `/v2/experiment?uuid=`: a momentum's A/B test and control group side by side, with what they prove. */
export default function ExperimentPage() {
  usePageTitle('Teste A/B');
  const [params, setParams] = useSearchParams();
  const navigate = useDomainNavigate();
  const uuid = params.get('uuid') ?? '';
  const range = rangeOf(params);
  const momentum = useMomentum(uuid || null);
  const report = useMomentumExperiment(momentum.data?.domain_uuid ?? '', uuid, range);
  const listPath = momentum.data?.type === 'campaign' ? '/v2/campaigns' : '/v2/momentums';
  const changeRange = (next: AnalyticsRange) => {
    const p = new URLSearchParams(params);
    p.set('start', next.start);
    p.set('end', next.end);
    setParams(p);
  };
  const data = report.data;
  const labelOf = (arm: string) => data?.arms.find((a) => a.arm === arm)?.label ?? arm;
  const failure = momentum.error ?? report.error;

  return (
    <>
      <PageHeader
        title="Teste A/B"
        description={
          momentum.data ? (
            <>
              {momentum.data.type === 'campaign' ? 'Campanha' : 'Momentum'} <b>{momentum.data.momentum_title}</b>:
              quanto cada mensagem converte a mais que o silêncio, e qual texto vende mais.
            </>
          ) : (
            'Quanto cada mensagem converte a mais que o silêncio, e qual texto vende mais.'
          )
        }
        actions={
          <Group gap="sm">
            <RangePicker value={range} onChange={changeRange} />
            <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(listPath)}>
              Voltar
            </Button>
          </Group>
        }
      />
      {failure ? (
        <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar o teste">
          <Text size="sm">{errorMessage(failure)}</Text>
        </Alert>
      ) : !data ? (
        <Stack aria-busy="true">
          <Skeleton height={120} radius="md" />
          <Skeleton height={240} radius="md" />
        </Stack>
      ) : (
        <Stack gap="lg">
          {data.against_control.length ? (
            <Stack gap="xs" aria-label="Conclusões">
              {verdicts(data.against_control, labelOf).map((v) => (
                <Alert
                  key={v.text}
                  color={v.significant ? 'teal' : 'gray'}
                  icon={v.significant ? <IconCircleCheck /> : <IconHourglass />}
                >
                  <Text size="sm">{v.text}</Text>
                </Alert>
              ))}
            </Stack>
          ) : (
            <Alert color="gray" icon={<IconHourglass />}>
              <Text size="sm">Sem grupo de controle: as variantes são comparadas entre si pela taxa de cliques.</Text>
            </Alert>
          )}
          {data.winner ? <WinnerDecision winner={data.winner} labelOf={labelOf} /> : null}
          <Card withBorder padding="md">
            <Title order={2} size="h4" mb="sm">
              Grupos lado a lado
            </Title>
            <ArmsTable report={data} />
            <Text size="xs" c="dimmed" mt="xs">
              Taxa de conversão: pessoas que compraram até 7 dias depois da mensagem (ou de quando a receberiam, no
              grupo de controle) ÷ pessoas do grupo.
            </Text>
          </Card>
          {data.against_control.length ? (
            <Card withBorder padding="md">
              <Title order={2} size="h4" mb="sm">
                Diferença para o controle (conversão)
              </Title>
              <LiftBars comparisons={data.against_control} labelOf={labelOf} />
            </Card>
          ) : null}
          {data.by_click_rate.length ? (
            <Card withBorder padding="md">
              <Title order={2} size="h4" mb="sm">
                Variantes entre si (taxa de cliques)
              </Title>
              <Stack gap={6}>
                {data.by_click_rate.map((c) => (
                  <Group key={`${c.arm}-${c.against}`} gap="xs">
                    <Text size="sm">
                      {labelOf(c.arm)} × {labelOf(c.against)}: {formatPp(c.lift_pp)}
                    </Text>
                    <Badge variant="light" color={c.significant ? 'teal' : 'gray'}>
                      {c.significant ? 'diferença significativa' : 'sem diferença significativa'}
                    </Badge>
                  </Group>
                ))}
              </Stack>
            </Card>
          ) : null}
          <Card withBorder padding="md">
            <Title order={2} size="h4" mb="sm">
              Pessoas que converteram por dia
            </Title>
            <DailyChart report={data} range={range} />
          </Card>
        </Stack>
      )}
    </>
  );
}
