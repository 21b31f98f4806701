import { type DcmStats, DELIVERY_LOG_STATUSES, type DeliveryLogItem, type DeliveryLogStatus } from '@impeto/shared';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Pagination,
  Paper,
  ScrollArea,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconInbox } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import { useDomainNavigate } from '../../../lib/navigation.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useMomentum } from '../../momentums/api/get-momentum.ts';
import { useDeliveries } from '../api/list-deliveries.ts';

const STATUS_LABELS: Record<DeliveryLogStatus, string> = {
  waiting: 'Aguardando',
  sending: 'Enviando',
  sent: 'Enviada',
  failed: 'Falhou',
  skipped: 'Não enviada',
};
const FILTER_LABELS: Record<DeliveryLogStatus, string> = {
  waiting: 'Aguardando',
  sending: 'Enviando',
  sent: 'Enviadas',
  failed: 'Falhas',
  skipped: 'Não enviadas',
};
const STATUS_COLORS: Record<DeliveryLogStatus, string> = {
  waiting: 'blue',
  sending: 'cyan',
  sent: 'green',
  failed: 'red',
  skipped: 'gray',
};
const DETAIL_LABELS: Record<string, string> = {
  viewed: 'vista',
  clicked: 'clicada',
  cancelled: 'cancelada',
  expired: 'expirada',
};
const CHANNEL_LABELS: Record<string, string> = {
  CELL_NOTIFICATION: 'Push',
  SUPERARE_WEBVIEW: 'On-site',
  ZENVIA: 'SMS (Zenvia)',
  AWS_SES: 'E-mail (SES)',
  AKNA: 'E-mail (Akna)',
  ONE_SIGNAL: 'OneSignal',
};

const isStatus = (v: string | null): v is DeliveryLogStatus =>
  v !== null && (DELIVERY_LOG_STATUSES as readonly string[]).includes(v);

/** A journey's follow-up message (issue #26): 'Etapa 2', 'Etapa 2 · senão'; the first message (step 0) has none. */
export const journeyStepLabel = (step: number, branch: string | undefined) =>
  branch === 'otherwise' ? `Etapa ${step} · senão` : `Etapa ${step}`;

