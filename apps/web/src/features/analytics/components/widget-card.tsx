import { Alert, Box, Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type ReactNode, useId } from 'react';
import { errorMessage } from '../../../lib/api.ts';

/** What a widget card needs of its query: TanStack Query's own fields. */
export interface WidgetQueryState {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

export function WidgetSkeleton({ height = 160 }: { height?: number }) {
  return (
    <Stack gap="xs" aria-hidden>
      <Skeleton height={12} width="40%" />
      <Skeleton height={height - 24} />
    </Stack>
  );
}

/**
 * One dashboard widget: its own title, skeleton while its request runs, its own error (the server's message,
 * with a retry) when the request fails. A failing widget never blanks the others.
 */
export function WidgetCard({
  title,
  description,
  icon,
  actions,
  query,
  skeleton,
  footer,
  children,
}: {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  actions?: ReactNode;
  query: WidgetQueryState;
  skeleton?: ReactNode;
  footer?: ReactNode;
  children: () => ReactNode;
}) {
  const titleId = useId();
  return (
    <Card
      component="section"
      withBorder
      padding="lg"
      h="100%"
      aria-labelledby={titleId}
      aria-busy={query.isPending && !query.isError ? 'true' : undefined}
      style={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}
    >
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs" mb="md">
        <Group gap="xs" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
          {icon ? (
            <Box c="brand.6" mt={2} style={{ display: 'flex' }}>
              {icon}
            </Box>
          ) : null}
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={3} size="h5" id={titleId}>
              {title}
            </Title>
            {description ? (
              <Text size="xs" c="dimmed">
                {description}
              </Text>
            ) : null}
          </Stack>
        </Group>
        {actions && !query.isError ? <Group gap="xs">{actions}</Group> : null}
      </Group>
      <Box style={{ flex: 1, minWidth: 0 }}>
        {query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="Não foi possível carregar">
            <Text size="sm" mb="sm">
              {errorMessage(query.error)}
            </Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => query.refetch()}>
              Tentar novamente
            </Button>
          </Alert>
        ) : query.isPending ? (
          (skeleton ?? <WidgetSkeleton />)
        ) : (
          children()
        )}
      </Box>
      {footer && !query.isError && !query.isPending ? <Box mt="sm">{footer}</Box> : null}
    </Card>
  );
}

/** A widget's empty state: what is missing and what to do about it. */
export function WidgetEmpty({ icon, title, hint }: { icon: ReactNode; title: string; hint?: ReactNode }) {
  return (
    <Stack align="center" gap={6} py="lg" ta="center">
      <Box c="gray.5" style={{ display: 'flex' }}>
        {icon}
      </Box>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed" maw={360}>
          {hint}
        </Text>
      ) : null}
    </Stack>
  );
}
