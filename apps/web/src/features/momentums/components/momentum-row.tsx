import { type DeliveryCounts, itemMessages, type MomentumItem, momentumMessages as mm } from '@impeto/shared';
import { ActionIcon, Badge, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconAlertTriangle,
  IconClock,
  IconEye,
  IconFlask,
  IconListDetails,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconPointer,
  IconRoute,
  IconSend,
  IconTrash,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { isApiError } from '../../../lib/api.ts';
import { useDomainNavigate } from '../../../lib/navigation.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { formatZoned } from '../../blocks/index.ts';
import { useChangeMomentumStatus } from '../api/change-momentum-status.ts';
import { useRemoveMomentum } from '../api/remove-momentum.ts';
import {
  channelLabel,
  type DcmStats,
  dcmStatsOf,
  displayStatus,
  editPath,
  isValidDate,
  rowActions,
  STATUS_COLORS,
  scheduleMarker,
  statusLabel,
  viewPath,
} from './momentum-status.ts';

const statusError = (error: unknown, texts: ReturnType<typeof itemMessages>) =>
  isApiError(error) && error.status === 0 ? mm.requestFailed : texts.statusFailed;

function Action({
  label,
  icon,
  color,
  onClick,
  loading,
}: {
  label: string;
  icon: ReactNode;
  color?: string;
  onClick: () => void;
  loading?: boolean;
}) {
  return (
    <Tooltip label={label.split(' ')[0]} withArrow>
      <ActionIcon variant="subtle" color={color ?? 'gray'} aria-label={label} onClick={onClick} loading={loading}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

/** Date over time, so the list's eight columns fit a 1440 px screen without scrolling to the actions. */
function DateTimeCell({ value }: { value: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatZoned(value, 'DD/MM/YYYY')}
      </Text>
      <Text size="xs" c="dimmed">
        {formatZoned(value, 'HH:mm')}
      </Text>
    </Stack>
  );
}

export function ScheduleCell({ value }: { value: string | null }) {
  if (!isValidDate(value))
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  const marker = scheduleMarker(value);
  return (
    <Group gap={6} wrap="nowrap">
      <DateTimeCell value={value} />
      <Badge
        size="sm"
        radius="sm"
        style={{ minWidth: 'max-content', overflow: 'visible' }}
        variant={marker === 'HOJE!' ? 'filled' : 'light'}
        color={marker === 'HOJE!' ? 'orange' : marker === '✓' ? 'teal' : 'blue'}
        aria-label={`Marcador ${marker}`}
        tt="none"
      >
        {marker}
      </Badge>
    </Group>
  );
}

/** The row's actions (pause, start, view, log, edit, remove) and whether one is running: shared by row and card. */
function useItemActions(item: MomentumItem) {
  const navigate = useDomainNavigate();
  const status = useChangeMomentumStatus();
  const remove = useRemoveMomentum();
  const actions = rowActions(item);
  const title = item.momentum_title || 'Sem título';
  const isDcm = item.type === 'dcm';
  // A GCD item is a "conteúdo do GCD" in its toasts.
  const texts = itemMessages(item.type);

  const change = (next: 'Active' | 'Paused') =>
    status.mutate(
      { uuid: item.uuid, status: next },
      {
        onSuccess: (answer) => notifySuccess(answer.message || (next === 'Active' ? texts.started : texts.paused)),
        onError: (error) => notifyError(statusError(error, texts)),
      },
    );

  const edit = () => {
    if (item.status === 'Active') notifyError(texts.editActive);
    else navigate(editPath(item.type, item.uuid));
  };

  const confirmRemove = () =>
    modals.openConfirmModal({
      title: 'Remover',
      children: (
        <Text size="sm">
          Deseja realmente remover <b>{title}</b>? Ele deixará de ser {isDcm ? 'exibido' : 'enviado'} e irá para a aba
          Removidos.
        </Text>
      ),
      labels: { confirm: 'Confirmar', cancel: 'Cancelar' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(item.uuid, {
          onSuccess: (answer) => notifySuccess(answer.message || texts.removed),
          onError: () => notifyError(texts.removeFailed),
        }),
    });

  const busy = status.isPending || remove.isPending;
  const controls =
    item.status === 'Deleted' ? (
      <Text size="xs" c="dimmed">
        —
      </Text>
    ) : (
      <Group gap={2} wrap="nowrap">
        {actions.pause ? (
          <Action
            label={`Pausar ${title}`}
            icon={<IconPlayerPause size={17} />}
            color="yellow"
            onClick={() => change('Paused')}
            loading={status.isPending}
          />
        ) : null}
        {actions.start ? (
          <Action
            label={`Iniciar ${title}`}
            icon={<IconPlayerPlay size={17} />}
            color="green"
            onClick={() => change('Active')}
            loading={status.isPending}
          />
        ) : null}
        {actions.view ? (
          <Action
            label={`Visualizar ${title}`}
            icon={<IconEye size={17} />}
            onClick={() => navigate(viewPath(item.type, item.uuid))}
          />
        ) : null}
        <Action
          label={`Entregas de ${title}`}
          icon={<IconListDetails size={17} />}
          onClick={() => navigate(`/v2/deliveries?id=${item.uuid}`)}
        />
        {item.experiment ? (
          <Action
            label={`Teste A/B de ${title}`}
            icon={<IconFlask size={17} />}
            onClick={() => navigate(`/v2/experiment?uuid=${item.uuid}`)}
          />
        ) : null}
        {item.steps?.length ? (
          <Action
            label={`Jornada de ${title}`}
            icon={<IconRoute size={17} />}
            onClick={() => navigate(`/v2/journey?uuid=${item.uuid}`)}
          />
        ) : null}
        {actions.edit ? <Action label={`Editar ${title}`} icon={<IconPencil size={17} />} onClick={edit} /> : null}
        {actions.remove ? (
          <Action
            label={`Remover ${title}`}
            icon={<IconTrash size={17} />}
            color="red"
            onClick={confirmRemove}
            loading={remove.isPending}
          />
        ) : null}
      </Group>
    );
  return { controls, busy };
}

function StatusBadge({ item }: { item: MomentumItem }) {
  return (
    <Badge
      variant="light"
      radius="sm"
      color={STATUS_COLORS[displayStatus(item)]}
      style={{ minWidth: 'max-content', overflow: 'visible' }}
    >
      {statusLabel(item)}
    </Badge>
  );
}

export function MomentumRow({ item, index }: { item: MomentumItem; index: number }) {
  const { controls, busy } = useItemActions(item);
  const title = item.momentum_title || 'Sem título';
  const isDcm = item.type === 'dcm';
  return (
    <Table.Tr style={{ opacity: busy ? 0.6 : 1 }}>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {index + 1}
        </Text>
      </Table.Td>
      {/* The title takes the width the other columns leave (max-width 0 lets a 100% cell shrink) on two lines. */}
      <Table.Td style={{ width: '100%', maxWidth: 0, minWidth: 200 }}>
        <Stack gap={0}>
          <Text size="sm" fw={600} lineClamp={2} title={title} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Text>
          {item.momentum_description ? (
            <Text size="xs" c="dimmed" truncate>
              {item.momentum_description}
            </Text>
          ) : null}
          {isDcm ? <DcmSummary stats={dcmStatsOf(item)} /> : <DeliverySummary counts={item.deliveries} />}
        </Stack>
      </Table.Td>
      <Table.Td>
        <StatusBadge item={item} />
      </Table.Td>
      {isDcm ? null : (
        <Table.Td>
          <Text size="sm" ff="monospace" fz="xs" fw={600} c="dimmed">
            {channelLabel(item)}
          </Text>
        </Table.Td>
      )}
      <Table.Td>
        <ScheduleCell value={item.scheduled_at} />
      </Table.Td>
      <Table.Td>
        <DateTimeCell value={item.created_at} />
      </Table.Td>
      <Table.Td>
        <DateTimeCell value={item.updated_at} />
      </Table.Td>
      <Table.Td>{controls}</Table.Td>
    </Table.Tr>
  );
}

/**
 * The same item on a phone: a card with the title, status, channel, schedule, the figures and the actions, instead
 * of a table whose columns past 'Título' would be cut off.
 */
export function MomentumCard({ item }: { item: MomentumItem }) {
  const { controls, busy } = useItemActions(item);
  const title = item.momentum_title || 'Sem título';
  const isDcm = item.type === 'dcm';
  return (
    <Paper
      component="li"
      aria-label={title}
      withBorder
      radius="md"
      p="sm"
      style={{ opacity: busy ? 0.6 : 1, listStyle: 'none' }}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text size="sm" fw={600} lineClamp={2}>
            {title}
          </Text>
          {item.momentum_description ? (
            <Text size="xs" c="dimmed" lineClamp={1}>
              {item.momentum_description}
            </Text>
          ) : null}
        </Stack>
        <StatusBadge item={item} />
      </Group>
      <Group gap="md" mt={6} wrap="wrap">
        {isDcm ? null : (
          <Text size="xs" ff="monospace" fw={600} c="dimmed">
            {channelLabel(item)}
          </Text>
        )}
        {isValidDate(item.scheduled_at) ? (
          <Group gap={4} wrap="nowrap">
            <Text size="xs" c="dimmed">
              Agendado para
            </Text>
            <ScheduleCell value={item.scheduled_at} />
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            Atualizado em {formatZoned(item.updated_at)}
          </Text>
        )}
      </Group>
      {isDcm ? <DcmSummary stats={dcmStatsOf(item)} /> : <DeliverySummary counts={item.deliveries} />}
      <Group justify="flex-end" mt={6}>
        {controls}
      </Group>
    </Paper>
  );
}

const count = new Intl.NumberFormat('pt-BR');

/** What the engine did with the item: sent, viewed and clicked messages (and what still waits), under the title. */
function DeliverySummary({ counts }: { counts?: DeliveryCounts }) {
  if (!counts || counts.sent + counts.waiting + counts.failed === 0) return null;
  const parts = [
    { icon: IconSend, value: counts.sent, label: 'enviadas' },
    { icon: IconEye, value: counts.viewed, label: 'vistas' },
    { icon: IconPointer, value: counts.clicked, label: 'cliques' },
    ...(counts.waiting ? [{ icon: IconClock, value: counts.waiting, label: 'aguardando' }] : []),
  ];
  const failed = counts.failed ? `; ${count.format(counts.failed)} com falha` : '';
  const description = parts.map((p) => `${count.format(p.value)} ${p.label}`).join(', ') + failed;
  return (
    <Tooltip label={`Mensagens: ${description}`} withArrow>
      <Group gap={10} wrap="wrap" mt={4} aria-label={`Mensagens: ${description}`}>
        {parts.map(({ icon: Icon, value, label }) => (
          <Group key={label} gap={3} wrap="nowrap">
            <Icon size={13} stroke={1.8} color="var(--mantine-color-dimmed)" aria-hidden />
            <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {count.format(value)}
            </Text>
          </Group>
        ))}
        {counts.failed ? (
          // Failures are on the row itself: a row whose every delivery failed would otherwise read '0 0 0'.
          <Group gap={3} wrap="nowrap">
            <IconAlertTriangle size={13} stroke={1.8} color="var(--mantine-color-red-7)" aria-hidden />
            <Text size="xs" c="red.9" fw={600} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
              {count.format(counts.failed)} {counts.failed === 1 ? 'falha' : 'falhas'}
            </Text>
          </Group>
        ) : null}
      </Group>
    </Tooltip>
  );
}

/** A GCD item's exhibitions and clicks, and the tag's alert when the selector stopped matching on a page. */
function DcmSummary({ stats }: { stats?: DcmStats }) {
  if (!stats) return null;
  const views = `${count.format(stats.shown)} ${stats.shown === 1 ? 'exibição' : 'exibições'}`;
  const clicks = `${count.format(stats.clicked)} ${stats.clicked === 1 ? 'clique' : 'cliques'}`;
  return (
    <Stack gap={4} mt={4}>
      <Group gap={10} wrap="nowrap" aria-label={`${views} · ${clicks}`}>
        <Group gap={3} wrap="nowrap">
          <IconEye size={13} stroke={1.8} color="var(--mantine-color-dimmed)" aria-hidden />
          <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {views}
          </Text>
        </Group>
        <Text size="xs" c="dimmed" aria-hidden>
          ·
        </Text>
        <Group gap={3} wrap="nowrap">
          <IconPointer size={13} stroke={1.8} color="var(--mantine-color-dimmed)" aria-hidden />
          <Text size="xs" c="dimmed" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {clicks}
          </Text>
        </Group>
      </Group>
      {stats.missing ? <MissingSelector missing={stats.missing} /> : null}
    </Stack>
  );
}

function MissingSelector({ missing }: { missing: NonNullable<DcmStats['missing']> }) {
  const seen = isValidDate(missing.last_seen) ? formatZoned(missing.last_seen) : '';
  const detail = `Em ${missing.page}${seen ? `, visto por último em ${seen}` : ''}`;
  return (
    <Tooltip
      label={`O elemento escolhido não apareceu nesta página: confira o seletor. ${detail}.`}
      withArrow
      multiline
      w={300}
    >
      <Stack gap={2} maw={280}>
        <Badge
          size="sm"
          radius="sm"
          color="orange"
          variant="light"
          leftSection={<IconAlertTriangle size={12} />}
          tt="none"
          style={{ width: 'fit-content', overflow: 'visible' }}
        >
          seletor não encontrado
        </Badge>
        <Text size="xs" c="dark.6" truncate title={missing.page}>
          {pathOf(missing.page)}
          {seen ? ` · ${seen}` : ''}
        </Text>
      </Stack>
    </Tooltip>
  );
}

/** 'https://loja.com.br/produtos?x=1' → '/produtos?x=1': the row is narrow; the tooltip has the whole address. */
function pathOf(page: string) {
  try {
    const url = new URL(page);
    return `${url.pathname}${url.search}`;
  } catch {
    return page;
  }
}
