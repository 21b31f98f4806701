import type { AnalyticsRange, CategoryRow } from '@impeto/shared';
import { Button, Grid, SimpleGrid, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconShoppingCart } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { lazyModal } from '../../../components/ui/lazy-modal.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useSelectedDomain } from '../../../lib/domain-store.ts';
import { formatDay } from '../../../lib/format.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { visitorsByCategoryQueryOptions } from '../api/visitors-by-category.ts';
import { BaseByChannel } from '../components/base-by-channel.tsx';
import { EventImpact, pickCategory } from '../components/event-impact.tsx';
import { ExportMenu } from '../components/export-menu.tsx';
import { LiveVisitorsCard } from '../components/live-visitors-card.tsx';
import { MomentumImpact } from '../components/momentum-impact.tsx';
import { MomentumPerformance } from '../components/momentum-performance.tsx';
import { MomentumsCard } from '../components/momentums-card.tsx';
import { MostViewedPages } from '../components/most-viewed-pages.tsx';
import { OnboardingCard } from '../components/onboarding-card.tsx';
import { OptinsChart } from '../components/optins-chart.tsx';
import { PageViewsCard } from '../components/page-views-card.tsx';
import { RangePicker } from '../components/range-picker.tsx';
import { VisitorsByCategory } from '../components/visitors-by-category.tsx';
import { VisitorsByDevice } from '../components/visitors-by-device.tsx';
import { VisitorsCard } from '../components/visitors-card.tsx';
import { rangeFromParams, todayInZone } from '../range.ts';

// The conversion settings form (and its zod schema) is fetched when the dialog opens.
const ConversionSettingsModal = lazyModal(() =>
  import('../components/conversion-settings-modal.tsx').then((m) => m.ConversionSettingsModal),
);

/**
 * The dashboard every user lands on (spec doc 1 §2 "Analytics dashboard"). The domain comes from `?domain=` (the
 * shell's guard sends to /domains when there is no usable one); the period lives in `?start=&end=`.
 */
export default function AnalyticsPage() {
  usePageTitle('Analytics');
  const [params, setParams] = useSearchParams();
  const domainUuid = params.get('domain') ?? '';
  const selected = useSelectedDomain();
  const range = rangeFromParams(params);
  const eventParam = params.get('event');
  const queryClient = useQueryClient();
  const [settingsOpened, settings] = useDisclosure(false);
  const domainName = selected?.uuid === domainUuid ? selected.name : '';
  const widget = { domainUuid, range };

  const update = (changes: Record<string, string>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) next.set(key, value);
        return next;
      },
      { replace: false },
    );

  const changeRange = (next: AnalyticsRange) => update({ start: next.start, end: next.end });

  // The CSV writer is fetched on the first export, not with the page.
  const exportCsv = async () => {
    const { dashboardCsv, exportFileName, snapshotFromCache, fetchExperiments, fetchJourneys } = await import(
      '../dashboard-csv.ts'
    );
    const categories = queryClient.getQueryData<CategoryRow[]>(visitorsByCategoryQueryOptions(widget).queryKey);
    const snapshot = snapshotFromCache(queryClient, {
      domainUuid,
      domainName,
      range,
      eventCategory: pickCategory(categories ?? [], eventParam),
    });
    const [experiments, journeys] = await Promise.all([
      fetchExperiments(queryClient, widget),
      fetchJourneys(queryClient, widget),
    ]);
    return { fileName: exportFileName(todayInZone()), text: dashboardCsv({ ...snapshot, experiments, journeys }) };
  };

  const period =
    range.start === range.end ? formatDay(range.start) : `${formatDay(range.start)} a ${formatDay(range.end)}`;

  return (
    <>
      <PageHeader
        title="Analytics"
        description={domainName ? `${domainName} · ${period}` : period}
        actions={
          <>
            <RangePicker value={range} onChange={changeRange} />
            <Button variant="default" leftSection={<IconShoppingCart size={16} />} onClick={settings.open}>
              Conversões
            </Button>
            <ExportMenu onCsv={exportCsv} />
          </>
        }
      />
      <Stack gap="lg">
        <OnboardingCard domainUuid={domainUuid} />
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="lg">
          <PageViewsCard {...widget} />
          <VisitorsCard {...widget} />
          <MomentumsCard {...widget} />
          <LiveVisitorsCard domainUuid={domainUuid} />
        </SimpleGrid>
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <MostViewedPages {...widget} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <VisitorsByDevice {...widget} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <OptinsChart {...widget} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <BaseByChannel {...widget} />
          </Grid.Col>
          <Grid.Col span={12}>
            <MomentumPerformance {...widget} />
          </Grid.Col>
          <Grid.Col span={12}>
            <MomentumImpact {...widget} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <VisitorsByCategory {...widget} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <EventImpact {...widget} category={eventParam} onCategoryChange={(uuid) => update({ event: uuid })} />
          </Grid.Col>
        </Grid>
      </Stack>
      <ConversionSettingsModal domainUuid={domainUuid} opened={settingsOpened} onClose={settings.close} />
    </>
  );
}
