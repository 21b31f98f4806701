import type { DomainItem } from '@impeto/shared';
import { ModalsProvider } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { QueryClient } from '@tanstack/react-query';
import { type RenderResult, render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { onTestFinished, vi } from 'vitest';
import { AppProviders } from '../app/providers.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { routes } from '../app/router.tsx';
import { type Session, saveSession } from '../lib/session.ts';

export const COMPANY = '6f1c2b1e-5d8a-4c7e-9a31-2b8f0d4e6a10';
export const USER = '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b';
export const DOMAIN = '11111111-1111-4111-8111-111111111111';

/** An allowed (Active, validated) domain of COMPANY, as `GET /api/domain/list/:company` lists it. */
export const testDomain = (overrides: Partial<DomainItem> = {}): DomainItem => ({
  uuid: DOMAIN,
  name: 'Loja Aurora',
  domain: 'https://loja.example.com',
  domain_root: 'https://loja.example.com',
  gero_id: 'G-1',
  gero_validate: true,
  gero_version: '1.0.0',
  cn_sw_version: '1.0.0',
  status: 'Active',
  active: true,
  ...overrides,
});

/** Stores a signed-in session (sessionStorage, as without 'Manter conectado'). */
export function signIn(overrides: Partial<Session> = {}) {
  const session: Session = {
    name: 'Ana Souza',
    username: 'ana',
    company_uuid: COMPANY,
    user_uuid: USER,
    bearer_token: 'token-123',
    expire_date: new Date(Date.now() + 3600_000).toISOString(),
    modules: { analytics: true },
    ...overrides,
  };
  saveSession(session, false);
  return session;
}

export type Reply = { status?: number; body: unknown };
export type FetchRequest = RequestInit & { json?: unknown };
export type FetchHandler = (url: string, init: FetchRequest) => Reply | undefined;
/** Exact URL → reply; a key may start with the method (`'PUT /api/x'`), else it answers any method. */
export type FetchRoutes = Record<string, Reply | FetchHandler>;
export type FetchStub = FetchHandler | FetchRoutes | (FetchHandler | FetchRoutes)[];
export type FetchCall = { url: string; method: string; headers: Record<string, string>; json: unknown };

/** The API's success envelope. */
export const ok = (data: unknown, message = 'ok'): Reply => ({ body: { message, data } });

const NOT_FOUND: Reply = { status: 404, body: { message: 'Rota não encontrada.', code: 'ROUTE_NOT_FOUND' } };

function toHandler(stub: FetchHandler | FetchRoutes): FetchHandler {
  if (typeof stub === 'function') return stub;
  return (url, init) => {
    const method = init.method ?? 'GET';
    const route = stub[`${method} ${url}`] ?? stub[url];
    return typeof route === 'function' ? route(url, init) : route;
  };
}

/**
 * Stubs global fetch: each stub is asked in order (handlers and route maps alike), the first reply wins; unmatched
 * calls answer 404 in the API's error shape. Returns the list of calls, filled as they happen.
 */
export function stubFetch(stub: FetchStub = []) {
  const handlers = (Array.isArray(stub) ? stub : [stub]).map(toHandler);
  const calls: FetchCall[] = [];
  const fn = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const json = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ url, method: init.method ?? 'GET', headers: (init.headers ?? {}) as Record<string, string>, json });
    let answer: Reply | undefined;
    for (const handler of handlers) {
      answer = handler(url, { ...init, json });
      if (answer) break;
    }
    answer ??= NOT_FOUND;
    return new Response(JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  };
  vi.stubGlobal('fetch', fn);
  return calls;
}

/** Plain JSON requests: tests read bodies without opening envelopes (the envelope has its own test). */
export function withoutWebCrypto() {
  const original = globalThis.crypto;
  Object.defineProperty(globalThis, 'crypto', {
    configurable: true,
    value: { getRandomValues: original.getRandomValues.bind(original) },
  });
  return () => Object.defineProperty(globalThis, 'crypto', { configurable: true, value: original });
}

/** A phone's viewport for Mantine's `useMediaQuery`: every `max-width` query matches (restored with the spies). */
export function phoneViewport() {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query.includes('max-width'),
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList,
  );
}

let restoreCrypto: (() => void) | undefined;

export interface RenderPageOptions {
  /** A component's router location (default '/'); a page is given by its path instead. */
  route?: string;
  /** Navigation state of the first location (e.g. `{ from: '/settings' }`). */
  state?: unknown;
  /** Signs in first: `true`, or the session's fields to change (e.g. an `expire_date` in the past). */
  session?: boolean | Partial<Session>;
  /** What `GET /api/domain/list/:company` lists; `[testDomain()]` once signed in, unless given. */
  domains?: unknown[];
  /** The API: asked before the domain list, so a test may answer that route its own way. */
  fetch?: FetchStub;
}

function testQueryClient() {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { retry: false, staleTime: Number.POSITIVE_INFINITY, refetchOnWindowFocus: false },
    mutations: { retry: false },
  });
  return queryClient;
}

/** The app's routes at `path`, in the app's providers; no fetch stub, no session (see renderPage). */
export function mountRoutes(path: string, state?: unknown, queryClient = testQueryClient()) {
  const url = new URL(path, 'http://localhost');
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname: url.pathname, search: url.search, state }],
  });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

type ComponentView = RenderResult & { queryClient: QueryClient; calls: FetchCall[] };
type PageView = ComponentView & { router: ReturnType<typeof createMemoryRouter> };

/**
 * Renders a page of the app (a path: the real routes, lazy pages and guard) or a component (inside the same
 * providers, plus the modals provider and a router at `route`), with a fresh query client that neither retries nor
 * refetches, an optional session and a fetch stub. Requests go as plain JSON; WebCrypto and the toasts are restored
 * and cleared when the test ends.
 */
export function renderPage(path: string, options?: RenderPageOptions): PageView;
export function renderPage(ui: ReactElement, options?: RenderPageOptions): ComponentView;
export function renderPage(target: string | ReactElement, options: RenderPageOptions = {}): PageView | ComponentView {
  if (options.session) signIn(options.session === true ? {} : options.session);
  const domains = options.domains ?? (options.session ? [testDomain()] : undefined);
  const stubs = options.fetch === undefined ? [] : Array.isArray(options.fetch) ? options.fetch : [options.fetch];
  const calls = stubFetch(domains ? [...stubs, { [`GET /api/domain/list/${COMPANY}`]: ok(domains) }] : stubs);
  if (!restoreCrypto) {
    restoreCrypto = withoutWebCrypto();
    onTestFinished(() => {
      restoreCrypto?.();
      restoreCrypto = undefined;
      // Toasts live in a module-level store: one test's must not show up in the next.
      notifications.clean();
    });
  }

  const queryClient = testQueryClient();

  if (typeof target === 'string') return { ...mountRoutes(target, options.state, queryClient), calls };

  const url = new URL(options.route ?? '/', 'http://localhost');
  const initialEntries = [{ pathname: url.pathname, search: url.search, state: options.state }];
  const Providers = ({ children }: { children: ReactNode }) => (
    <AppProviders queryClient={queryClient}>
      <ModalsProvider labels={{ confirm: 'Confirmar', cancel: 'Cancelar' }}>
        <MemoryRouter initialEntries={initialEntries}>{children}</MemoryRouter>
      </ModalsProvider>
    </AppProviders>
  );
  const view: RenderResult = render(target, { wrapper: Providers });
  return { ...view, queryClient, calls };
}
