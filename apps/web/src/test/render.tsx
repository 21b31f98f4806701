import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { routes } from '../app/router.tsx';
import { type Session, saveSession } from '../lib/session.ts';

export function renderApp(path: string, state?: unknown) {
  const url = new URL(path, 'http://localhost');
  const router = createMemoryRouter(routes, {
    initialEntries: [{ pathname: url.pathname, search: url.search, state }],
  });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({
    queries: { retry: false, staleTime: Number.POSITIVE_INFINITY },
    mutations: { retry: false },
  });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

export const COMPANY = '6f1c2b1e-5d8a-4c7e-9a31-2b8f0d4e6a10';

export function signIn(overrides: Partial<Session> = {}) {
  const session: Session = {
    name: 'Ana Souza',
    username: 'ana',
    company_uuid: COMPANY,
    user_uuid: '0b7e4f5a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
    bearer_token: 'token-123',
    expire_date: new Date(Date.now() + 3600_000).toISOString(),
    modules: { analytics: true },
    ...overrides,
  };
  saveSession(session, false);
  return session;
}

type Handler = (url: string, init: RequestInit & { json?: unknown }) => { status?: number; body: unknown } | undefined;

/** Stubs global fetch with a router of handlers; unmatched calls answer 404 in the API's error shape. */
export function mockFetch(handler: Handler) {
  const calls: { url: string; method: string; headers: Record<string, string>; json: unknown }[] = [];
  const fn = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const json = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ url, method: init.method ?? 'GET', headers: (init.headers ?? {}) as Record<string, string>, json });
    const answer = handler(url, { ...init, json }) ?? {
      status: 404,
      body: { message: 'Rota não encontrada.', code: 'ROUTE_NOT_FOUND' },
    };
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