function Row({ item }: { item: DeliveryLogItem }) {
  const detail = DETAIL_LABELS[item.detail];
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" ff="monospace" truncate maw={240} title={item.recipient}>
          {item.recipient}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {CHANNEL_LABELS[item.channel_type] ?? item.channel_type}
        </Text>
        {item.step > 0 ? (
          <Badge
            size="xs"
            variant="light"
            radius="sm"
            color={item.branch === 'otherwise' ? 'orange' : 'indigo'}
            style={{ minWidth: 'max-content' }}
          >
            {journeyStepLabel(item.step, item.branch)}
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Badge variant="light" radius="sm" color={STATUS_COLORS[item.status]} style={{ minWidth: 'max-content' }}>
            {STATUS_LABELS[item.status]}
          </Badge>
          {detail ? (
            <Text size="xs" c="dimmed">
              {detail}
            </Text>
          ) : null}
        </Group>
      </Table.Td>
      <Table.Td>
        {item.reason ? (
          <Tooltip label={item.reason} multiline w={360} withArrow disabled={item.reason.length < 60}>
            <Text size="sm" lineClamp={2} maw={360} c={item.status === 'failed' ? 'red' : undefined}>
              {item.reason}
            </Text>
          </Tooltip>
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(item.created_at)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {item.sent_at
            ? formatDateTime(item.sent_at)
            : item.status === 'waiting'
              ? `prevista ${formatDateTime(item.due_at)}`
              : '—'}
        </Text>
      </Table.Td>
      <Table.Td ta="right">
        <Text size="sm">{item.attempts}</Text>
      </Table.Td>
    </Table.Tr>
  );
}

function LoadingRows() {
  return Array.from({ length: 6 }, (_, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
    <Table.Tr key={i} aria-hidden>
      {Array.from({ length: 7 }, (_, j) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Table.Td key={j}>
          <Skeleton height={14} />
        </Table.Td>
      ))}
    </Table.Tr>
  ));
}

/** A GCD item's deliveries in the page: the tag's showings and clicks, and where the selector was missed. */
function DcmShowings({ stats }: { stats: DcmStats | undefined }) {
  const shown = stats?.shown ?? 0;
  const clicked = stats?.clicked ?? 0;
  const rate = shown ? `${((clicked / shown) * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%` : '—';
  const figures = [
    { label: shown === 1 ? 'exibição' : 'exibições', value: formatCount(shown) },
    { label: clicked === 1 ? 'clique' : 'cliques', value: formatCount(clicked) },
    { label: 'taxa de cliques', value: rate },
  ];
  return (
    <Card withBorder padding="md" mb="md" role="group" aria-label="Exibições do conteúdo">
      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        {figures.map((f) => (
          <Paper key={f.label} bg="var(--mantine-color-gray-0)" radius="md" p="sm">
            <Text fz={24} fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
              {f.value}
            </Text>
            <Text size="sm" c="dimmed">
              {f.label}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      {stats?.missing ? (
        <Alert mt="sm" color="orange" variant="light" icon={<IconAlertTriangle />} title="Seletor não encontrado">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            O elemento escolhido não apareceu em {stats.missing.page} (visto por último em{' '}
            {formatDateTime(stats.missing.last_seen)}): confira o seletor.
          </Text>
        </Alert>
      ) : null}
    </Card>
  );
}

/** The delivery log of one momentum or campaign: who got it, who did not and why. */
export default function DeliveryLogPage() {
  usePageTitle('Entregas');
  const [params, setParams] = useSearchParams();
  const navigate = useDomainNavigate();
  const uuid = params.get('id') ?? '';
  const status = isStatus(params.get('status')) ? (params.get('status') as DeliveryLogStatus) : null;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const momentum = useMomentum(uuid || null);
  const log = useDeliveries(uuid, page, status);
  const isCampaign = momentum.data?.type === 'campaign';
  const isDcm = momentum.data?.type === 'dcm';
  const listPath = isCampaign ? '/v2/campaigns' : isDcm ? '/dcm' : '/v2/momentums';
  const kindLabel = isCampaign ? 'Campanha' : isDcm ? 'Conteúdo do GCD' : 'Momentum';

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    setParams(next);
  };

  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / log.data.page_size)) : 1;
  return (
    <>
      <PageHeader
        title="Entregas"
        description={
          momentum.data ? (
            <>
              {kindLabel} <b>{momentum.data.momentum_title}</b>:{' '}
              {isDcm
                ? 'quantas vezes apareceu nas páginas, quantos cliques teve e, se for um push, quem o recebeu.'
                : 'quem recebeu, quem não recebeu e por quê.'}
            </>
          ) : (
            'Quem recebeu, quem não recebeu e por quê.'
          )
        }
        actions={
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate(listPath)}>
            Voltar
          </Button>
        }
      />
      {isDcm ? <DcmShowings stats={momentum.data?.dcm_stats} /> : null}
      <Card withBorder padding="md">
        <Group justify="space-between" mb="md" wrap="wrap">
          <SegmentedControl
            aria-label="Filtrar por status"
            value={status ?? 'all'}
            onChange={(v) => update({ status: v === 'all' ? null : v, page: null })}
            data={[
              { value: 'all', label: 'Todas' },
              ...DELIVERY_LOG_STATUSES.map((s) => ({
                value: s,
                label: FILTER_LABELS[s],
              })),
            ]}
          />
          {log.data ? (
            <Text size="sm" c="dimmed">
              {formatCount(log.data.total)} {log.data.total === 1 ? 'entrega' : 'entregas'}
            </Text>
          ) : null}
        </Group>
        {log.isError ? (
          <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar as entregas">
            <Text size="sm" mb="sm">
              {errorMessage(log.error)}
            </Text>
            <Button size="xs" variant="light" color="red" onClick={() => log.refetch()}>
              Tentar novamente
            </Button>
          </Alert>
        ) : log.data && log.data.items.length === 0 ? (
          <Stack align="center" gap="xs" py="xl">
            <IconInbox size={40} stroke={1.4} color="var(--mantine-color-dimmed)" />
            <Text fw={600}>Nenhuma entrega {status ? 'com este status' : 'ainda'}</Text>
            <Text size="sm" c="dimmed" ta="center" maw={420}>
              {isDcm
                ? 'O conteúdo colocado nas páginas conta exibições e cliques (acima); só um push do GCD tem entregas.'
                : `As entregas aparecem aqui assim que o motor cria as mensagens deste ${isCampaign ? 'disparo' : 'momentum'}.`}
            </Text>
          </Stack>
        ) : (
          <ScrollArea type="auto">
            <Table verticalSpacing="sm" miw={900} striped highlightOnHover aria-label="Entregas">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Destinatário</Table.Th>
                  <Table.Th>Canal</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Motivo ou erro do provedor</Table.Th>
                  <Table.Th>Criada</Table.Th>
                  <Table.Th>Enviada</Table.Th>
                  <Table.Th ta="right">Tentativas</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {log.isPending ? <LoadingRows /> : log.data?.items.map((item) => <Row key={item.id} item={item} />)}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
        {pages > 1 ? (
          <Group justify="center" mt="md">
            <Pagination total={pages} value={page} onChange={(p) => update({ page: String(p) })} />
          </Group>
        ) : null}
      </Card>
    </>
  );
}
