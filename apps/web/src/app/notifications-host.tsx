import { Notifications } from '@mantine/notifications';

/** Mantine's toasts as the dashboard shows them; loaded by `AppProviders` with the first toast. */
export default function NotificationsHost() {
  return <Notifications position="top-right" autoClose={4000} limit={5} />;
}
