import type { DomainItem } from '@impeto/shared';
import { Button, Divider, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import {
  IconBolt,
  IconChartBar,
  IconCode,
  IconLayoutDashboard,
  IconLogout,
  IconPhoto,
  IconPlugConnected,
  IconSpeakerphone,
  IconWorldWww,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { DomainSelect } from '../../features/domains/index.ts';
import type { SelectedDomain } from '../../lib/domain-store.ts';
import { withDomain } from '../../lib/navigation.ts';

interface Item {
  label: string;
  path: string;
  icon: ReactNode;
  needsAllowed: boolean;
  hiddenWithoutDomains?: boolean;
}

const MAIN_ITEMS: Item[] = [
  { label: 'Analytics', path: '/', icon: <IconChartBar size={18} />, needsAllowed: true },
  { label: 'Momentums', path: '/v2/momentums', icon: <IconBolt size={18} />, needsAllowed: true },
  { label: 'Campanhas', path: '/v2/campaigns', icon: <IconSpeakerphone size={18} />, needsAllowed: true },
  { label: 'GCD', path: '/dcm', icon: <IconLayoutDashboard size={18} />, needsAllowed: true },
];

const ADMIN_ITEMS: Item[] = [
  { label: 'Domínios', path: '/domains', icon: <IconWorldWww size={18} />, needsAllowed: false },
  { label: 'Mídias', path: '/media', icon: <IconPhoto size={18} />, needsAllowed: true, hiddenWithoutDomains: true },
  {
    label: 'Canais',
    path: '/channels',
    icon: <IconPlugConnected size={18} />,
    needsAllowed: true,
    hiddenWithoutDomains: true,
  },
];

export interface SidebarProps {
  domains: DomainItem[];
  selected: SelectedDomain | null;
  onSelectDomain: (domain: DomainItem) => void;
  onOpenScript: () => void;
  onLogout: () => void;
  onNavigate?: () => void;
}

/** The sidebar (doc 1 §2): feature items need an allowed domain; Mídias and Canais need at least one domain. */
export function Sidebar({ domains, selected, onSelectDomain, onOpenScript, onLogout, onNavigate }: SidebarProps) {
  const { pathname } = useLocation();
  const isAllowed = Boolean(selected?.allowed);
  const hasDomains = domains.length > 0;

  const isActive = (path: string) =>
    path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`);

  const renderItem = (item: Item) => {
    if (item.hiddenWithoutDomains && !hasDomains) return null;
    const disabled = item.needsAllowed && !isAllowed;
    return (
      <NavLink
        key={item.path}
        component={Link}
        to={withDomain(item.path, selected?.uuid)}
        label={item.label}
        leftSection={item.icon}
        active={isActive(item.path)}
        disabled={disabled}
        aria-disabled={disabled || undefined}
        tabIndex={disabled ? -1 : undefined}
        onClick={(event) => {
          if (disabled) event.preventDefault();
          else onNavigate?.();
        }}
        variant="light"
        style={{ borderRadius: 'var(--mantine-radius-md)' }}
      />
    );
  };

  return (
    <>
      <Stack gap="sm" p="md" pb="xs">
        <DomainSelect domains={domains} value={selected?.uuid ?? null} onSelect={onSelectDomain} />
        <Button variant="light" leftSection={<IconCode size={16} />} onClick={onOpenScript} fullWidth>
          Copiar script
        </Button>
      </Stack>
      <ScrollArea style={{ flex: 1 }} px="sm" component="nav" aria-label="Menu principal">
        <Stack gap={2} py="xs">
          {MAIN_ITEMS.map(renderItem)}
        </Stack>
        <Divider my="xs" />
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" py={6}>
          Administração
        </Text>
        <Stack gap={2} pb="xs">
          {ADMIN_ITEMS.map(renderItem)}
        </Stack>
      </ScrollArea>
      <Divider />
      <Stack p="sm">
        <NavLink
          component="button"
          type="button"
          label="Sair"
          leftSection={<IconLogout size={18} />}
          onClick={onLogout}
          c="red.9"
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
      </Stack>
    </>
  );
}
