// Mantine's BarsList is plain HTML: its own chunk, without Recharts.
export { BarsList } from '@mantine/charts';
