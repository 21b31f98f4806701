// The chart library and its styles, in their own chunk: only the dashboard pays for Recharts.
import '@mantine/charts/styles.css';

export { AreaChart, BarChart, BarsList, DonutChart, LineChart, PieChart } from '@mantine/charts';
