import { BarChart } from '@mantine/charts';

/** People reached per day (its own chunk: only a simulation that answered pays for the chart library). */
export default function SimulationChart({ data }: { data: { date: string; pessoas: number }[] }) {
  return (
    <BarChart
      h={140}
      data={data}
      dataKey="date"
      series={[{ name: 'pessoas', label: 'Pessoas', color: 'blue.6' }]}
      tickLine="none"
      gridAxis="y"
      withTooltip
      aria-label="Pessoas alcançadas por dia"
    />
  );
}
