import { msg } from '@impeto/shared';
import { Badge, Button, EmptyState, Paper, Table } from '@mantine/core';
import { IconPlus, IconWorldWww } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useSession } from '../../../lib/session.ts';
import { useDomains } from '../api/list-domains.ts';
import { CreateDomainModal } from '../components/create-domain-modal.tsx';
import { domainStatus } from '../components/domain-status.ts';

export default function DomainsPage() {
  const session = useSession();
  const companyUuid = session?.company_uuid ?? '';
  const { data: domains = [], isSuccess } = useDomains(companyUuid);
  const [opened, setOpened] = useState(false);
  const isEmpty = isSuccess && domains.length === 0;

  // The modal opens by itself while the company has no domain (doc 1 §2).
  useEffect(() => {
    if (isEmpty) setOpened(true);
  }, [isEmpty]);

  return (
    <>
      <PageHeader
        title="Domínios"
        description="Cadastre os sites da sua empresa e instale o script de rastreamento."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setOpened(true)}>
            Adicionar domínio
          </Button>
        }
      />
      <Paper withBorder radius="lg" p={isEmpty ? 'xl' : 0}>
        {isEmpty ? (
          <EmptyState
            py="xl"
            size="lg"
            variant="light"
            icon={<IconWorldWww />}
            title="Nenhum domínio cadastrado"
            description={msg.domain.noDomainsHint}
          >
            <EmptyState.Actions>
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setOpened(true)}>
                Adicionar domínio
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Nº</Table.Th>
                  <Table.Th>Nome</Table.Th>
                  <Table.Th>Domínio</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Versão Gero</Table.Th>
                  <Table.Th>Versão CNSW</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {domains.map((domain, index) => {
                  const status = domainStatus(domain);
                  return (
                    <Table.Tr key={domain.uuid}>
                      <Table.Td>{index + 1}</Table.Td>
                      <Table.Td>{domain.name}</Table.Td>
                      <Table.Td>{domain.domain}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={status.color}>
                          {status.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{domain.gero_version}</Table.Td>
                      <Table.Td>{domain.cn_sw_version}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <CreateDomainModal
        opened={opened}
        onClose={() => setOpened(false)}
        companyUuid={companyUuid}
        showWelcome={isEmpty}
      />
    </>
  );
}
