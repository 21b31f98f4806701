import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Logo } from '../components/ui/logo.tsx';
import { usePageTitle } from '../lib/page-title.ts';

export default function NotFoundPage() {
  usePageTitle('Página não encontrada');
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="md" ta="center">
        <Logo />
        <Text
          fw={900}
          fz={{ base: 96, sm: 140 }}
          lh={1}
          variant="gradient"
          gradient={{ from: 'brand.7', to: 'violet.3', deg: 135 }}
          aria-hidden
        >
          404
        </Text>
        <Title order={1} fz={28}>
          404 / Página não encontrada
        </Title>
        <Text c="dimmed" maw={420}>
          O endereço acessado não existe ou foi movido.
        </Text>
        <Button component={Link} to="/" leftSection={<IconArrowLeft size={16} />} size="md">
          Voltar para o início
        </Button>
      </Stack>
    </Center>
  );
}
