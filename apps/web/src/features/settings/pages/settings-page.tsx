import { Alert, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useSession } from '../../../lib/session.ts';
import { useCompany } from '../api/get-company.ts';
import { CompanyCard } from '../components/company-card.tsx';
import { CompanyModal, type CompanyModalMode } from '../components/company-modal.tsx';

function CompanyCardSkeleton() {
  return (
    <Card withBorder padding="lg" aria-busy="true" aria-label="Carregando dados da empresa">
      <Group gap="md">
        <Skeleton height={48} width={48} radius="md" />
        <Stack gap={8}>
          <Skeleton height={18} width={220} />
          <Skeleton height={12} width={160} />
        </Stack>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg" mt="lg">
        {['a', 'b', 'c', 'd', 'e', 'f'].map((key) => (
          <Stack key={key} gap={6}>
            <Skeleton height={10} width={90} />
            <Skeleton height={14} width="80%" />
          </Stack>
        ))}
      </SimpleGrid>
    </Card>
  );
}

export default function SettingsPage() {
  usePageTitle('Configurações');
  const session = useSession();
  const companyQuery = useCompany(session?.company_uuid ?? '');
  const [modal, setModal] = useState<{ opened: boolean; mode: CompanyModalMode }>({ opened: false, mode: 'view' });

  return (
    <>
      <PageHeader title="Configurações" description="Dados cadastrais da sua empresa." />
      {companyQuery.isPending ? (
        <CompanyCardSkeleton />
      ) : companyQuery.isError ? (
        <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar os dados da empresa" maw={640}>
          <Text size="sm" mb="sm">
            {errorMessage(companyQuery.error)}
          </Text>
          <Button size="xs" variant="light" color="red" onClick={() => companyQuery.refetch()}>
            Tentar novamente
          </Button>
        </Alert>
      ) : (
        <>
          <CompanyCard company={companyQuery.data} onOpen={(mode) => setModal({ opened: true, mode })} />
          <CompanyModal
            opened={modal.opened}
            mode={modal.mode}
            company={companyQuery.data}
            onClose={() => setModal((m) => ({ ...m, opened: false }))}
            onModeChange={(mode) => setModal({ opened: true, mode })}
          />
        </>
      )}
    </>
  );
}
