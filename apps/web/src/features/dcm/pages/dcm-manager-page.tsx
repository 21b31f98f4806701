import { dcmMessages as dm } from '@impeto/shared';
import { Alert, Button, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../../components/ui/centered-loader.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useSelectedDomain } from '../../../lib/domain-store.ts';
import { withDomain } from '../../../lib/navigation.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useMomentum } from '../../momentums/index.ts';
import { DcmManager } from '../components/dcm-manager.tsx';

/** /dcm/manager: new; ?uuid= edits (also id, ref); &viewonly (also view=1, mode=view) only shows (spec doc 2 §2.1). */
export default function DcmManagerPage() {
  usePageTitle('Conteúdo do GCD');
  const [params] = useSearchParams();
  const domainUuid = params.get('domain') ?? '';
  const uuid = params.get('uuid') ?? params.get('id') ?? params.get('ref');
  const viewOnly = params.has('viewonly') || params.get('view') === '1' || params.get('mode') === 'view';
  const selected = useSelectedDomain();
  const siteRoot = selected?.domain_root ?? '';
  const query = useMomentum(uuid);
  const back = withDomain('/dcm', domainUuid);

  if (uuid && query.isPending) return <CenteredLoader label="Carregando..." />;
  if (uuid && (query.isError || !query.data || query.data.type !== 'dcm')) {
    return (
      <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar este conteúdo" maw={560}>
        <Text size="sm" mb="sm">
          {query.isError ? errorMessage(query.error) : dm.notFound}
        </Text>
        <Button component={Link} to={back} size="xs" variant="light" color="red">
          Voltar para a lista
        </Button>
      </Alert>
    );
  }
  const item = query.data;
  if (item && item.status === 'Deleted' && !viewOnly)
    return <Navigate to={back} replace state={{ error: dm.notFound }} />;
  // Editing a running item is refused (spec doc 2 §2.2): back to the list with the message.
  if (item && item.status === 'Active' && !viewOnly)
    return <Navigate to={back} replace state={{ error: dm.editActive }} />;
  return (
    <DcmManager
      key={`${item?.uuid ?? 'new'}${viewOnly ? ':view' : ''}`}
      domainUuid={domainUuid}
      siteRoot={siteRoot}
      item={item}
      viewOnly={viewOnly}
    />
  );
}
