import { MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { queryClient as defaultClient } from './query-client.ts';
import { theme } from './theme.ts';

/** Under Vitest, Mantine skips transitions and jsdom's zero-size layout does not hide dropdowns. */
const MANTINE_ENV = import.meta.env.MODE === 'test' ? 'test' : 'default';

const loadNotificationsHost = () => import('./notifications-host.tsx');
const NotificationsHost = lazy(loadNotificationsHost);
// Under Vitest the host is imported up front, so a toast shows as promptly as the tests expect.
if (MANTINE_ENV === 'test') void loadNotificationsHost();

/**
 * The toasts' component (with its transitions and styles) is fetched when the first toast is shown, not with every
 * page; the toast waits in Mantine's store meanwhile, then stays mounted.
 */
function NotificationsOnDemand() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  return needed ? (
    <Suspense fallback={null}>
      <NotificationsHost />
    </Suspense>
  ) : null;
}

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
          <NotificationsOnDemand />
          {children}
        </DatesProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
