import type {
  AnalyticsRange,
  BaseChannelRow,
  CategoryRow,
  CountWithPrevious,
  DeviceRow,
  DomainJourneyReport,
  EventDailyRow,
  ExperimentReport,
  LiveVisitors,
  MomentumCounts,
  MomentumDailyRow,
  MomentumPerformanceRow,
  OptinDailyRow,
} from '@impeto/shared';
import type { QueryClient } from '@tanstack/react-query';
import { type CsvRow, toCsv } from '../../lib/csv.ts';
import type { WidgetParams } from './api/analytics-query.ts';
import { baseByChannelQueryOptions } from './api/base-by-channel.ts';
import { liveQueryOptions } from './api/count-live.ts';
import { momentumCountsQueryOptions } from './api/count-momentums.ts';
import { visitorsQueryOptions } from './api/count-visitors.ts';
import { visitsQueryOptions } from './api/count-visits.ts';
import { eventDailyImpactQueryOptions } from './api/event-daily-impact.ts';
import { domainExperimentsQueryOptions } from './api/experiments.ts';
import { domainJourneysQueryOptions } from './api/journey.ts';
import { momentumPerformanceQueryOptions } from './api/momentum-performance.ts';
import { momentumsDailyQueryOptions } from './api/momentums-daily.ts';
import { type MostViewedPages, mostViewedPagesQueryOptions } from './api/most-viewed-pages.ts';
import { optinsDailyQueryOptions } from './api/optins-daily.ts';
import { visitorsByCategoryQueryOptions } from './api/visitors-by-category.ts';
import { visitorsByDeviceQueryOptions } from './api/visitors-by-device.ts';
import { CHANNEL_LABELS } from './components/base-by-channel.tsx';
import { MOMENTUM_TYPE_LABELS } from './components/momentum-links.ts';
import { deviceLabel } from './components/visitors-by-device.tsx';

/** What the widgets hold at export time; a widget still loading or failed is undefined (its block has no rows). */
export interface DashboardSnapshot {
  domainName: string;
  range: AnalyticsRange;
  visits?: CountWithPrevious | undefined;
  visitors?: CountWithPrevious | undefined;
  momentums?: MomentumCounts | undefined;
  live?: LiveVisitors | undefined;
  mostViewed?: MostViewedPages | undefined;
  categories?: CategoryRow[] | undefined;
  devices?: DeviceRow[] | undefined;
  base?: BaseChannelRow[] | undefined;
  performance?: MomentumPerformanceRow[] | undefined;
  daily?: MomentumDailyRow[] | undefined;
  event?: { category: string; rows: EventDailyRow[] } | undefined;
  optins?: OptinDailyRow[] | undefined;
  /** Every momentum with an A/B test or control group (issue #25), fetched when the export is asked for. */
  experiments?: ExperimentReport[] | undefined;
  /** Every momentum with journey steps (issue #26), fetched when the export is asked for. */
  journeys?: DomainJourneyReport[] | undefined;
}

/** `cell_dashboard_export_YYYY-MM-DD.csv`, with the export date (READINGS A-24). */
export const exportFileName = (exportDay: string) => `cell_dashboard_export_${exportDay}.csv`;

const block = (title: string, header: string[], rows: CsvRow[] = []): CsvRow[] => [[title], header, ...rows];

/**
 * One block per widget: its title, a header row, its rows; blocks apart by an empty line. Figures are plain
 * numbers with a dot for decimals and dates are YYYY-MM-DD, so spreadsheets and scripts read them as values.
 */
