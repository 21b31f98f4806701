import { Badge, Box, Group, Paper, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/** A numbered card of a long form (the v2 momentum form, the GCD manager). */
export function FormSection({
  n,
  icon,
  title,
  description,
  locked,
  aside,
  children,
}: {
  n?: number;
  icon: ReactNode;
  title: string;
  description?: string;
  locked?: boolean;
  /** Beside the title, right-aligned. */
  aside?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} component="section" aria-label={title}>
      <Group gap="sm" mb="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={36} radius="md" variant="light">
          {icon}
        </ThemeIcon>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Group gap={8}>
            {n !== undefined ? (
              <Text size="xs" c="dimmed" fw={700}>
                {String(n).padStart(2, '0')}
              </Text>
            ) : null}
            <Title order={4}>{title}</Title>
            {locked ? (
              <Badge size="sm" variant="light" color="gray" leftSection={<IconLock size={11} />}>
                Bloqueado
              </Badge>
            ) : null}
          </Group>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Box>
        {aside}
      </Group>
      {children}
    </Paper>
  );
}
