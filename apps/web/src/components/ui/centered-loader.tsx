import { Center, Loader, Stack, Text } from '@mantine/core';

export function CenteredLoader({
  label = 'Carregando...',
  fullScreen = false,
}: {
  label?: string;
  fullScreen?: boolean;
}) {
  return (
    <Center mih={fullScreen ? '100vh' : 320} role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader size="lg" />
        <Text c="dimmed" size="sm">
          {label}
        </Text>
      </Stack>
    </Center>
  );
}
