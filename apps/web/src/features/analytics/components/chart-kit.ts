// The chart library in its own chunk (its styles come with it, see mantine-styles.ts): only charts pay for Recharts.
export { AreaChart, BarChart, DonutChart, LineChart, PieChart } from '@mantine/charts';
