import type { DomainItem } from '@impeto/shared';
import { msg } from '@impeto/shared/core';
import { ActionIcon, Anchor, Badge, Button, Group, Menu, Table, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconCode,
  IconDotsVertical,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconShieldCheck,
  IconShieldLock,
  IconTrash,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDisableDomain } from '../api/disable-domain.ts';
import { useEnableDomain } from '../api/enable-domain.ts';
import { useRemoveDomain } from '../api/remove-domain.ts';
import { useValidateScript } from '../api/validate-script.ts';
import { domainStatus } from './domain-status.ts';
import { VersionSelect } from './version-select.tsx';

/** The options menu stays in view when a narrow screen scrolls the table sideways. */
export const STICKY_END = {
  position: 'sticky',
  right: 0,
  background: 'var(--mantine-color-body)',
  boxShadow: 'inset 1px 0 0 var(--mantine-color-gray-2)',
} as const;

const BADGE_COLOR = { green: 'green', yellow: 'yellow', gray: 'red' } as const;

export interface DomainRowProps {
  index: number;
  domain: DomainItem;
  geroVersions: string[] | undefined;
  cnswVersions: string[] | undefined;
  onEdit: (domain: DomainItem) => void;
  onShowScript: (domain: DomainItem) => void;
}

/** One domain of the table, with its own mutations so each row shows its own loading state. */
export function DomainRow({ index, domain, geroVersions, cnswVersions, onEdit, onShowScript }: DomainRowProps) {
  const validate = useValidateScript();
  const enable = useEnableDomain();
  const disable = useDisableDomain();
  const remove = useRemoveDomain();
  const status = domainStatus(domain);
  const isActive = domain.status === 'Active';
  const busy = enable.isPending || disable.isPending || remove.isPending;

  const runValidate = () =>
    validate.mutate(domain.uuid, {
      onSuccess: (answer) => notifySuccess(answer.message || msg.domain.validated),
      onError: (error) => notifyError(errorMessage(error)),
    });

  const toggleStatus = () => {
    if (isActive) {
      disable.mutate(domain.uuid, {
        onSuccess: (answer) => notifySuccess(answer.message || msg.domain.disabled),
        onError: () => notifyError(msg.domain.disableFailed),
      });
    } else {
      enable.mutate(domain.uuid, {
        onSuccess: (answer) => notifySuccess(answer.message || msg.domain.enabled),
        onError: () => notifyError(msg.domain.enableFailed),
      });
    }
  };

  const confirmRemove = () =>
    modals.openConfirmModal({
      title: 'Remover domínio',
      children: (
        <Text size="sm">
          Tem certeza que deseja remover o domínio <b>{domain.name}</b> ({domain.domain})? Ele deixará de aparecer na
          sua lista e o script instalado no site para de coletar dados.
        </Text>
      ),
      labels: { confirm: 'Remover', cancel: 'Cancelar' },
      confirmProps: { color: 'red', leftSection: <IconTrash size={16} /> },
      onConfirm: () =>
        remove.mutate(domain.uuid, {
          onSuccess: (answer) => notifySuccess(answer.message || msg.domain.removed),
          onError: notifyError,
        }),
    });

  return (
    <Table.Tr style={{ opacity: busy ? 0.6 : 1, transition: 'opacity 150ms' }}>
      <Table.Td>
        <Text size="sm" c="dimmed">
          {index + 1}
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={600} maw={180} truncate title={domain.name}>
          {domain.name}
        </Text>
      </Table.Td>
      <Table.Td>
        <Anchor href={domain.domain} target="_blank" rel="noreferrer" size="sm" maw={170} truncate display="block">
          {domain.domain}
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Badge variant="light" color={BADGE_COLOR[status.color]} radius="sm" style={{ minWidth: 'max-content' }}>
          {status.label}
        </Badge>
      </Table.Td>
      <Table.Td>
        <VersionSelect kind="gero" domain={domain} versions={geroVersions} />
      </Table.Td>
      <Table.Td>
        <VersionSelect kind="cnsw" domain={domain} versions={cnswVersions} />
      </Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          <Button
            size="xs"
            variant={domain.gero_validate ? 'default' : 'light'}
            leftSection={<IconShieldCheck size={14} />}
            loading={validate.isPending}
            onClick={runValidate}
            aria-label={`Verificar script de ${domain.name}`}
          >
            Verificar
          </Button>
          <Tooltip label="Ver script" withArrow>
            <ActionIcon
              variant="default"
              size={30}
              aria-label={`Ver script de ${domain.name}`}
              onClick={() => onShowScript(domain)}
            >
              <IconCode size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
      <Table.Td style={STICKY_END}>
        <Menu position="bottom-end" withinPortal shadow="md" width={200}>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Opções de ${domain.name}`} loading={busy}>
              <IconDotsVertical size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onEdit(domain)}>
              Editar
            </Menu.Item>
            <Menu.Item
              leftSection={isActive ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
              onClick={toggleStatus}
            >
              {isActive ? 'Desativar' : 'Ativar'}
            </Menu.Item>
            <Menu.Item
              component={Link}
              to={`/domains/${domain.uuid}/privacy`}
              leftSection={<IconShieldLock size={16} />}
            >
              Privacidade (LGPD)
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={confirmRemove}>
              Remover
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Table.Td>
    </Table.Tr>
  );
}
