/** Series colours of the dashboard's charts, in order (Mantine theme colours, readable on white). */
export const SERIES_COLORS = [
  'brand.6',
  'teal.6',
  'orange.6',
  'cyan.6',
  'pink.6',
  'yellow.6',
  'grape.6',
  'lime.7',
  'indigo.4',
  'gray.6',
] as const;

export const seriesColor = (index: number) => SERIES_COLORS[index % SERIES_COLORS.length] ?? 'gray.6';

/** The path and query of a page address, for labels; the whole text when it is not a URL. */
export function pageLabel(url: string) {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}` || '/';
  } catch {
    return url;
  }
}