export function dashboardCsv(s: DashboardSnapshot): string {
  const blocks: CsvRow[][] = [
    block('Painel', ['Domínio', 'Início', 'Fim'], [[s.domainName, s.range.start, s.range.end]]),
    block(
      'Visualizações de página',
      ['Visualizações', 'Período anterior'],
      s.visits ? [[s.visits.count, s.visits.previous]] : [],
    ),
    block(
      'Visitantes',
      ['Visitantes', 'Período anterior'],
      s.visitors ? [[s.visitors.count, s.visitors.previous]] : [],
    ),
    block('Momentums', ['Inativos', 'Ativos'], s.momentums ? [[s.momentums.inactive, s.momentums.active]] : []),
    block('Visitantes agora', ['Visitantes', 'Em'], s.live ? [[s.live.count, s.live.at]] : []),
    block(
      'Páginas mais visitadas',
      ['URL', 'Mobile', 'Desktop', 'Total'],
      s.mostViewed?.rows.map((r) => [r.url, r.mobile, r.desktop, r.count]),
    ),
    block(
      'Visitantes por categoria',
      ['Categoria', 'Visitantes'],
      s.categories?.map((r) => [r.parent_category, r.amount]),
    ),
    block(
      'Visitantes por dispositivo',
      ['Dispositivo', 'Visitantes'],
      s.devices?.map((r) => [deviceLabel(r.device), r.amount]),
    ),
    block(
      'Base por canal',
      ['Canal', 'Pessoas', 'Novas no período'],
      s.base?.map((r) => [CHANNEL_LABELS[r.channel] ?? r.channel, r.amount, r.new]),
    ),
    block(
      'Desempenho dos momentums',
      [
        'Momentum',
        'Tipo',
        'Enviadas',
        'Visualizadas',
        'Cliques',
        'CTR (%)',
        'Conversões',
        'Receita (R$)',
        'Acessos ao carrinho',
        '% carrinho',
      ],
      s.performance?.map((r) => [
        r.momentum_title,
        MOMENTUM_TYPE_LABELS[r.type] ?? r.type,
        r.notifications_sent,
        r.notifications_viewed,
        r.notifications_clicked,
        r.notifications_ctr,
        r.not_convertion,
        r.not_convertion_profit.toFixed(2),
        r.not_cart_access,
        r.not_cart_access_percent,
      ]),
    ),
    block(
      'Impacto por momentum',
      ['Data', 'Momentum', 'Enviadas', 'Visualizadas', 'Cliques'],
      s.daily?.map((r) => [
        r.date,
        r.momentum_title,
        r.notifications_sent,
        r.notifications_viewed,
        r.notifications_clicked,
      ]),
    ),
    block(
      'Impacto por evento',
      ['Data', 'Categoria', 'Visitantes'],
      s.event?.rows.map((r) => [r.date, s.event?.category, r.amount]),
    ),
    block(
      'Opt-ins e opt-outs por dia',
      ['Data', 'Opt-ins', 'Opt-outs'],
      s.optins?.map((r) => [r.date, r.optins, r.optouts]),
    ),
    ...(s.experiments ?? []).map(experimentBlock),
    ...(s.journeys ?? []).map(journeyBlock),
  ];
  return toCsv(blocks.flatMap((rows, i) => (i === 0 ? rows : [[], ...rows])));
}

const fixed = (n: number | null, digits = 2) => (n === null ? null : Number(n.toFixed(digits)));

/** One momentum's experiment: its arms, then each variant against the control with the verdict. */
function experimentBlock(e: ExperimentReport): CsvRow[] {
  const rows: CsvRow[] = e.arms.map((a) => [
    a.label,
    a.share,
    a.assigned,
    a.sent,
    a.viewed,
    a.clicked,
    a.conversions,
    a.converted,
    a.revenue.toFixed(2),
    fixed(a.conversion_rate),
    fixed(a.click_rate),
  ]);
  const label = (arm: string) => e.arms.find((a) => a.arm === arm)?.label ?? arm;
  const comparisons: CsvRow[] = e.against_control.map((c) => [
    label(c.arm),
    fixed(c.lift_pp),
    fixed(c.ci_low_pp),
    fixed(c.ci_high_pp),
    c.p_value === null ? null : Number(c.p_value.toPrecision(3)),
    c.incremental_revenue.toFixed(2),
    c.verdict,
  ]);
  return block(
    `Teste A/B: ${e.momentum_title}`,
    [
      'Grupo',
      'Parcela (%)',
      'Pessoas',
      'Enviadas',
      'Visualizadas',
      'Cliques',
      'Conversões',
      'Pessoas que converteram',
      'Receita (R$)',
      'Taxa de conversão (%)',
      'Taxa de cliques (%)',
    ],
    [
      ...rows,
      ...(comparisons.length
        ? [
            [],
            [
              'Contra o controle',
              'Diferença (p.p.)',
              'IC 95 % de',
              'IC 95 % até',
              'Valor-p',
              'Receita incremental (R$)',
              'Conclusão',
            ],
            ...comparisons,
          ]
        : []),
    ],
  );
}

