import type { DomainUsage } from '@impeto/shared';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconServer2, IconWorldOff } from '@tabler/icons-react';
import { useState } from 'react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatCount } from '../../../lib/format.ts';
import { usePageTitle } from '../../../lib/page-title.ts';
import { useUsage } from '../api/usage.ts';

/** The channels as the usage table groups them (e-mail: Amazon SES and Akna together). */
const COLUMNS: { label: string; of: (m: Record<string, number>) => number }[] = [
  { label: 'Web push', of: (m) => m.CELL_NOTIFICATION ?? 0 },
  { label: 'No site', of: (m) => m.SUPERARE_WEBVIEW ?? 0 },
  { label: 'SMS', of: (m) => m.ZENVIA ?? 0 },
  { label: 'E-mail', of: (m) => (m.AWS_SES ?? 0) + (m.AKNA ?? 0) },
  { label: 'OneSignal', of: (m) => m.ONE_SIGNAL ?? 0 },
];

const monthLabel = new Intl.DateTimeFormat('pt-BR', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** This month and the eleven before it, as São Paulo counts them. */
function lastMonths(now = new Date()) {
  const [year, month] = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Sao_Paulo',
    year: 'numeric',
    month: '2-digit',
  })
    .format(now)
    .split('-')
    .map(Number) as [number, number];
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(Date.UTC(year, month - 1 - i, 1));
    const value = d.toISOString().slice(0, 7);
    const label = monthLabel.format(d);
    return { value, label: label.charAt(0).toUpperCase() + label.slice(1) };
  });
}

function PlanCard() {
  return (
    <Card withBorder padding="lg" component="section" aria-label="Seu plano">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={44} radius="md" variant="light">
          <IconServer2 size={24} />
        </ThemeIcon>
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={3} fz="lg">
              Auto-hospedado
            </Title>
            <Badge variant="light" color="green">
              Ativo
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            O Ímpeto roda na sua própria infraestrutura: não há mensalidade nem limite de eventos, visitantes ou
            mensagens imposto por nós. Os custos são os do seu servidor e banco de dados e as tarifas dos provedores que
            você integrar (Zenvia, Amazon SES, Akna, OneSignal). O uso abaixo ajuda a acompanhar esses custos.
          </Text>
        </Stack>
      </Group>
    </Card>
  );
}

/** A phone's version of the table: one card per domain with every figure labelled, nothing scrolled out of view. */
function UsageList({ domains }: { domains: DomainUsage[] }) {
  const figures = (d: DomainUsage): [string, number][] => [
    ['Eventos coletados', d.events],
    ['Visitantes', d.visitors],
    ...COLUMNS.map((c): [string, number] => [c.label, c.of(d.messages)]),
    ['Mensagens', d.messages_total],
  ];
  return (
    <Stack component="ul" gap="sm" m={0} p={0} aria-label="Uso por domínio">
      {domains.map((d) => (
        <Paper
          key={d.domain_uuid}
          component="li"
          aria-label={d.name}
          withBorder
          radius="md"
          p="sm"
          style={{ listStyle: 'none' }}
        >
          <Text fw={600} size="sm" mb={6}>
            {d.name}
          </Text>
          <SimpleGrid cols={2} spacing={6} verticalSpacing={4}>
            {figures(d).map(([label, value]) => (
              <Group key={label} justify="space-between" gap={4} wrap="nowrap">
                <Text size="xs" c="dimmed">
                  {label}
                </Text>
                <Text size="sm" fw={500} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatCount(value)}
                </Text>
              </Group>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );
}

function UsageTable({ domains }: { domains: DomainUsage[] }) {
  const total = (pick: (d: DomainUsage) => number) => domains.reduce((sum, d) => sum + pick(d), 0);
  const phone = useMediaQuery('(max-width: 47.99em)') ?? false;
  if (phone) return <UsageList domains={domains} />;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped verticalSpacing="sm" aria-label="Uso por domínio">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Domínio</Table.Th>
            <Table.Th ta="right">Eventos coletados</Table.Th>
            <Table.Th ta="right">Visitantes</Table.Th>
            {COLUMNS.map((c) => (
              <Table.Th key={c.label} ta="right">
                {c.label}
              </Table.Th>
            ))}
            <Table.Th ta="right">Mensagens</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {domains.map((d) => (
            <Table.Tr key={d.domain_uuid}>
              <Table.Td fw={500}>{d.name}</Table.Td>
              <Table.Td ta="right">{formatCount(d.events)}</Table.Td>
              <Table.Td ta="right">{formatCount(d.visitors)}</Table.Td>
              {COLUMNS.map((c) => (
                <Table.Td key={c.label} ta="right">
                  {formatCount(c.of(d.messages))}
                </Table.Td>
              ))}
              <Table.Td ta="right" fw={500}>
                {formatCount(d.messages_total)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        {domains.length > 1 ? (
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th>Total</Table.Th>
              <Table.Th ta="right">{formatCount(total((d) => d.events))}</Table.Th>
              <Table.Th ta="right">{formatCount(total((d) => d.visitors))}</Table.Th>
              {COLUMNS.map((c) => (
                <Table.Th key={c.label} ta="right">
                  {formatCount(total((d) => c.of(d.messages)))}
                </Table.Th>
              ))}
              <Table.Th ta="right">{formatCount(total((d) => d.messages_total))}</Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        ) : null}
      </Table>
    </Table.ScrollContainer>
  );
}

export default function PaymentPage() {
  usePageTitle('Plano e uso');
  const months = lastMonths();
  const [month, setMonth] = useState(months[0]!.value);
  const usage = useUsage(month);
  return (
    <>
      <PageHeader title="Plano e uso" description="Seu plano e o uso de cada domínio no mês." />
      <Stack gap="lg">
        <PlanCard />
        <Card withBorder padding="lg" component="section" aria-label="Uso do mês">
          <Group justify="space-between" mb="md" wrap="wrap">
            <div>
              <Title order={3} fz="lg">
                Uso do mês
              </Title>
              <Text size="sm" c="dimmed">
                Eventos e visitantes recebidos pelo coletor e mensagens enviadas, por canal.
              </Text>
            </div>
            <Select
              aria-label="Mês"
              data={months}
              value={month}
              onChange={(value) => value && setMonth(value)}
              allowDeselect={false}
              w={200}
            />
          </Group>
          {usage.isPending ? (
            <Skeleton height={140} aria-label="Carregando uso" />
          ) : usage.isError ? (
            <Alert color="red" icon={<IconAlertTriangle />} title="Não foi possível carregar o uso do mês">
              <Text size="sm" mb="sm">
                {errorMessage(usage.error)}
              </Text>
              <Button size="xs" variant="light" color="red" onClick={() => usage.refetch()}>
                Tentar novamente
              </Button>
            </Alert>
          ) : usage.data.domains.length === 0 ? (
            <Stack align="center" gap="xs" py="xl">
              <ThemeIcon size={44} radius="xl" variant="light" color="gray">
                <IconWorldOff size={22} />
              </ThemeIcon>
              <Text fw={500}>Nenhum domínio cadastrado</Text>
              <Text size="sm" c="dimmed">
                Cadastre um domínio para acompanhar o uso aqui.
              </Text>
            </Stack>
          ) : (
            <UsageTable domains={usage.data.domains} />
          )}
        </Card>
      </Stack>
    </>
  );
}
