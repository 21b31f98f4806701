import { createTheme, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#f2efff',
  '#e0dbfa',
  '#bdb3f0',
  '#9887e7',
  '#7963df',
  '#654cdb',
  '#5a40da',
  '#4a32c2',
  '#412cae',
  '#36249a',
];

export const theme = createTheme({
  primaryColor: 'brand',
  colors: { brand },
  primaryShade: { light: 6, dark: 4 },
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { radius: 'lg' } },
    // Mantine's close button is an icon: without this, screen readers announce an unnamed button in every dialog.
    Modal: { defaultProps: { radius: 'lg', centered: true, closeButtonProps: { 'aria-label': 'Fechar' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Fechar' } } },
  },
});
