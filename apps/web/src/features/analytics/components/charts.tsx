import { Box, Skeleton } from '@mantine/core';
import {
  type ComponentProps,
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  useEffect,
  useRef,
  useState,
} from 'react';

// Recharts and Mantine's charts (~125 KB gzipped) are fetched when the first chart comes on screen, not with the
// page itself: a card below the fold shows its skeleton until it is scrolled to. BarsList draws no SVG and needs no
// Recharts, so it comes alone.
const kit = () => import('./chart-kit.ts');
const LazyAreaChart = lazy(() => kit().then((m) => ({ default: m.AreaChart })));
const LazyBarChart = lazy(() => kit().then((m) => ({ default: m.BarChart })));
const LazyBarsList = lazy(() => import('./bars-list-kit.ts').then((m) => ({ default: m.BarsList })));
const LazyDonutChart = lazy(() => kit().then((m) => ({ default: m.DonutChart })));
const LazyLineChart = lazy(() => kit().then((m) => ({ default: m.LineChart })));
const LazyPieChart = lazy(() => kit().then((m) => ({ default: m.PieChart })));

/** A chart loads as soon as a pixel of its placeholder is on screen. */
const NEAR_SCREEN = '0px';

/** True once the placeholder has been near the screen (at once where IntersectionObserver is missing, as in jsdom). */
function useNearScreen() {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR_SCREEN },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return { ref, near };
}

function ChartSlot<P extends object>({
  chart: Chart,
  props,
  height,
}: {
  chart: ComponentType<P>;
  props: P;
  height: number | string | undefined;
}): ReactNode {
  const { ref, near } = useNearScreen();
  const skeleton = <Skeleton height={height ?? 200} radius="md" />;
  if (!near) return <Box ref={ref}>{skeleton}</Box>;
  return (
    <Suspense fallback={skeleton}>
      <Chart {...props} />
    </Suspense>
  );
}

type ChartKit = typeof import('./chart-kit.ts');
type ChartProps<T extends keyof ChartKit> = ComponentProps<ChartKit[T]>;

export const AreaChart = (props: ChartProps<'AreaChart'>) => (
  <ChartSlot chart={LazyAreaChart} props={props} height={props.h as number} />
);
export const BarChart = (props: ChartProps<'BarChart'>) => (
  <ChartSlot chart={LazyBarChart} props={props} height={props.h as number} />
);
export const BarsList = (props: ComponentProps<typeof import('./bars-list-kit.ts')['BarsList']>) => (
  <ChartSlot chart={LazyBarsList} props={props} height={120} />
);
export const DonutChart = (props: ChartProps<'DonutChart'>) => (
  <ChartSlot chart={LazyDonutChart} props={props} height={props.size ?? 160} />
);
export const LineChart = (props: ChartProps<'LineChart'>) => (
  <ChartSlot chart={LazyLineChart} props={props} height={props.h as number} />
);
export const PieChart = (props: ChartProps<'PieChart'>) => (
  <ChartSlot chart={LazyPieChart} props={props} height={props.size ?? 200} />
);
