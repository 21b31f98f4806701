import type { DomainItem } from '@impeto/shared';
import { msg } from '@impeto/shared/core';
import { Alert, Button, EmptyState, Paper } from '@mantine/core';
import { IconInfoCircle, IconPlus, IconWorldWww } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { notifyError } from '../../../lib/notify.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useSession } from '../../../lib/session.ts';
import { useDomains } from '../api/list-domains.ts';
import { useVersions } from '../api/list-versions.ts';
import { CreateDomainModal } from '../components/create-domain-modal.tsx';
import { DomainsTable } from '../components/domains-table.tsx';
import { EditDomainModal } from '../components/edit-domain-modal.tsx';
import { ScriptModal } from '../components/script-modal.tsx';

export default function DomainsPage() {
  usePageTitle('Domínios');
  const session = useSession();
  const companyUuid = session?.company_uuid ?? '';
  const domainsQuery = useDomains(companyUuid);
  const domains = domainsQuery.data;
  const geroVersions = useVersions('gero');
  const cnswVersions = useVersions('cnsw');
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<DomainItem | null>(null);
  const [scriptFor, setScriptFor] = useState<DomainItem | null>(null);
  const [scriptOpened, setScriptOpened] = useState(false);
  const isEmpty = domainsQuery.isSuccess && domainsQuery.data.length === 0;
  const hasUnverified = (domains ?? []).some((d) => d.status === 'Active' && !d.gero_validate);

  // The modal opens by itself while the company has no domain (doc 1 §2).
  useEffect(() => {
    if (isEmpty) setCreating(true);
  }, [isEmpty]);

  useEffect(() => {
    if (geroVersions.isError) notifyError(msg.version.listGeroFailed);
  }, [geroVersions.isError]);
  useEffect(() => {
    if (cnswVersions.isError) notifyError(msg.version.listCnswFailed);
  }, [cnswVersions.isError]);

  return (
    <>
      <PageHeader
        title="Domínios"
        description="Cadastre os sites da sua empresa e instale o script de rastreamento."
        actions={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            Adicionar domínio
          </Button>
        }
      />
      {hasUnverified ? (
        <Alert variant="light" color="yellow" icon={<IconInfoCircle />} mb="md" radius="md">
          Domínios "Não verificado" ainda não liberam as funcionalidades. Instale o script (botão de código na coluna
          Script) e clique em Verificar.
        </Alert>
      ) : null}
      <Paper withBorder radius="lg" p={isEmpty ? 'xl' : 0} style={{ overflow: 'hidden' }}>
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
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                Adicionar domínio
              </Button>
            </EmptyState.Actions>
          </EmptyState>
        ) : (
          <DomainsTable
            domains={domains}
            loading={domainsQuery.isPending}
            geroVersions={geroVersions.data}
            cnswVersions={cnswVersions.data}
            onEdit={setEditing}
            onShowScript={(domain) => {
              setScriptFor(domain);
              setScriptOpened(true);
            }}
          />
        )}
      </Paper>
      <CreateDomainModal
        opened={creating}
        onClose={() => setCreating(false)}
        companyUuid={companyUuid}
        showWelcome={isEmpty}
      />
      <EditDomainModal domain={editing} onClose={() => setEditing(null)} />
      <ScriptModal
        opened={scriptOpened}
        onClose={() => setScriptOpened(false)}
        domain={
          scriptFor
            ? { uuid: scriptFor.uuid, name: scriptFor.name, root: scriptFor.domain_root, gero_id: scriptFor.gero_id }
            : null
        }
      />
    </>
  );
}
