import type { DomainItem } from '@impeto/shared';
import { Alert, AppShell, Burger, Button, Center, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../components/ui/centered-loader.tsx';
import { lazyModal } from '../../components/ui/lazy-modal.tsx';
import { Logo } from '../../components/ui/logo.tsx';
import { useDomains } from '../../features/domains/index.ts';
import { errorMessage } from '../../lib/api.ts';
import {
  cacheDomains,
  getSelectedDomain,
  persistSelection,
  resolveSelection,
  toSelectedDomain,
} from '../../lib/domain-store.ts';
import { withDomain } from '../../lib/navigation.ts';
import { useLoadErrorToast } from '../../lib/notify.ts';
import { type Session, useSession } from '../../lib/session.ts';
import { isDomainFree, needsAllowedDomain } from '../domain-rules.ts';
import { useLogout } from '../use-logout.ts';
import { Sidebar } from './sidebar.tsx';
import { UserMenu } from './user-menu.tsx';

// The snippet dialog (and its code block) is fetched when opened.
const ScriptModal = lazyModal(() =>
  import('../../features/domains/components/script-modal.tsx').then((m) => m.ScriptModal),
);

/** Every private page: waits for the domain list, applies the domain rules, then renders inside the shell. */
export function PrivateLayout() {
  const session = useSession();
  if (!session) return null;
  // Confirm dialogs belong to the dashboard only; kept out of the root so the public pages load no modal code.
  return (
    <ModalsProvider labels={{ confirm: 'Confirmar', cancel: 'Cancelar' }}>
      <DomainGate session={session} />
    </ModalsProvider>
  );
}

function DomainGate({ session }: { session: Session }) {
  const domainsQuery = useDomains(session.company_uuid);
  useLoadErrorToast(domainsQuery);
  const location = useLocation();
  const [params] = useSearchParams();
  const wanted = params.get('domain');
  const domains = domainsQuery.data;
  // Read once per mount: the selection this visit started with (the effect below stores the resolved one).
  const [storedSelection] = useState(getSelectedDomain);

  const selected = useMemo(
    () => (domains ? resolveSelection(domains, wanted, getSelectedDomain()) : null),
    [domains, wanted],
  );

  useEffect(() => {
    if (!domains) return;
    cacheDomains(domains);
    persistSelection(selected);
  }, [domains, selected]);

  if (domainsQuery.isPending) return <CenteredLoader fullScreen label="Carregando seus domínios..." />;
  if (domainsQuery.isError || !domains) {
    return (
      <Center mih="100vh" p="md">
        <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar seus domínios" maw={480}>
          <Text size="sm" mb="sm">
            {errorMessage(domainsQuery.error)}
          </Text>
          <Button size="xs" variant="light" color="red" onClick={() => domainsQuery.refetch()}>
            Tentar novamente
          </Button>
        </Alert>
      </Center>
    );
  }

  const { pathname, search } = location;
  if (domains.length === 0 && !isDomainFree(pathname)) return <Navigate to="/domains" replace />;
  // Analytics with no selected domain goes to /domains (doc 1 §5) instead of silently picking one.
  if (pathname === '/' && !wanted && !storedSelection) return <Navigate to="/domains" replace />;
  if (needsAllowedDomain(pathname) && !selected?.allowed)
    return <Navigate to={withDomain('/domains', selected?.uuid)} replace />;
  if (selected && wanted !== selected.uuid)
    return <Navigate to={withDomain(`${pathname}${search}`, selected.uuid)} replace />;

  return (
    <Shell session={session} domains={domains} selected={selected}>
      <Suspense fallback={<CenteredLoader />}>
        <Outlet />
      </Suspense>
    </Shell>
  );
}

function Shell({
  session,
  domains,
  selected,
  children,
}: {
  session: Session;
  domains: DomainItem[];
  selected: ReturnType<typeof resolveSelection>;
  children: ReactNode;
}) {
  const [navOpened, nav] = useDisclosure(false);
  const [scriptOpened, script] = useDisclosure(false);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const logout = useLogout();
  const hasUser = Boolean(session.username);

  const onSelectDomain = (domain: DomainItem) => {
    const index = domains.findIndex((d) => d.uuid === domain.uuid);
    const next = toSelectedDomain(domain, index);
    persistSelection(next);
    nav.close();
    // A domain that is not allowed leads to the domains page (doc 1 §4).
    navigate(withDomain(next.allowed ? pathname : '/domains', next.uuid));
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={hasUser ? { width: 272, breakpoint: 'sm', collapsed: { mobile: !navOpened } } : undefined}
      footer={{ height: 44 }}
      padding="lg"
    >
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            {hasUser ? (
              <Burger opened={navOpened} onClick={nav.toggle} hiddenFrom="sm" size="sm" aria-label="Abrir menu" />
            ) : null}
            <Link to={withDomain('/', selected?.uuid)} aria-label="Ímpeto: início" style={{ textDecoration: 'none' }}>
              <Logo size="sm" />
            </Link>
          </Group>
          <UserMenu session={session} domainUuid={selected?.uuid} onLogout={logout} />
        </Group>
      </AppShell.Header>
      {hasUser ? (
        <AppShell.Navbar>
          <Sidebar
            domains={domains}
            selected={selected}
            onSelectDomain={onSelectDomain}
            onOpenScript={script.open}
            onLogout={logout}
            onNavigate={nav.close}
          />
        </AppShell.Navbar>
      ) : null}
      <AppShell.Main bg="gray.0">{children}</AppShell.Main>
      <AppShell.Footer px="lg">
        <Group h="100%" justify="space-between">
          <Text size="xs" c="dimmed">
            © {new Date().getFullYear()} Ímpeto · Automação de marketing
          </Text>
          {selected ? (
            <Text size="xs" c="dimmed" visibleFrom="sm">
              Domínio: {selected.name}
            </Text>
          ) : null}
        </Group>
      </AppShell.Footer>
      <ScriptModal opened={scriptOpened} onClose={script.close} domain={selected} />
    </AppShell>
  );
}
