import { Skeleton } from '@mantine/core';
import { type ComponentProps, lazy, Suspense } from 'react';

const kit = () => import('./chart-kit.ts');
const LazyAreaChart = lazy(() => kit().then((m) => ({ default: m.AreaChart })));
const LazyBarChart = lazy(() => kit().then((m) => ({ default: m.BarChart })));
const LazyBarsList = lazy(() => kit().then((m) => ({ default: m.BarsList })));
const LazyDonutChart = lazy(() => kit().then((m) => ({ default: m.DonutChart })));
const LazyLineChart = lazy(() => kit().then((m) => ({ default: m.LineChart })));
const LazyPieChart = lazy(() => kit().then((m) => ({ default: m.PieChart })));

const fallback = (height: number | string | undefined) => <Skeleton height={height ?? 200} radius="md" />;

type ChartKit = typeof import('./chart-kit.ts');
type ChartProps<T extends keyof ChartKit> = ComponentProps<ChartKit[T]>;

export const AreaChart = (props: ChartProps<'AreaChart'>) => (
  <Suspense fallback={fallback(props.h as number)}>
    <LazyAreaChart {...props} />
  </Suspense>
);
export const BarChart = (props: ChartProps<'BarChart'>) => (
  <Suspense fallback={fallback(props.h as number)}>
    <LazyBarChart {...props} />
  </Suspense>
);
export const BarsList = (props: ChartProps<'BarsList'>) => (
  <Suspense fallback={fallback(120)}>
    <LazyBarsList {...props} />
  </Suspense>
);
export const DonutChart = (props: ChartProps<'DonutChart'>) => (
  <Suspense fallback={fallback(props.size ?? 160)}>
    <LazyDonutChart {...props} />
  </Suspense>
);
export const LineChart = (props: ChartProps<'LineChart'>) => (
  <Suspense fallback={fallback(props.h as number)}>
    <LazyLineChart {...props} />
  </Suspense>
);
export const PieChart = (props: ChartProps<'PieChart'>) => (
  <Suspense fallback={fallback(props.size ?? 200)}>
    <LazyPieChart {...props} />
  </Suspense>
);
