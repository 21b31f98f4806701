import type { MomentumType } from '@impeto/shared';
import {
  Alert,
  Badge,
  Button,
  EmptyState,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconAlertTriangle,
  IconLayoutDashboard,
  IconPlus,
  IconSearch,
  IconSitemap,
  IconSpeakerphone,
} from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { withDomain } from '../../../lib/navigation.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useMomentums } from '../api/list-momentums.ts';
import { MomentumCard, MomentumRow } from './momentum-row.tsx';
import { formPath, itemsOfTab, listColumns, NOUN, TABS, type TabValue, tabCounts, tabOf } from './momentum-status.ts';

const DESCRIPTIONS: Record<MomentumType, string> = {
  momentum: 'Mensagens disparadas pelo comportamento dos visitantes do seu site.',
  campaign: 'Envios para um público filtrado, imediatos ou agendados.',
  dcm: 'Gerenciador de Conteúdo Dinâmico: HTML, templates e convites inseridos nas páginas do seu site, sem mexer no código.',
};
const CREATE_LABELS: Record<MomentumType, string> = {
  momentum: 'Criar momentum',
  campaign: 'Criar campanha',
  dcm: 'Criar conteúdo',
};
const FIRST_ITEM: Record<MomentumType, string> = {
  momentum: 'Crie seu primeiro momentum para começar a engajar seus visitantes.',
  campaign: 'Crie sua primeira campanha para começar a engajar seus visitantes.',
  dcm: 'Crie seu primeiro conteúdo dinâmico: um selo, um banner ou um convite no lugar certo das suas páginas.',
};

const EMPTY: Record<TabValue, (many: string) => string> = {
  todos: (many) => `Você ainda não criou ${many}.`,
  ativos: (many) => `Nenhum item ativo em ${many}.`,
  agendados: () => 'Nada agendado por enquanto.',
  pausados: () => 'Nenhum item pausado.',
  rascunhos: () => 'Nenhum rascunho salvo.',
  removidos: () => 'Nenhum item removido.',
  concluidos: () => 'Nenhum item concluído ainda.',
};

