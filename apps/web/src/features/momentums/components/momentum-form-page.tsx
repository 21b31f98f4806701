import { type MomentumType, momentumMessages as mm } from '@impeto/shared';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { useRef } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../../components/ui/centered-loader.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { useSelectedDomain } from '../../../lib/domain-store.ts';
import { withDomain } from '../../../lib/navigation.ts';
import { useMomentum } from '../api/get-momentum.ts';
import { MomentumForm } from './momentum-form.tsx';
import { displayStatus, listPath, NOUN, STATUS_COLORS, statusLabel } from './momentum-status.ts';
import { MomentumSummary } from './momentum-summary.tsx';

/**
 * ?uuid= (or ?id=) edits; ?ref={uuid}&viewonly (spec doc 2 §2.1; also ?id=&view=1 and mode=view) only shows the
 * summary.
 */
export function MomentumFormPage({ type }: { type: MomentumType }) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  /** A first Rascunho moves the address to the new draft; the form stays mounted (same key) on its summary. */
  const formKey = (location.state as { formKey?: string } | null)?.formKey;
  const domainUuid = params.get('domain') ?? '';
  const id = params.get('id') ?? params.get('uuid') ?? params.get('ref');
  const viewOnly = params.get('view') === '1' || params.has('viewonly') || params.get('mode') === 'view';
  const selected = useSelectedDomain();
  const siteRoot = selected?.uuid === domainUuid ? selected.domain_root : (selected?.domain_root ?? '');
  const query = useMomentum(id);
  const back = withDomain(listPath(type), domainUuid);
  // The status the item had when the page opened: saving a draft as Imediato makes it Active without sending
  // the user back with the 'em andamento' error (spec doc 2 §2.2 is about opening a running item).
  const opened = useRef<{ uuid: string; status: string } | null>(null);
  if (query.data && opened.current?.uuid !== query.data.uuid)
    opened.current = { uuid: query.data.uuid, status: query.data.status };

  if (id && query.isPending) return <CenteredLoader label="Carregando..." />;
  if (id && (query.isError || !query.data)) {
    return (
      <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar este item" maw={560}>
        <Text size="sm" mb="sm">
          {errorMessage(query.error)}
        </Text>
        <Button component={Link} to={back} size="xs" variant="light" color="red">
          Voltar para a lista
        </Button>
      </Alert>
    );
  }
  const item = query.data;
  if (item && item.status === 'Deleted' && !viewOnly)
    return <Navigate to={back} replace state={{ error: mm.notFound }} />;

  if (item && viewOnly) {
    return (
      <>
        <Group justify="space-between" mb="lg" align="flex-start">
          <Stack gap={4}>
            <Button
              component={Link}
              to={back}
              variant="subtle"
              size="compact-sm"
              leftSection={<IconArrowLeft size={14} />}
              w="fit-content"
              px={4}
            >
              {NOUN[type].title}
            </Button>
            <Title order={2}>Visualizar</Title>
          </Stack>
        </Group>
        <MomentumSummary
          type={type}
          title={item.momentum_title}
          description={item.momentum_description}
          blocks={item.momentums}
          worktime={item.worktime}
          siteRoot={siteRoot}
          updatedAt={item.updated_at}
          scheduledAt={item.scheduled_at}
          statusBadge={
            <Badge size="lg" variant="light" color={STATUS_COLORS[displayStatus(item)]}>
              {statusLabel(item)}
            </Badge>
          }
        />
      </>
    );
  }
  // Editing a running item is refused (spec doc 2 §2.2): back to the list with the message.
  if (item && item.status === 'Active' && opened.current?.status === 'Active')
    return <Navigate to={back} replace state={{ error: mm.editActive }} />;

  return (
    <MomentumForm
      key={formKey ?? item?.uuid ?? 'new'}
      type={type}
      domainUuid={domainUuid}
      siteRoot={siteRoot}
      item={item}
      onDraftCreated={(draft) => {
        const next = new URLSearchParams(params);
        next.set('uuid', draft.uuid);
        navigate({ search: `?${next}` }, { replace: true, state: { formKey: 'new' } });
      }}
    />
  );
}
