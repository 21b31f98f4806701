import type { Plugin } from 'vite';

/** `@mantine/core/esm/components/Button/Button.module.mjs` → `Button`: the class map each component ships. */
const CORE_MODULE = /[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/](\w+)\.module\.mjs$/;
/** The packages with one stylesheet for all their components. */
const PACKAGE_MODULE = /[\\/]@mantine[\\/](dates|charts|notifications|dropzone)[\\/]esm[\\/].*\.module\.mjs$/;

/** The stylesheet a Mantine module needs, or null. */
export function mantineStylesheetFor(id: string): string | null {
  const core = CORE_MODULE.exec(id);
  if (core) return `@mantine/core/styles/${core[1]}.css`;
  const pkg = PACKAGE_MODULE.exec(id);
  if (pkg) return `@mantine/${pkg[1]}/styles.css`;
  return null;
}

/**
 * Mantine's styles follow its components: each component's class map (`X.module.mjs`) imports the component's
 * stylesheet (`@mantine/core/styles/X.css`; one `styles.css` for dates, charts, notifications, dropzone), so the CSS
 * lands in the chunk that renders the component and a page downloads only the styles of what it shows. Mantine's
 * own order holds: a component's module is imported after the components it builds on. The base stylesheets
 * (baseline, CSS variables, global) stay in `src/app/mantine-base.css`, loaded by the entry.
 */
export function mantineStylesOnUse(): Plugin {
  return {
    name: 'impeto:mantine-styles-on-use',
    enforce: 'pre',
    transform: {
      filter: { id: /[\\/]@mantine[\\/].*\.module\.mjs$/ },
      handler(code, id) {
        const sheet = mantineStylesheetFor(id);
        return sheet ? { code: `import ${JSON.stringify(sheet)};\n${code}`, map: null } : null;
      },
    },
  };
}
