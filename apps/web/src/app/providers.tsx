import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient as defaultClient } from './query-client.ts';
import { theme } from './theme.ts';

/** Under Vitest, Mantine skips transitions and jsdom's zero-size layout does not hide dropdowns. */
const MANTINE_ENV = import.meta.env.MODE === 'test' ? 'test' : 'default';

export function AppProviders({
  children,
  queryClient = defaultClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} defaultColorScheme="light" env={MANTINE_ENV}>
        <DatesProvider settings={{ locale: 'pt-br', firstDayOfWeek: 0 }}>
          <Notifications position="top-right" autoClose={4000} limit={5} />
          {children}
        </DatesProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