/** The v2 list of momentums or campaigns, and the GCD listing: tabs and search live in the URL (?tab=, ?q=). */
export function MomentumList({ type }: { type: MomentumType }) {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const domainUuid = params.get('domain') ?? '';
  // GCD has no drafts (spec doc 2 §4: a new item is Active, or Paused with a schedule): no Rascunhos tab.
  const tabs: readonly (typeof TABS)[number][] = type === 'dcm' ? TABS.filter((t) => t.value !== 'rascunhos') : TABS;
  const asked = tabOf(params.get('tab'));
  const tab = tabs.includes(asked) ? asked : TABS[0];
  const search = params.get('q') ?? '';
  const query = useMomentums(domainUuid, type);
  const noun = NOUN[type];

  const stateError = (location.state as { error?: string } | null)?.error;
  useEffect(() => {
    if (!stateError) return;
    notifyError(stateError);
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [stateError, navigate, location.pathname, location.search]);

  const setParam = (key: string, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: key === 'q' },
    );

  const items = query.data ?? [];
  const counts = tabCounts(items);
  const needle = search.trim().toLocaleLowerCase('pt-BR');
  const rows = itemsOfTab(items, tab.value).filter(
    (item) => !needle || item.momentum_title.toLocaleLowerCase('pt-BR').includes(needle),
  );
  const createLink = withDomain(formPath(type), domainUuid);
  const columns = listColumns(type);
  // Below Mantine's sm breakpoint the table would show only '#' and 'Título': each item becomes a card.
  const phone = useMediaQuery('(max-width: 47.99em)') ?? false;

  return (
    <>
      <PageHeader
        title={noun.title}
        description={DESCRIPTIONS[type]}
        actions={
          <Group gap="sm">
            {type !== 'dcm' ? (
              <Button
                component={Link}
                to={withDomain(type === 'campaign' ? '/campaign/diagram' : '/momentum/diagram', domainUuid)}
                variant="light"
                leftSection={<IconSitemap size={16} />}
              >
                Criar no diagrama
              </Button>
            ) : null}
            <Button component={Link} to={createLink} leftSection={<IconPlus size={16} />}>
              {CREATE_LABELS[type]}
            </Button>
          </Group>
        }
      />
      <Paper withBorder radius="lg" p={0}>
        <Group justify="space-between" px="md" pt="sm" wrap="wrap" gap="sm">
          <Tabs value={tab.value} onChange={(v) => setParam('tab', v === 'todos' ? '' : (v ?? ''))} variant="default">
            <Tabs.List style={{ flexWrap: 'wrap' }}>
              {tabs.map((t) => (
                <Tabs.Tab
                  key={t.value}
                  value={t.value}
                  rightSection={
                    <Badge
                      size="sm"
                      variant={t.value === tab.value ? 'filled' : 'light'}
                      color={t.value === tab.value ? 'brand' : 'gray'}
                      circle={counts[t.value] < 10}
                    >
                      {query.isPending ? '·' : counts[t.value]}
                    </Badge>
                  }
                >
                  {t.label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </Tabs>
          <TextInput
            aria-label="Buscar por título"
            placeholder="Buscar por título"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => setParam('q', e.currentTarget.value)}
            w={{ base: '100%', sm: 260 }}
            mb="xs"
          />
        </Group>
        {query.isError ? (
          <Alert color="red" icon={<IconAlertTriangle />} m="md" title={`Não foi possível carregar ${noun.many}`}>
            <Text size="sm" mb="sm">
              {errorMessage(query.error)}
            </Text>
            <Button size="xs" variant="light" color="red" onClick={() => query.refetch()}>
              Tentar novamente
            </Button>
          </Alert>
        ) : !query.isPending && rows.length === 0 ? (
          <EmptyState
            py={56}
            variant="light"
            icon={type === 'dcm' ? <IconLayoutDashboard /> : <IconSpeakerphone />}
            title={needle ? 'Nenhum resultado' : EMPTY[tab.value](noun.many)}
            description={
              needle
                ? `Nenhum título contém "${search.trim()}" nesta aba.`
                : tab.value === 'todos'
                  ? FIRST_ITEM[type]
                  : 'Os itens aparecem aqui conforme o status muda.'
            }
          >
            {tab.value === 'todos' && !needle ? (
              <EmptyState.Actions>
                <Button component={Link} to={createLink} leftSection={<IconPlus size={16} />}>
                  {CREATE_LABELS[type]}
                </Button>
              </EmptyState.Actions>
            ) : null}
          </EmptyState>
        ) : phone ? (
          query.isPending ? (
            <Stack gap="sm" p="sm" aria-hidden>
              {[0, 1, 2].map((r) => (
                <Skeleton key={r} height={96} radius="md" data-testid="row-skeleton" />
              ))}
            </Stack>
          ) : (
            <Stack component="ul" gap="sm" p="sm" m={0} aria-label={noun.title}>
              {rows.map((item) => (
                <MomentumCard key={item.uuid} item={item} />
              ))}
            </Stack>
          )
        ) : (
          <Table.ScrollContainer minWidth={type === 'dcm' ? 940 : 1000}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label={noun.title}>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c} fz="xs" tt="uppercase" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {c}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {query.isPending
                  ? [0, 1, 2, 3].map((r) => (
                      <Table.Tr key={r} aria-hidden data-testid="row-skeleton">
                        {columns.map((c) => (
                          <Table.Td key={c}>
                            <Skeleton height={14} radius="sm" />
                          </Table.Td>
                        ))}
                      </Table.Tr>
                    ))
                  : rows.map((item, i) => <MomentumRow key={item.uuid} item={item} index={i} />)}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </>
  );
}
