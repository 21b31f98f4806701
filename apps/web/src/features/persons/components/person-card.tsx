import type { PersonSummary } from '@impeto/shared';
import { Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatCount, formatDateTime } from '../../../lib/format.ts';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" truncate title={value}>
        {value}
      </Text>
    </Stack>
  );
}

/** A found person's summary: who, since when, and how much is stored. */
export function PersonCard({ person }: { person: PersonSummary }) {
  return (
    <Paper withBorder radius="md" p="md" aria-label={`Visitante ${person.visitor_id}`}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Text fw={600} truncate title={person.visitor_id} ff="monospace" size="sm">
          {person.visitor_id}
        </Text>
        {person.push_status === 'subscribed' ? (
          <Badge variant="light" color="green" radius="sm">
            Push ativo
          </Badge>
        ) : null}
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
        <Field label="Nome" value={person.name ?? '—'} />
        <Field label="E-mail" value={person.email ?? '—'} />
        <Field label="Telefone" value={person.phone ?? '—'} />
        <Field label="Primeira visita" value={formatDateTime(person.first_seen)} />
        <Field label="Última visita" value={formatDateTime(person.last_seen)} />
        <Field label="Eventos" value={formatCount(person.events)} />
        <Field label="Envios" value={formatCount(person.deliveries)} />
      </SimpleGrid>
    </Paper>
  );
}
