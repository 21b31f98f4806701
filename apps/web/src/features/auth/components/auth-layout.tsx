import { Anchor, Box, Center, Container, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../../components/ui/logo.tsx';

const background =
  'radial-gradient(1200px 600px at 10% -10%, var(--mantine-color-brand-1), transparent 60%), radial-gradient(900px 500px at 110% 110%, var(--mantine-color-violet-1), transparent 60%), var(--mantine-color-gray-0)';

interface Props {
  children: ReactNode;
  /** Sign-up pages have a top bar with the logo linking to / (doc 1 §2); the others show the brand above the card. */
  withTopBar?: boolean;
  width?: number;
}

export function AuthLayout({ children, withTopBar = false, width = 440 }: Props) {
  return (
    <Box mih="100vh" style={{ background, display: 'flex', flexDirection: 'column' }}>
      {withTopBar ? (
        <Box
          component="header"
          px="lg"
          py="sm"
          bg="white"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
        >
          <Group justify="space-between">
            <Anchor component={Link} to="/" underline="never" aria-label="Ímpeto: página inicial">
              <Logo size="sm" />
            </Anchor>
            <Text size="sm" c="dimmed">
              Já tem conta?{' '}
              <Anchor component={Link} to="/signin" size="sm" fw={600}>
                Entrar
              </Anchor>
            </Text>
          </Group>
        </Box>
      ) : null}
      <Center style={{ flex: 1 }} py={48} px="md">
        <Container size={width} p={0} w="100%">
          <Stack gap="lg">
            {withTopBar ? null : (
              <Center>
                <Logo size="lg" />
              </Center>
            )}
            <Paper withBorder shadow="md" radius="lg" p={{ base: 'lg', sm: 32 }}>
              {children}
            </Paper>
            <Text ta="center" size="xs" c="dimmed">
              © {new Date().getFullYear()} Ímpeto · Automação de marketing para o seu site
            </Text>
          </Stack>
        </Container>
      </Center>
    </Box>
  );
}