/** One momentum's journey: a row per step and branch, step 0 being the first message. */
function journeyBlock(j: DomainJourneyReport): CsvRow[] {
  return block(
    `Jornada: ${j.momentum_title}`,
    [
      'Etapa',
      'Alcançaram',
      'Saíram pela condição',
      'Saíram ao converter',
      'Enviadas',
      'Visualizadas',
      'Cliques',
      'Conversões',
      'Receita (R$)',
    ],
    j.steps.map((r) => [
      r.step === 0 ? 'Primeira mensagem' : r.branch === 'otherwise' ? `Etapa ${r.step} · senão` : `Etapa ${r.step}`,
      r.reached,
      r.left_by_condition,
      r.exited_conversion,
      r.sent,
      r.viewed,
      r.clicked,
      r.conversions,
      r.revenue.toFixed(2),
    ]),
  );
}

/** The journeys' tables, like the experiments' (below): asked for at export time; a failure leaves them out. */
export async function fetchJourneys(queryClient: QueryClient, params: WidgetParams) {
  try {
    return await queryClient.fetchQuery(domainJourneysQueryOptions(params));
  } catch {
    return undefined;
  }
}

/**
 * The experiments' tables are no widget's: they are asked for when the export is (one request); a failure leaves
 * them out and the rest of the export is written.
 */
export async function fetchExperiments(queryClient: QueryClient, params: WidgetParams) {
  try {
    return await queryClient.fetchQuery(domainExperimentsQueryOptions(params));
  } catch {
    return undefined;
  }
}

/** Reads what every widget currently shows from the query cache: the export sends no request. */
export function snapshotFromCache(
  queryClient: QueryClient,
  input: { domainUuid: string; domainName: string; range: AnalyticsRange; eventCategory: string },
): DashboardSnapshot {
  const params = { domainUuid: input.domainUuid, range: input.range };
  const get = <T>(options: { queryKey: readonly unknown[] }) => queryClient.getQueryData<T>(options.queryKey);
  const categories = get<CategoryRow[]>(visitorsByCategoryQueryOptions(params));
  const category = categories?.find((c) => c.category_uuid === input.eventCategory);
  const eventRows = category
    ? get<EventDailyRow[]>(eventDailyImpactQueryOptions(input.domainUuid, category.category_uuid, input.range))
    : undefined;
  return {
    domainName: input.domainName,
    range: input.range,
    visits: get(visitsQueryOptions(params)),
    visitors: get(visitorsQueryOptions(params)),
    momentums: get(momentumCountsQueryOptions(params)),
    live: get(liveQueryOptions(input.domainUuid)),
    mostViewed: get(mostViewedPagesQueryOptions(params)),
    categories,
    devices: get(visitorsByDeviceQueryOptions(params)),
    base: get(baseByChannelQueryOptions(params)),
    performance: get(momentumPerformanceQueryOptions(params)),
    daily: get(momentumsDailyQueryOptions(params)),
    event: category && eventRows ? { category: category.parent_category, rows: eventRows } : undefined,
    optins: get(optinsDailyQueryOptions(params)),
  };
}
