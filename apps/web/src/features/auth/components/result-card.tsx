import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

interface Props {
  icon: ReactNode;
  color: string;
  title: string;
  description?: ReactNode;
  action: { label: string; to: string };
}

/** A one-message page inside the auth card: validation result, recovery confirmation. */
export function ResultCard({ icon, color, title, description, action }: Props) {
  return (
    <Stack align="center" gap="md" ta="center" py="sm">
      <ThemeIcon size={64} radius="xl" variant="light" color={color}>
        {icon}
      </ThemeIcon>
      <Title order={2} fz={22}>
        {title}
      </Title>
      {description ? <Text c="dimmed">{description}</Text> : null}
      <Button component={Link} to={action.to} mt="sm">
        {action.label}
      </Button>
    </Stack>
  );
}
