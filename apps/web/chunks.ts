import path from 'node:path';
import { build, type PluginOption, type Rolldown } from 'vite';

type Group = 'app' | 'auth' | 'dashboard' | 'ui';

const src = (file: string) => path.resolve(import.meta.dirname, 'src', file);

/** The pages a visitor lands on: `/signin`, and `/` (the private shell with the analytics page). */
const LANDING = {
  signin: [src('features/auth/pages/signin-page.tsx')],
  home: [src('app/shell/private-layout.tsx'), src('features/analytics/pages/analytics-page.tsx')],
};

/** The other public pages, and the toasts a public page may show: what they share with `/` is kept apart for them. */
const PUBLIC = /[\\/]src[\\/](?:features[\\/]auth[\\/]|app[\\/]not-found-page|app[\\/]notifications-host)/;

/** The chunks a set of chunks loads with them: themselves and everything they import statically. */
function chunkClosure(chunks: Map<string, Rolldown.OutputChunk>, roots: Rolldown.OutputChunk[]) {
  const seen = new Set<string>();
  const queue = roots.map((c) => c.fileName);
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(chunks.get(file)?.imports ?? []));
  }
  return seen;
}

/**
 * Where each module of the landing pages goes, read from a first build with Rolldown's own split (one chunk for
 * every set of pages sharing a module: it knows which modules each page really uses once the barrels of Mantine,
 * the icons and `@impeto/shared` are tree-shaken, which the import graph alone does not tell).
 */
export async function planLandingChunks(plugins: PluginOption[]): Promise<Map<string, Group>> {
  const result = await build({
    configFile: false,
    root: import.meta.dirname,
    logLevel: 'silent',
    plugins,
    build: { write: false, rolldownOptions: { experimental: { chunkOptimization: false } } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = new Map<string, Rolldown.OutputChunk>();
  for (const out of outputs) {
    for (const item of out.output) if (item.type === 'chunk') chunks.set(item.fileName, item);
  }
  const all = [...chunks.values()];
  const facades = (ids: string[]) => {
    const found = all.filter((c) => c.facadeModuleId && ids.includes(c.facadeModuleId));
    if (found.length !== ids.length) throw new Error(`chunks: a landing page is missing from the build (${ids})`);
    return found;
  };
  const entry = chunkClosure(
    chunks,
    all.filter((c) => c.isEntry),
  );
  const signin = chunkClosure(chunks, facades(LANDING.signin));
  const home = chunkClosure(chunks, facades(LANDING.home));
  const publicPages = chunkClosure(
    chunks,
    all.filter((c) => c.isDynamicEntry && c.facadeModuleId && PUBLIC.test(c.facadeModuleId)),
  );
  const plan = new Map<string, Group>();
  for (const chunk of all) {
    const file = chunk.fileName;
    const group: Group | null =
      entry.has(file) || (signin.has(file) && home.has(file))
        ? 'app'
        : signin.has(file)
          ? 'auth'
          : home.has(file)
            ? publicPages.has(file)
              ? 'ui'
              : 'dashboard'
            : null;
    if (group) for (const id of chunk.moduleIds) plan.set(id, group);
  }
  return plan;
}

/**
 * The landing pages' code in three chunks rather than a hundred files of 1 KB, each paying its own request and
 * compressing worse alone:
 * - `app`: the entry and what both landing pages use (React, the router, Mantine's core pieces, the API client);
 * - `auth`: what only the sign-in page uses (its form, the ALTCHA widget), shared with the other public pages;
 * - `dashboard`: what only the shell and the analytics page use (already there when the user opens another page);
 * - `ui`: what `/` shares with the other public pages and the toasts but not with `/signin` (so that a sign-up page
 *   or a toast on `/signin` does not fetch the dashboard).
 * The ALTCHA widget stays alone (only the public forms use it, not the dashboard pages that share the `auth` chunk).
 * Everything else (the other pages, the charts, the code editor, the diagram) keeps Rolldown's own split.
 */
export function landingChunkGroups(plan: Map<string, Group>): Rolldown.CodeSplittingGroup[] {
  const groupOf = (id: string) => plan.get(id) ?? null;
  return [
    { name: 'altcha', test: /[\\/]node_modules[\\/]altcha[\\/]/, priority: 40 },
    { name: 'app', test: (id) => groupOf(id) === 'app', priority: 30 },
    { name: 'auth', test: (id) => groupOf(id) === 'auth', priority: 20 },
    { name: 'ui', test: (id) => groupOf(id) === 'ui', priority: 15 },
    { name: 'dashboard', test: (id) => groupOf(id) === 'dashboard', priority: 10 },
  ];
}
