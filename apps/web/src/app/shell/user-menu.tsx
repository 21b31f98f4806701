import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconBuildingStore, IconChevronDown, IconCreditCard, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { withDomain } from '../../lib/navigation.ts';
import type { Session } from '../../lib/session.ts';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');

export function UserMenu({
  session,
  domainUuid,
  onLogout,
}: {
  session: Session;
  domainUuid?: string;
  onLogout: () => void;
}) {
  return (
    <Menu position="bottom-end" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label="Menu do usuário">
          <Group gap={8} wrap="nowrap">
            <Avatar color="brand" radius="xl" size={34}>
              {initials(session.name || session.username)}
            </Avatar>
            <Text size="sm" fw={600} visibleFrom="sm">
              {session.username}
            </Text>
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Olá, {session.username}</Menu.Label>
        <Menu.Item component={Link} to={withDomain('/profile', domainUuid)} leftSection={<IconUserCircle size={16} />}>
          Perfil
        </Menu.Item>
        <Menu.Item component={Link} to={withDomain('/payment', domainUuid)} leftSection={<IconCreditCard size={16} />}>
          Plano e uso
        </Menu.Item>
        <Menu.Item
          component={Link}
          to={withDomain('/settings', domainUuid)}
          leftSection={<IconBuildingStore size={16} />}
        >
          Dados da empresa
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={onLogout}>
          Sair
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
