import {
  createTheme,
  darken,
  defaultVariantColorsResolver,
  type MantineColorsTuple,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';

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

/**
 * Light variants (badges, buttons, alerts) print the colour's shade 6 on its own tint, 2.3 to 3.5:1 for most colours;
 * WCAG AA asks 4.5:1 for their small text (axe-core color-contrast, issue #29). Their text takes shade 9 darkened by a
 * third, which reads at 4.5:1 or more on the tint for every palette colour, yellow included.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'light') return colors;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || !parsed.color || !input.theme.colors[parsed.color]) return colors;
  const text = darken(input.theme.colors[parsed.color]![9], 0.32);
  return { ...colors, color: text, hoverColor: text };
};

export const theme = createTheme({
  // Filled variants pick black or white text by the background's luminance (white on orange 6 was 2.6:1).
  autoContrast: true,
  variantColorResolver,
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
