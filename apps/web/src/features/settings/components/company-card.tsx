import type { CompanyData } from '@impeto/shared';
import { Badge, Button, Card, EmptyState, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBuildingStore, IconEye, IconPencil, IconPlus } from '@tabler/icons-react';
import { formatCep, formatCnpj, formatPhone, isCompanyRegistered } from './company-format.ts';
import type { CompanyModalMode } from './company-modal.tsx';

function Fact({ label, value }: { label: string; value: string | null }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" truncate title={value ?? undefined}>
        {value || '—'}
      </Text>
    </Stack>
  );
}

/** The company card of the settings page (doc 1 §2): add when incomplete, view and edit once saved. */
export function CompanyCard({ company, onOpen }: { company: CompanyData; onOpen: (mode: CompanyModalMode) => void }) {
  const registered = isCompanyRegistered(company);
  const address = [company.endereco, company.numero].filter(Boolean).join(', ');
  const place = [company.cidade, company.uf].filter(Boolean).join('/');

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        <Group gap="md" wrap="nowrap">
          <ThemeIcon size={48} radius="md" variant="light">
            <IconBuildingStore size={26} />
          </ThemeIcon>
          <Stack gap={2}>
            <Group gap="xs">
              <Title order={4}>{company.name}</Title>
              <Badge variant="light" color={registered ? 'green' : 'yellow'} radius="sm">
                {registered ? 'Cadastro completo' : 'Cadastro incompleto'}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {registered ? `CNPJ ${formatCnpj(company.document.number)}` : 'Dados cadastrais da empresa'}
            </Text>
          </Stack>
        </Group>
        {registered ? (
          <Group gap="xs">
            <Button variant="default" leftSection={<IconEye size={16} />} onClick={() => onOpen('view')}>
              Visualizar
            </Button>
            <Button leftSection={<IconPencil size={16} />} onClick={() => onOpen('edit')}>
              Editar
            </Button>
          </Group>
        ) : null}
      </Group>

      {registered ? (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg" verticalSpacing="md" mt="lg">
          <Fact label="Razão social" value={company.razao_social} />
          <Fact label="CNPJ" value={formatCnpj(company.document.number)} />
          <Fact label="Inscrição municipal" value={company.inscricao_municipal} />
          <Fact label="E-mail" value={company.email} />
          <Fact label="Telefone" value={formatPhone(company.telefone)} />
          <Fact label="Data de fundação" value={company.dt_birthday} />
          <Fact label="Endereço" value={[address, company.bairro].filter(Boolean).join(' · ')} />
          <Fact label="Cidade/UF" value={place} />
          <Fact label="CEP" value={`${formatCep(company.zip_code)}${company.country ? ` · ${company.country}` : ''}`} />
        </SimpleGrid>
      ) : (
        <EmptyState
          mt="lg"
          py="lg"
          variant="light"
          icon={<IconBuildingStore />}
          title="Cadastro da empresa incompleto"
          description="Informe CNPJ, razão social, endereço e contato da sua empresa para concluir o cadastro."
        >
          <EmptyState.Actions>
            <Button leftSection={<IconPlus size={16} />} onClick={() => onOpen('add')}>
              Adicionar
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      )}
    </Card>
  );
}
